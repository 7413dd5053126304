package gitx

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// Open finds the repository holding dir: a work tree (as Discover) or a
// bare repository, which the CI gate reads from Git objects alone
// (docs/ci.md#what-is-compared). A bare repository's WorkTree is its git
// dir, where git commands run. SHA-256 and reftable repositories are
// refused as Discover refuses them.
func Open(dir string) (*Repo, error) {
	r, err := Discover(dir)
	if err == nil || errors.Is(err, ErrUnsupported) {
		return r, err
	}
	cmd := exec.Command("git", "rev-parse", "--is-bare-repository", "--absolute-git-dir")
	cmd.Dir = dir
	out, gerr := cmd.Output()
	if gerr != nil {
		return nil, err
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2 || lines[0] != "true" {
		return nil, err
	}
	gd := filepath.Clean(lines[1])
	if ferr := checkFormat(gd); ferr != nil {
		return nil, ferr
	}
	return &Repo{WorkTree: gd, GitDir: gd, CommonDir: gd}, nil
}

// IsShallow reports whether the repository is a shallow clone.
func (r *Repo) IsShallow() bool {
	out, err := r.Git("rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// MergeBase returns the merge base of two commits.
func (r *Repo) MergeBase(a, b string) (string, error) {
	out, err := r.Git("merge-base", a, b)
	if err != nil {
		return "", fmt.Errorf("%s and %s have no merge base: %v", a, b, err)
	}
	return strings.TrimSpace(string(out)), nil
}
