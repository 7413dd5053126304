package cli

import (
	"path/filepath"
	"strings"

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
	hooksDir   string // effective git hooks dir ("" outside Git)
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
		env.hooksDir = hooksDir(repo, app.Getenv)
	}
	if env.project != nil {
		env.projectDir = env.project.Dir
	} else if env.root != "" {
		env.projectDir = filepath.Join(env.root, project.DirName)
	}
	return env
}

// hooksDir is the effective git hooks directory: core.hooksPath from the
// repository's config, else from the user's global config, else
// <common dir>/hooks. It reads the config files instead of running `git
// config` because the hook runs before every tool call and a process costs
// more than the whole check. include/includeIf are not followed; the
// guard also denies every write under any `.git/` directory regardless.
func hooksDir(repo *gitx.Repo, getenv func(string) string) string {
	home := getenv("HOME")
	xdg := getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	for _, f := range []string{filepath.Join(repo.CommonDir, "config"), filepath.Join(xdg, "git", "config"), filepath.Join(home, ".gitconfig")} {
		if v := readHooksPath(f); v != "" {
			if strings.HasPrefix(v, "~/") && home != "" {
				v = filepath.Join(home, v[2:])
			}
			if !filepath.IsAbs(v) {
				v = filepath.Join(repo.WorkTree, v)
			}
			return filepath.Clean(v)
		}
	}
	return filepath.Join(repo.CommonDir, "hooks")
}

func readHooksPath(path string) string {
	return gitx.ConfigValue(path, "core", "hooksPath")
}
