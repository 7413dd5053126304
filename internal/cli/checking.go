package cli

import (
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
)

// loadLoop loads one loop by name from the project, mapping failures to
// exit 1 with the parser's file:line message.
func loadLoop(p *project.Project, name string) (*loops.Loop, error) {
	l, err := loops.LoadByName(p.LoopsDir(), name)
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	return l, nil
}
