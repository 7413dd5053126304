package cli

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
)

// loadJobLoop is loadLoop for commands that put a loop in front of tool
// calls (a pinned install, explain): an abstract loop is a baseline to
// extend, never pinned (docs/loop-format.md#extends-and-abstract), so it
// is refused. `check` answers under it and says it is abstract.
func loadJobLoop(p *project.Project, name string) (*loops.Loop, error) {
	l, err := loadLoop(p, name)
	if err == nil && l.Abstract {
		return nil, &ExitError{Code: ExitError1,
			Err:  fmt.Errorf("%s: loop %s is abstract: a baseline other loops extend, not a job to check", l.Path, l.Name),
			Hint: fmt.Sprintf("check a loop that says `extends: %s`; `gitwarrant list` marks the abstract ones", l.Name)}
	}
	return l, err
}

// loadLoop loads one loop by name from the project, mapping failures to
// exit 1 with the parser's file:line message.
func loadLoop(p *project.Project, name string) (*loops.Loop, error) {
	l, err := loops.LoadByName(p.LoopsDir(), name)
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	return l, nil
}
