package gate

import (
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/shell"
	"github.com/gitwarrant/gitwarrant/internal/typed"
)

// kind is the verb a shell call is recorded under: the widest kind among
// its clauses, read, change or send (docs/typed-entries.md#kinds), and
// change when it writes a file. The current branch is read only for a call
// with a git clause (a rewrite of a protected branch sends).
func (a *analysis) kind(s *shell.Script) loops.Verb {
	env := typed.Env{Root: a.place.Root, Home: a.place.Home, Cwd: a.cwd,
		Resolve: func(p string) string { return Resolve(p, a.cwd, a.place.Home) }}
	for _, c := range s.Clauses {
		if c.Name() == "git" {
			env.Branch = a.branch()
			break
		}
	}
	v := typed.ScriptKind(s, env).Verb
	if v == loops.Read {
		for _, act := range a.c.Actions {
			switch act.Kind {
			case "write", "delete", "link", "chmod":
				return loops.Change
			}
		}
	}
	return v
}
