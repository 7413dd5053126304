package gitx

import (
	"os"

	"github.com/go-git/go-git/v5/config"
)

// DefaultIdentity signs record commits when no Git identity is configured;
// a missing user.name must never make an append fail (issue 3).
var DefaultIdentity = Identity{Name: "gitwarrant", Email: "gitwarrant@localhost"}

// Identity returns the committer for record commits: GIT_COMMITTER_* or
// GIT_AUTHOR_* from the environment, else user.name/user.email from the
// repository then global config, else DefaultIdentity.
func (r *Repo) Identity() Identity {
	id := Identity{Name: firstEnv("GIT_COMMITTER_NAME", "GIT_AUTHOR_NAME"), Email: firstEnv("GIT_COMMITTER_EMAIL", "GIT_AUTHOR_EMAIL")}
	if id.Name == "" || id.Email == "" {
		if cfg, err := r.objects().Config(); err == nil {
			fill(&id, cfg)
		}
	}
	if id.Name == "" || id.Email == "" {
		if cfg, err := config.LoadConfig(config.GlobalScope); err == nil {
			fill(&id, cfg)
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

func fill(id *Identity, cfg *config.Config) {
	if id.Name == "" {
		id.Name = cfg.User.Name
	}
	if id.Email == "" {
		id.Email = cfg.User.Email
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
