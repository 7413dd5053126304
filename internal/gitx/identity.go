package gitx

import (
	"os"
	"path/filepath"
)

// DefaultIdentity signs record commits when no Git identity is configured;
// a missing user.name must never make an append fail (issue 3).
var DefaultIdentity = Identity{Name: "gitwarrant", Email: "gitwarrant@localhost"}

// Identity returns the committer for record commits: GIT_COMMITTER_* or
// GIT_AUTHOR_* from the environment, else user.name/user.email from the
// repository then global config, else DefaultIdentity.
//
// The files and their order are those go-git's config.LoadConfig read
// before (the repository's config, then the first global file that
// exists); ConfigValue reads them without linking go-git's config.
func (r *Repo) Identity() Identity {
	id := Identity{Name: firstEnv("GIT_COMMITTER_NAME", "GIT_AUTHOR_NAME"), Email: firstEnv("GIT_COMMITTER_EMAIL", "GIT_AUTHOR_EMAIL")}
	if id.Name == "" || id.Email == "" {
		fillFrom(&id, filepath.Join(r.CommonDir, "config"))
	}
	if id.Name == "" || id.Email == "" {
		for _, path := range globalConfigPaths() {
			if _, err := os.Stat(path); err == nil {
				fillFrom(&id, path)
				break
			}
		}
	}
	if id.Name == "" {
		id.Name = DefaultIdentity.Name
	}
	if id.Email == "" {
		id.Email = DefaultIdentity.Email
	}
	return id
}

// globalConfigPaths lists the global config files in the order go-git's
// config.Paths(GlobalScope) gives them.
func globalConfigPaths() []string {
	var out []string
	if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
		out = append(out, filepath.Join(xdg, "git/config"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		out = append(out, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config/git/config"))
	}
	return out
}

// fillFrom fills the empty fields of id from user.name/user.email in one
// config file; an unreadable file fills nothing.
func fillFrom(id *Identity, path string) {
	if id.Name == "" {
		id.Name = ConfigValue(path, "user", "name")
	}
	if id.Email == "" {
		id.Email = ConfigValue(path, "user", "email")
	}
}

func firstEnv(keys ...string) string {
	for _, k := range keys {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return ""
}
