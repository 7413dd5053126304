package typed

import (
	"os"
	"path/filepath"
	"strings"
)

// CurrentBranch reads the branch HEAD names in the repository at root
// (following a worktree's `.git` file); "" when HEAD is detached or
// unreadable. It reads files only, so the hook runs no git process for it.
func CurrentBranch(root string) string {
	gitDir := filepath.Join(root, ".git")
	if b, err := os.ReadFile(gitDir); err == nil {
		s := strings.TrimSpace(string(b))
		if d, ok := strings.CutPrefix(s, "gitdir: "); ok {
			if !filepath.IsAbs(d) {
				d = filepath.Join(root, d)
			}
			gitDir = d
		}
	}
	b, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: refs/heads/")
	if !ok {
		return ""
	}
	return ref
}
