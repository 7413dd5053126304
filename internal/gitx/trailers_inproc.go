package gitx

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Trailers added in process (docs/record.md#commit-hooks): `git
// interpret-trailers` is a process of its own in every commit's
// commit-msg hook. addTrailers reproduces what it does with
// `--if-exists addIfDifferent` for the messages a commit has in practice
// — a title, an optional body, an optional block of trailers, Git's
// comment lines and scissors — and declines (ok false) anything else, left
// to Git: no trailing newline, a `---` divider, comment or whitespace-only
// lines inside the text, a last paragraph that is partly trailer-like. A
// test holds it to `git interpret-trailers` on every shape it accepts.

// scissorsLine is the line below which `git commit -v` puts the diff.
const scissorsLine = scissors + "\n"

// The expressions are compiled on first use, not at start-up: every
// command pays for package initialisation, few add trailers.
var (
	// trailerLine is a trailer as gitwarrant's and Git's own are written.
	trailerLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*: \S`) })
	// trailerLike is any line Git's parser might take for a trailer.
	trailerLike = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z0-9-]+\s*:|^\(cherry picked from commit `)
	})
)

// addTrailers appends trailer lines to msg as Git would place them.
func addTrailers(msg string, add []string) (string, bool) {
	if !strings.HasSuffix(msg, "\n") || strings.Contains(msg, "\r") {
		return "", false
	}
	cut := len(msg)
	if i := strings.Index("\n"+msg, "\n"+scissorsLine); i >= 0 {
		cut = i
	}
	lines := strings.SplitAfter(msg[:cut], "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	end := len(lines) // content is lines[:end]; the rest Git ignores
	for end > 0 && (lines[end-1] == "\n" || strings.HasPrefix(lines[end-1], "#")) {
		end--
	}
	if end == 0 {
		return "", false
	}
	lastBlank := -1
	for i, l := range lines[:end] {
		switch {
		case strings.HasPrefix(l, "---"), strings.HasPrefix(l, "#"), strings.HasPrefix(l, "Conflicts:"):
			return "", false
		case l == "\n":
			lastBlank = i
		case strings.TrimSpace(l) == "":
			return "", false
		}
	}
	block := lastBlank >= 0 // the title paragraph is never a trailer block
	like := 0
	for _, l := range lines[lastBlank+1 : end] {
		if l[0] == ' ' || l[0] == '\t' {
			return "", false // a continuation line
		}
		if trailerLike().MatchString(l) {
			like++
		}
		block = block && trailerLine().MatchString(l)
	}
	if !block && like > 0 && lastBlank >= 0 {
		return "", false
	}
	var b strings.Builder
	for _, l := range lines[:end] {
		b.WriteString(l)
	}
	if !block {
		b.WriteString("\n")
	}
	for _, t := range add {
		if block && hasLine(lines[lastBlank+1:end], t+"\n") {
			continue
		}
		b.WriteString(t + "\n")
	}
	for _, l := range lines[end:] {
		b.WriteString(l)
	}
	b.WriteString(msg[cut:])
	return b.String(), true
}

func hasLine(lines []string, l string) bool {
	for _, x := range lines {
		if x == l {
			return true
		}
	}
	return false
}

// plainTrailerConfig reports whether Git would place trailers with its
// defaults: no trailer.* settings, no other comment character, no
// includes, no settings passed on Git's command line, in any config file
// Git reads. A config file gitwarrant cannot read counts as not plain.
func (r *Repo) plainTrailerConfig() bool {
	if os.Getenv("GIT_CONFIG_PARAMETERS") != "" || os.Getenv("GIT_CONFIG_COUNT") != "" || os.Getenv("GIT_CONFIG") != "" {
		return false
	}
	files := append([]string{"/etc/gitconfig", filepath.Join(r.CommonDir, "config"), filepath.Join(r.GitDir, "config.worktree")}, globalConfigPaths()...)
	if p := os.Getenv("GIT_CONFIG_GLOBAL"); p != "" {
		files = append(files, p)
	}
	if p := os.Getenv("GIT_CONFIG_SYSTEM"); p != "" {
		files = append(files, p)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return false
		}
		s := strings.ToLower(string(b))
		for _, bad := range []string{"[trailer", "commentchar", "commentstring", "[include"} {
			if strings.Contains(s, bad) {
				return false
			}
		}
	}
	return true
}
