package cli

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/install"
	"github.com/gitwarrant/gitwarrant/internal/project"
)

// refreshSandbox brings the sandbox, session env and deny rules install
// wrote in step with the loops after `compile --target claude --write`
// (docs/install.md#the-sandbox), and says what it changed.
func refreshSandbox(app *App, p *project.Project) error {
	plan, err := install.PlanRefresh(p.Root, sandboxFor(p))
	if err != nil {
		return Failf("bringing the sandbox settings in step: %v", err)
	}
	if err := plan.Apply(); err != nil {
		return Failf("%v", err)
	}
	for _, c := range plan.Changes {
		fmt.Fprintf(app.IO.Out, "%-8s %s\n", c.Action(), c.Rel)
	}
	for _, n := range plan.Notices {
		fmt.Fprintln(app.IO.Err, n)
	}
	return nil
}
