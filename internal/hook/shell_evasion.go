package hook

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Evasions of the word-level shell analysis, found by red-teaming the gate
// (docs/design.md#enforcement-surfaces: "when in doubt, fail toward the human"). None of this makes
// the shell analysis complete — a shell is Turing-complete — but it closes
// the cheap tricks: a name split across a variable, a glob or a brace
// expansion, a write from inside `.git`, a gate switched off for one
// command, and a script or patch file that does the write for the command.

// maxScanned is the largest file whose content is read when a command runs
// or applies it; larger ones are not read (the command is judged by its
// own words only).
const maxScanned = 256 << 10

var (
	assignRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s;&|)]*)`)
	})
	braceRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([^{}]*,[^{}]*)\}`) })
	glue    = strings.NewReplacer("$(", "", "${", "", "`", "", ")", "", "}", "", "$", "")
)

// shellVariants are the readings of a command the analysis runs on: as
// written; with simple variable assignments substituted (`d=.gitwar;
// ${d}rant`); with expansion syntax removed so split words join
// (`$(printf gitwar)rant`); with brace alternatives expanded; and with any
// base64 words decoded (`echo … | base64 -d | sh`).
func shellVariants(cmd string) []string {
	subst := substitute(cmd)
	out := []string{cmd, subst, glue.Replace(subst)}
	out = append(out, expandBraces(subst, 16)...)
	if strings.Contains(strings.ToLower(cmd), "base64") {
		for _, w := range strings.Fields(unquote.Replace(cmd)) {
			if len(w) < 8 {
				continue
			}
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding} {
				if b, err := enc.DecodeString(w); err == nil {
					out = append(out, string(b))
					break
				}
			}
		}
	}
	return out
}

// substitute replaces $NAME and ${NAME} with the value a plain assignment
// in the same command gave NAME.
func substitute(cmd string) string {
	vals := map[string]string{}
	for _, m := range assignRe().FindAllStringSubmatch(cmd, -1) {
		vals[m[1]] = strings.Trim(m[2], `"'`)
	}
	if len(vals) == 0 {
		return cmd
	}
	for name, v := range vals {
		cmd = strings.ReplaceAll(cmd, "${"+name+"}", v)
		cmd = regexp.MustCompile(`\$`+name+`\b`).ReplaceAllLiteralString(cmd, v)
	}
	return cmd
}

// expandBraces expands `{a,b}` groups, at most limit results.
func expandBraces(s string, limit int) []string {
	loc := braceRe().FindStringSubmatchIndex(s)
	if loc == nil || limit <= 0 {
		return nil
	}
	var out []string
	for _, alt := range strings.Split(s[loc[2]:loc[3]], ",") {
		e := s[:loc[0]] + alt + s[loc[1]:]
		if more := expandBraces(e, limit-len(out)); more != nil {
			out = append(out, more...)
		} else {
			out = append(out, e)
		}
		if len(out) >= limit {
			break
		}
	}
	return out
}

// switchesGateOff finds a command that runs git with its hooks switched
// off (`--no-verify`, `commit -n`, HUSKY=0, another config) or that sets
// core.hooksPath by any route but reading it.
func switchesGateOff(raw, joined string, words []string) (string, bool) {
	for _, sw := range gateSwitches {
		if strings.Contains(joined, sw) {
			return "it runs git with the hooks that anchor the record switched off (" + sw + ")", true
		}
	}
	if commitSkipsHooks(raw) {
		return "it runs `git commit -n`, which skips the hooks that anchor the record", true
	}
	git, read := false, false
	for _, w := range words {
		switch {
		case w == "git" || strings.HasSuffix(w, "/git"):
			git = true
		case w == "--get" || w == "--get-all" || w == "--list" || w == "-l" || w == "--get-regexp" || w == "--show-origin":
			read = true
		}
	}
	if git && strings.Contains(joined, "update-ref") && strings.Contains(joined, "--stdin") {
		return "it runs `git update-ref --stdin`, whose refs (refs/gitwarrant among them) cannot be read from the command", true
	}
	if git && !read && strings.Contains(joined, "hookspath") {
		return "it points core.hooksPath elsewhere, which switches off the hooks that anchor the record", true
	}
	return "", false
}

var quotedRe = regexp.MustCompile(`'[^']*'|"(?:[^"\\]|\\.)*"`)

// commitSkipsHooks finds `git commit` with a short-flag cluster holding n
// (`-n`, `-anm`), reading flags only: quoted text and the value of -m, -F,
// -c and -C are skipped, so a message that mentions "-n" passes.
func commitSkipsHooks(raw string) bool {
	words := shellWords(strings.ToLower(quotedRe.ReplaceAllString(raw, " q ")))
	git, commit, skip := false, false, false
	for _, w := range words {
		switch {
		case skip:
			skip = false
		case w == "git" || strings.HasSuffix(w, "/git"):
			git, commit = true, false
		case w == "commit" && git:
			commit = true
		case commit && len(w) > 1 && w[0] == '-' && w[1] != '-':
			if strings.ContainsRune(strings.TrimRight(w, "mfcC"), 'n') {
				return true
			}
			skip = strings.ContainsAny(w[len(w)-1:], "mfc")
		}
	}
	return false
}

// mentionedWord finds a protected place named by a word rather than a
// substring: a `.git` path component (`cd .git; echo > hooks/x`), the
// `.claude` directory itself (`rm -rf .claude`), or a glob that expands,
// on this file system, to a protected path (`.g*/hooks/*`).
func (g guard) mentionedWord(words []string) string {
	for _, w := range words {
		comps := components(w)
		for i, c := range comps {
			if c == ".git" {
				return ".git/"
			}
			if c == ".claude" && i == len(comps)-1 {
				return ".claude/"
			}
		}
		if strings.ContainsAny(w, "*?[") {
			if m := g.globHits(w); m != "" {
				return m
			}
		}
	}
	return ""
}

// globHits expands a glob word against the cwd and reports the first
// protected path it matches. The word is lower-cased by then, so on a
// case-sensitive file system a glob with upper case may miss; the
// ".gitw" marker and the `.git` component rule catch the usual forms.
func (g guard) globHits(w string) string {
	base := g.cwd
	if base == "" {
		base = g.repoRoot
	}
	pat := w
	if !filepath.IsAbs(pat) {
		if base == "" {
			return ""
		}
		pat = filepath.Join(base, pat)
	}
	// The file itself may not exist yet: a glob over its directories
	// (`.g?t/hooks/`) decides as well.
	for strings.ContainsAny(pat, "*?[") {
		matches, _ := filepath.Glob(pat)
		for _, m := range matches {
			if _, hit := g.pathIn(resolve(m, "")); hit {
				return w
			}
		}
		if parent := filepath.Dir(pat); parent != pat {
			pat = parent
		} else {
			break
		}
	}
	return ""
}

// runners are commands that execute or apply the content of a file named
// in the command; appliers need only name a protected place in it.
var (
	runners      = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "source": true, ".": true, "pwsh": true, "powershell": true}
	appliers     = map[string]bool{"apply": true, "am": true, "patch": true}
	interpreters = map[string]bool{"python": true, "python3": true, "node": true, "perl": true, "ruby": true, "php": true, "deno": true, "bun": true}
)

// shellIndirect reads the files a command runs or applies — a script the
// agent wrote a moment ago with the Write tool, a patch — and
// judges their content as if it were the command (appliers: a mention of
// a protected place is enough; interpreters: judged with their own name).
// Makefiles are not read: `make` runs in ordinary work, and a Makefile that
// installs hooks would block every build.
func (g guard) shellIndirect(cmd string) (string, bool) {
	words := shellWords(unquote.Replace(cmd))
	run, apply, interp := false, false, ""
	for _, w := range words {
		base := strings.ToLower(w[strings.LastIndex(w, "/")+1:])
		switch {
		case runners[base] || strings.HasPrefix(w, "./"):
			run = true
		case appliers[base]:
			apply = true
		case interpreters[base] && interp == "":
			interp = base
		}
	}
	if !run && !apply && interp == "" {
		return "", false
	}
	for _, f := range words {
		content, name := g.readScanned(f)
		if content == "" {
			continue
		}
		if apply {
			if m := g.mentioned(strings.ToLower(content)); m != "" {
				return "it applies " + name + ", which changes " + m + "; the loops, the record, the git hooks and the hook settings are changed by a person", true
			}
		}
		prefix := ""
		if interp != "" && !run {
			prefix = interp + " "
		}
		if why, hit := g.shellOne(prefix + content); hit {
			return "it runs " + name + ", and " + why, true
		}
	}
	return "", false
}

// readScanned returns the content of an existing regular file of at most
// maxScanned bytes outside the protected places, or "".
func (g guard) readScanned(w string) (string, string) {
	if w == "" || strings.HasPrefix(w, "-") || strings.ContainsAny(w, "*?[=") {
		return "", ""
	}
	p := cleanAbs(w, g.cwd)
	if !filepath.IsAbs(p) {
		return "", ""
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScanned {
		return "", ""
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", ""
	}
	return string(b), w
}
