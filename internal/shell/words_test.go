package shell

import (
	"slices"
	"testing"
)

func firstArg(t *testing.T, src string) Word {
	t.Helper()
	s := Parse(src)
	if s.Opaque || len(s.Clauses) == 0 || len(s.Clauses[0].Argv) < 2 {
		t.Fatalf("%s: no argument: %s", src, dump(s))
	}
	return s.Clauses[0].Argv[1]
}

func TestWordsUnquoting(t *testing.T) {
	for _, c := range []struct{ src, text string }{
		{`echo ma''in`, "main"},
		{`echo ma""in`, "main"},
		{`echo m\ain`, "main"},
		{`echo "m\ain"`, `m\ain`},
		{`echo "a\"b\$c\\d\` + "`" + `"`, "a\"b$c\\d`"},
		{`echo 'a\nb'`, `a\nb`},
		{`echo $'\x2egit'`, ".git"},
		{`echo $'\056git'`, ".git"},
		{`echo $'\u002egit'`, ".git"},
		{`echo $'\U0000002egit'`, ".git"},
		{`echo $'a\tb\'c\\'`, "a\tb'c\\"},
		{`echo $'\cA'x`, "\x01x"},
		{`echo $'ab\x00cd'`, "ab"},
		{`echo $'\e[0m'`, "\x1b[0m"},
		{`echo $"loc"`, "loc"},
		{"echo a\\\nb", "ab"},
		{`echo "a"'b'$'c'd`, "abcd"},
		{`echo \~`, "~"},
		{`echo '~'/x`, "~/x"},
		{"echo \"$(cat <<'EOF'\nfix: a\n\nbody\nEOF\n)\"", "fix: a\n\nbody"},
		{"echo \"x $(cat <<EOF\nplain\nEOF\n)\"", "x plain"},
		{`echo "$(echo a b)"`, "a b"},
		{`echo "$(printf 'git push\n\n')"`, "git push"},
		{`echo "$(cat <<< main)"`, "main"},
	} {
		w := firstArg(t, c.src)
		if w.Text != c.text || !w.Literal {
			t.Errorf("%s: got %q literal=%v (%s), want %q literal", c.src, w.Text, w.Literal, w.Why, c.text)
		}
	}
}

func TestWordsNonLiteral(t *testing.T) {
	for _, c := range []struct {
		src   string
		parts []string
	}{
		{`echo $HOME/.git`, []string{"/.git"}},
		{`echo "${X}/.gitwarrant"`, []string{"/.gitwarrant"}},
		{`echo ${X:-.gitwarrant/loops}`, []string{".gitwarrant/loops"}},
		{`echo $(pwd)/.git`, []string{"/.git"}},
		{"echo `pwd`/.git", []string{"/.git"}},
		{`echo $((1+2))`, nil},
		{"echo $(cat <<'EOF'\na b\nEOF\n)", nil},
		{"echo \"$(cat <<EOF\n$(id)\nEOF\n)\"", nil},
		{"echo \"$(cat -n <<'EOF'\nx\nEOF\n)\"", nil},
		{`echo <(ls)`, nil},
		{`echo @(a|b)`, []string{"a|b"}},
		{`echo ~root/.ssh`, []string{"~root/.ssh"}},
		{`echo ~+/x`, nil},
		{`echo ~-`, nil},
		{`echo a=~/x`, nil},
		{`echo PATH=x:~/bin`, nil},
	} {
		w := firstArg(t, c.src)
		if w.Literal {
			t.Errorf("%s: literal %q, want non-literal", c.src, w.Text)
		}
		for _, p := range c.parts {
			if !slices.Contains(w.Parts, p) {
				t.Errorf("%s: parts %q lack %q", c.src, w.Parts, p)
			}
		}
		s := Parse(c.src)
		if !s.Clauses[0].Opaque && !w.ParamsOnly && !w.ValuesOnly {
			// echo of plain parameters is a read of the environment, of a
			// command substitution the output of a clause of its own
			// (TestEchoParams).
			t.Errorf("%s: clause not opaque", c.src)
		}
	}
}

func TestWordsTilde(t *testing.T) {
	for _, c := range []struct {
		src   string
		tilde bool
	}{
		{`echo ~`, true},
		{`echo ~/.ssh/id_rsa`, true},
		{`echo "~"/x`, false},
		{`echo x~`, false},
		{`echo '~/x'`, false},
	} {
		w := firstArg(t, c.src)
		if !w.Literal || w.Tilde != c.tilde {
			t.Errorf("%s: literal=%v tilde=%v, want literal tilde=%v", c.src, w.Literal, w.Tilde, c.tilde)
		}
	}
	s := Parse(`X=~/bin cmd`)
	if a := s.Clauses[0].Assigns[0]; !a.Value.Tilde || a.Value.Text != "~/bin" {
		t.Errorf("assignment tilde: %+v", a.Value)
	}
}

func TestWordsBraces(t *testing.T) {
	for _, c := range []struct {
		src    string
		braces []string
	}{
		{`echo .git/hooks/{pre-commit,pre-push}`, []string{".git/hooks/pre-commit", ".git/hooks/pre-push"}},
		{`echo {.,}gitwarrant`, []string{".gitwarrant", "gitwarrant"}},
		{`echo a{1..3}`, []string{"a1", "a2", "a3"}},
		{`echo {01..03}`, []string{"01", "02", "03"}},
		{`echo {a..c}`, []string{"a", "b", "c"}},
		{`echo {5..1..2}`, []string{"5", "3", "1"}},
		{`echo {a,'b c'}`, []string{"a", "b c"}},
		{`echo {x,{y,z}}w`, []string{"xw", "yw", "zw"}},
		{`echo {a,b}{c,d}`, []string{"ac", "ad", "bc", "bd"}},
	} {
		w := firstArg(t, c.src)
		if !slices.Equal(w.Braces, c.braces) || !w.Glob {
			t.Errorf("%s: braces %q glob=%v, want %q", c.src, w.Braces, w.Glob, c.braces)
		}
	}
	for _, src := range []string{`echo {a}`, `echo {}`, `echo '{a,b}'`, `echo "{a,b}"`, `echo \{a,b}`, `echo {a..}`, `echo {1..a}`} {
		w := firstArg(t, src)
		if len(w.Braces) > 0 || w.Glob {
			t.Errorf("%s: braces %q glob=%v, want none", src, w.Braces, w.Glob)
		}
	}
	if w := firstArg(t, `echo {1..100000}`); w.Literal {
		t.Errorf("a huge brace expansion must not be literal")
	}
	if c := Parse(`X={a,b} cmd`).Clauses[0]; len(c.Assigns[0].Value.Braces) > 0 {
		t.Errorf("no brace expansion in assignments")
	}
}

func TestWordsGlobs(t *testing.T) {
	for _, c := range []struct {
		src, pattern string
		glob         bool
	}{
		{`echo *.go`, "*.go", true},
		{`echo .git/hooks/pre-*`, ".git/hooks/pre-*", true},
		{`echo '.git/hooks/'*`, `.git/hooks/*`, true},
		{`echo "*".go`, "", false},
		{`echo \*.go`, "", false},
		{`echo .gi?`, ".gi?", true},
		{`echo .gi[t]`, ".gi[t]", true},
		{`echo [`, "", false},
		{`echo "a*"b?`, `a\*b?`, true},
	} {
		w := firstArg(t, c.src)
		if w.Glob != c.glob || w.Pattern != c.pattern {
			t.Errorf("%s: glob=%v pattern %q, want %v %q", c.src, w.Glob, w.Pattern, c.glob, c.pattern)
		}
	}
}

func TestKnownVariables(t *testing.T) {
	checkWant(t, `F=.gitwarrant; rm -rf $F`, want{effects: []string{"delete .gitwarrant"}, opaque: true})
	checkWant(t, `D=.git; echo x > "$D/hooks/pre-commit"`, want{effects: []string{"write .git/hooks/pre-commit"}})
	checkWant(t, `G=git; $G push --force origin main`, want{push: []string{"force push to main"}, opaque: true})
	checkWant(t, `export B=main; git push origin HEAD:$B`, want{push: []string{"push to main"}})
	s := Parse(`x=$(rm -rf .git)`)
	n := 0
	for _, c := range s.Clauses {
		if c.Name() == "rm" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("a substitution in an assignment must be walked once, got %d:\n%s", n, dump(s))
	}
	for _, src := range []string{
		`F=a; if x; then F=.git; fi; rm $F`,
		`F=a; for F in .git; do :; done; rm $F`,
		`F=a; read F; rm $F`,
		`F=a; (( F=1 )); rm $F`,
		`F=a; eval F=.git; rm $F`,
		`F=a; F=$(pwd); rm $F`,
	} {
		s := Parse(src)
		last := s.Clauses[len(s.Clauses)-1]
		if w := last.Argv[1]; w.Text == "a" {
			t.Errorf("%s: stale value %q", src, w.Text)
		}
	}
	// a subshell's assignment does not leak
	s = Parse(`F=a; (F=.git); rm $F`)
	if w := s.Clauses[len(s.Clauses)-1].Argv[1]; w.Text != "a" {
		t.Errorf("subshell assignment leaked: %q", w.Text)
	}
}

// TestEchoParams: echo of plain parameters prints the environment, a read,
// and echo of a command substitution prints what a clause of its own
// outputs; anything more expanded in its operands, or another command, is
// opaque.
func TestEchoParams(t *testing.T) {
	for _, c := range []struct {
		src    string
		opaque bool
	}{
		{`echo "$HOME"`, false},
		{`echo $HOME ${USER}`, false},
		// a variable whose name says secret is not a read of the
		// environment to let through: printing it is what is stopped
		{`echo "$AWS_SECRET_ACCESS_KEY"`, true},
		{`echo "$(git rev-parse HEAD) $GITHUB_TOKEN"`, true},
		{`echo "${HOME:-$(id)}"`, true},
		{`echo "${!name}"`, true},
		// a command substitution in what echo prints is a clause of its
		// own, judged there: the echo only prints its output
		{`echo "$(id)"`, false},
		{`echo $(git rev-parse HEAD)`, false},
		{"echo `id`", false},
		{`echo "head: $(git rev-parse HEAD) in $PWD"`, false},
		{`echo $(id)*`, true},
		{`echo <(id)`, true},
		{`echo $((1+2))`, true},
		{`echo "${x:-$(id)}"`, true},
		{`printf "$(id)"`, true},
		{`cat "$(git rev-parse --show-toplevel)/x"`, true},
		{`$(echo rm) -rf x`, true},
		{`printf "$HOME"`, true},
		{`$HOME/run.sh`, true},
		{`cat "$HOME/x"`, true},
	} {
		if got := Parse(c.src).Clauses[0].Opaque; got != c.opaque {
			t.Errorf("%s: opaque = %v, want %v", c.src, got, c.opaque)
		}
	}
	// what the substitution runs is read as a clause of its own
	for _, src := range []string{`echo "$(rm -rf ~)"`, "echo `rm -rf ~`", `echo "x $(rm -rf ~)"`} {
		s := Parse(src)
		if len(s.Clauses) != 2 || s.Clauses[1].Name() != "rm" || len(s.Clauses[1].Via) == 0 {
			t.Errorf("%s: clauses %+v, want echo and the rm it runs", src, s.Clauses)
		}
	}
}
