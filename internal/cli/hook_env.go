package cli

import (
	"path/filepath"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/project"
)

// hookEnv is where a hook call happens: the project (nil when there is
// none) and the places self-protection guards, known even without a
// project so that a bare hook still refuses to let an agent plant one.
type hookEnv struct {
	project    *project.Project
	projectErr error
	root       string // work tree root, else the directory searched from
	projectDir string // the project dir, or where `init` would put it
	repo       *gitx.Repo
}

// findHookEnv locates the project for a hook call. An explicit --dir or
// GITWARRANT_DIR/DOCKET_DIR wins (docs/design.md#repository-layout); otherwise Claude Code's
// project directory, then the payload's cwd, then the process's: the agent
// may have `cd`-ed anywhere, but the hook settings live in the project.
func findHookEnv(app *App, dir string, cwds ...string) hookEnv {
	var env hookEnv
	explicit := dir != "" || app.Getenv("GITWARRANT_DIR") != "" || app.Getenv("DOCKET_DIR") != ""
	var first string
	for _, c := range cwds {
		if c == "" {
			continue
		}
		if first == "" {
			first = c
		}
		p, err := project.Find(project.Options{Dir: dir, Env: app.Getenv, Cwd: c})
		if err == nil {
			env.project, env.projectErr = p, nil
			break
		}
		if env.projectErr == nil {
			env.projectErr = err
		}
		if explicit {
			break
		}
	}
	base := first
	if env.project != nil {
		base = env.project.Root
	}
	env.root = base
	if repo, err := gitx.Locate(base); err == nil { // paths only: a refused repository is guarded too
		env.repo = repo
		env.root = repo.WorkTree
	}
	if env.project != nil {
		env.projectDir = env.project.Dir
	} else if env.root != "" {
		env.projectDir = filepath.Join(env.root, project.DirName)
	}
	return env
}

// gitHooksDir is the effective git hooks directory ("" outside Git), asked
// of git only when the guard needs it: a PostToolUse call never does.
func (e hookEnv) gitHooksDir() string {
	if e.repo == nil {
		return ""
	}
	return hooksDir(e.repo)
}

// hooksDir is the effective git hooks directory, as git resolves it
// (includes and includeIf honoured), so the guard protects the directory
// install wrote to. Asking git costs one process per hook call; reading the
// config files by hand missed core.hooksPath set through an include. When
// git cannot answer, the default <common dir>/hooks is guarded — and every
// write under any .git/ directory is denied regardless.
func hooksDir(repo *gitx.Repo) string {
	if dir, err := repo.HooksDir(); err == nil {
		return dir
	}
	return filepath.Join(repo.CommonDir, "hooks")
}
