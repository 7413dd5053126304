package shell

import (
	"os/exec"
	"strings"
	"testing"
)

// TestWordsMatchBash: for literal words, the parser's values are what
// Bash itself passes to a command (printf prints each argument), in an
// empty directory (globs match nothing and stay as written) with HOME=/h.
func TestWordsMatchBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	words := []string{
		`ma''in`, `ma""in`, `m\ain`, `"m\ain"`, `'a\nb'`, `$'\x2egit'`, `$'\056git'`, `$'\u002egit'`,
		`$'\U0000002egit'`, `$'a\tb\'c\\'`, `$'\cA'x`, `$'ab\x00cd'`, `$'\e[0m'`, `$"loc"`, `"a"'b'$'c'd`,
		`\~`, `'~'/x`, `~`, `~/.ssh/id_rsa`, `x~`, `.git/hooks/{pre-commit,pre-push}`, `{.,}gitwarrant`,
		`a{1..3}`, `{01..03}`, `{a..c}`, `{5..1..2}`, `{a,'b c'}`, `{x,{y,z}}w`, `{a,b}{c,d}`, `{a}`, `{}`,
		`'{a,b}'`, `\{a,b}`, `{a..}`, `{1..a}`, `*.go`, `.git/hooks/pre-*`, `"*".go`, `\*.go`, `.gi?`, `.gi[t]`,
		`[`, `$'\x2e'git/{hooks,config}`, `"\$HOME"`, `"a\"b"`, "\"\\`\"", `'it'\''s'`, `$'it\'s'`, `a\ b`,
		`"$(cat <<'EOF'` + "\nfix: a\n\nbody\nEOF\n" + `)"`, `{-1..1}`, `{a,b}\ c`, `$'\x41\x42'{1,2}`, `--opt={a,b}`,
		`x=~/a`, `\$'x'`, `"$(echo a  b)"`, `"$(printf 'x\ty\n\n')"`, `"$(echo -n 'a\tb')"`, `"$(cat <<< 'h s')"`,
		`"$(echo -e 'a\tb')"`, `"$(printf %s x)"`, `"$'\x2e'git"`, `'$"x"'`, `"\$"`, `$"\x2e"`, `"a\
b"`, `a\
b`, `'a\
b'`, `$'a\
b'`, `"\!"`, `\!`, `"$'"`, `"'"'"'`, `$'\101\x41\u0041'`, `$'\18'`, `$'\x4g'`, `$'\z'`,
	}
	for _, w := range words {
		src := `printf '%s\0' ` + w
		s := Parse(src)
		if s.Opaque || len(s.Clauses) == 0 {
			t.Errorf("%s: not parsed: %s", w, s.Why)
			continue
		}
		c := s.Clauses[0]
		var mine []string
		literal := true
		for _, a := range c.Expanded()[2:] {
			txt := a.Text
			if a.Tilde {
				txt = "/h" + strings.TrimPrefix(txt, "~")
			}
			mine = append(mine, txt)
			literal = literal && a.Literal
		}
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", src)
		cmd.Dir = t.TempDir()
		cmd.Env = []string{"HOME=/h", "PATH=/usr/bin:/bin", "LC_ALL=C"}
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%s: bash: %v", w, err)
			continue
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if !literal {
			// a non-literal word's Text is its literal parts only
			if strings.Join(got, " ") == strings.Join(mine, " ") {
				t.Logf("%s: non-literal but reads as bash does", w)
			}
			continue
		}
		if strings.Join(got, "\x00") != strings.Join(mine, "\x00") {
			t.Errorf("%s: bash passes %q, the parser reads %q", w, got, mine)
		}
	}
}
