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

// LocalBranch reports whether the repository at root has a local branch
// named name (refs/heads/<name>, loose or packed), reading files only. A
// branch git checkout moves to is not a path it overwrites.
func LocalBranch(root, name string) bool {
	if root == "" || name == "" || strings.Contains(name, "..") || strings.HasPrefix(name, "-") {
		return false
	}
	gitDir := filepath.Join(root, ".git")
	if b, err := os.ReadFile(gitDir); err == nil {
		d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
		if !ok {
			return false
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		gitDir = d
	}
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		d := strings.TrimSpace(string(b))
		if !filepath.IsAbs(d) {
			d = filepath.Join(gitDir, d)
		}
		gitDir = d
	}
	if fi, err := os.Stat(filepath.Join(gitDir, "refs", "heads", filepath.FromSlash(name))); err == nil && fi.Mode().IsRegular() {
		return true
	}
	b, err := os.ReadFile(filepath.Join(gitDir, "packed-refs"))
	return err == nil && strings.Contains(string(b), " refs/heads/"+name+"\n")
}
