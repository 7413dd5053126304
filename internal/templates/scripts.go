package templates

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// scriptDirs are where projects keep the shell scripts their docs tell
// contributors (and agents) to run, besides the repository root.
var scriptDirs = []string{"", "scripts", "script", "tools", "hack", "dev"}

// scriptNameRE is the spelling of a script an entry can name as it is.
var scriptNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`) })

// riskyScriptName names scripts a fix loop does not run on its own, beyond
// riskyScript: installers, hook managers, pushes, and the build tools'
// own wrappers and generators (`./gradlew`, `./mvnw` are named task by
// task; `./configure` rewrites the Makefile a make entry runs).
var riskyScriptName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)install|hook|push|^(gradlew|mvnw|configure)$`)
})

// detectScripts names the project's own shell scripts
// (docs/typed-entries.md#project-scripts): each run by path, by bash and by
// sh, at the repository root only (loops.RunsLocalFile), with edits of
// the script asked, so what an entry runs is what a person committed.
// Scripts that deploy, release, publish, migrate, seed, install or push are
// left out, as package scripts and make targets are.
func detectScripts(r repo, p *Project) {
	for _, dir := range scriptDirs {
		entries, err := os.ReadDir(filepath.Join(r.root, filepath.FromSlash(dir)))
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if !e.Type().IsRegular() || !scriptNameRE().MatchString(name) || riskyScript().MatchString(name) ||
				riskyScriptName().MatchString(name) || !r.shellScript(path.Join(dir, name)) {
				continue
			}
			rel := path.Join(dir, name)
			cmds := []string{"./" + rel + " *", "bash " + rel + " *", "sh " + rel + " *"}
			if dir != "" {
				cmds = append(cmds, rel+" *")
			}
			p.Change = append(p.Change, bash(cmds...)...)
			// At any depth: `cd sub && ./test.sh` runs sub/test.sh, which
			// the entry does not name, but an edit there is asked too.
			p.Ask = append(p.Ask, "Edit(**/"+rel+")")
		}
	}
}

// shellScript reports whether the file is a shell script: a .sh name, or
// a #! line naming sh or bash.
func (r repo) shellScript(name string) bool {
	if strings.HasSuffix(name, ".sh") {
		return true
	}
	first, _, _ := strings.Cut(r.read(filepath.FromSlash(name)), "\n")
	f := strings.Fields(strings.TrimPrefix(first, "#!"))
	if !strings.HasPrefix(first, "#!") || len(f) == 0 {
		return false
	}
	n := path.Base(f[0])
	if n == "env" && len(f) > 1 {
		n = f[1]
	}
	return n == "sh" || n == "bash"
}
