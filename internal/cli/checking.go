package cli

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/vouch"
)

// loadJobLoop is loadLoop for commands that put a loop in front of tool
// calls (a pinned install, explain): an abstract loop is a baseline to
// extend, never pinned (docs/loop-format.md#extends-and-abstract), so it
// is refused. `check` answers under it and says it is abstract.
func loadJobLoop(app *App, p *project.Project, name string) (*loops.Loop, error) {
	l, err := loadLoop(app, p, name)
	if err == nil && l.Abstract {
		return nil, &ExitError{Code: ExitError1,
			Err:  fmt.Errorf("%s: loop %s is abstract: a baseline other loops extend, not a job to check", l.Path, l.Name),
			Hint: fmt.Sprintf("check a loop that says `extends: %s`; `gitwarrant list` marks the abstract ones", l.Name)}
	}
	return l, err
}

// loadLoop loads one loop by name from the project, as the record puts
// it in force (docs/signing.md#only-a-signed-warrant-is-in-force), mapping
// failures to exit 1 with the parser's file:line message. When the version
// in force is not the file's, it says so on stderr.
func loadLoop(app *App, p *project.Project, name string) (*loops.Loop, error) {
	l, err := vouch.Loader(nil, p).LoadByName(p.LoopsDir(), name)
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	noteInForce(app, l)
	return l, nil
}

// noteInForce tells the person when a loop's file is not the version in
// force.
func noteInForce(app *App, l *loops.Loop) {
	if l.Unsigned != "" {
		fmt.Fprintf(app.IO.Err, "note: %s\n", l.Unsigned)
	}
}
