// Package cli is gitwarrant's command tree: one file per command, an exit
// code table, error rendering and JSON output types (docs/design.md#code-shape).
package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/term"
)

// Version is the gitwarrant version, overridable at link time.
var Version = "0.1.0-dev"

// App carries everything a command needs from the outside world: streams,
// environment, working directory and clock. Tests build their own.
type App struct {
	IO     *term.Streams
	Getenv func(string) string
	Cwd    string
	Now    func() time.Time

	// DirFlag is the global --dir value.
	DirFlag string

	// Self is the absolute path this binary was run as (a PATH entry keeps
	// its name, so a package manager's symlink survives upgrades); ""
	// when unknown. install records it in the per-clone git hooks.
	Self string

	// GateSelf is the gitwarrant binary the gate recognises in a command
	// under any name (gate.Env.Self); "" is the running binary. The
	// server, gitwarrant-mcp, sets it to the gitwarrant beside it: that is
	// the binary whose commands only people may run (ServerMain).
	GateSelf string
}

// NewSystemApp returns an App wired to the real process.
func NewSystemApp() *App {
	cwd, _ := os.Getwd()
	return &App{
		IO:     term.System(os.Getenv),
		Getenv: os.Getenv,
		Cwd:    cwd,
		Now:    time.Now,
		Self:   selfPath(),
	}
}

// selfPath is the absolute path of the running binary as it was invoked.
func selfPath() string {
	arg0 := os.Args[0]
	if !strings.ContainsRune(arg0, filepath.Separator) {
		if p, err := exec.LookPath(arg0); err == nil {
			arg0 = p
		}
	}
	if abs, err := filepath.Abs(arg0); err == nil && isExecutableFile(abs) {
		return abs
	}
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return ""
}

func isExecutableFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0
}

// Project finds the project per docs/design.md#repository-layout (--dir, GITWARRANT_DIR,
// DOCKET_DIR, walk up from the working directory).
func (a *App) Project() (*project.Project, error) {
	p, err := project.Find(project.Options{Dir: a.DirFlag, Env: a.Getenv, Cwd: a.Cwd})
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	return p, nil
}
