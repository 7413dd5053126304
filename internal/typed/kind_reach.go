package typed

import (
	"sort"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/shell"
)

// reachWords are further words a final ` *` lets through: subcommands
// that publish, deploy, push, merge or that no table knows.
var reachWords = []string{"publish", "deploy", "push", "merge", "apply", "delete", "frobnicate-unknown", "POST"}

// reachOptions are the options that make a read or a local change send
// or rewrite a protected ref, tried after an entry that spells no option
// of its own (`Bash(gh api *)`, `Bash(git branch *)`).
var reachOptions = []string{"-X PUT repos/o/r/pulls/1/merge", "-f main HEAD~1", "-d v1", "--root", "--push", "-B main", "--amend",
	"--post-data=x"}

// Reach is the widest kind of the clauses a Bash entry names
// (docs/typed-entries.md#kinds): its own words, and for an entry with a
// final ` *` its words followed by the subcommands and options that widen
// a command, and by each script of the package.json in env's folder. An
// entry of another tool, or one no table knows, reaches "".
func Reach(t *loops.Typed, env Env) Kind {
	words := t.Words()
	if t.Tool != loops.ToolBash || len(words) == 0 || t.CatchAll() != "" {
		return Kind{}
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = quoteArg(w, false)
	}
	base := strings.Join(quoted, " ")
	k := reachOf(base, env)
	if !t.OpenEnded() {
		return k
	}
	probes := append([]string{}, reachWords...)
	optionFree := true
	for _, w := range words[1:] {
		optionFree = optionFree && !strings.HasPrefix(w, "-")
	}
	if optionFree {
		probes = append(probes, reachOptions...)
	}
	switch baseName(words[0]) {
	case "npm", "pnpm", "yarn", "bun":
		if scripts, err := readScripts(env.path("package.json").Abs); err == nil {
			names := make([]string, 0, len(scripts))
			for n := range scripts {
				names = append(names, quoteArg(n, false))
			}
			sort.Strings(names)
			probes = append(probes, names...)
		}
	}
	for _, p := range probes {
		k = Wider(k, reachOf(base+" "+p, env))
	}
	k.Manifests = nil
	return k
}

// reachOf is the widest kind among the clauses of one command line.
func reachOf(cmd string, env Env) Kind {
	s := shell.Parse(cmd)
	var k Kind
	if s.Opaque {
		return k
	}
	for _, c := range s.Clauses {
		k = Wider(k, ClauseKind(c, env))
	}
	return k
}
