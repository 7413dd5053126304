package gitx

import (
	"context"
	"errors"
	"os/exec"
	"time"
)

// Change is what DiffQuiet found.
type Change int

const (
	// Unknown: git could not compare the two (a word that is not a
	// commit, a missing repository).
	Unknown Change = iota
	// Same: the path is the same at both commits.
	Same
	// Differs: the path differs between the commits (or exists at one
	// only) — or git did not answer within its time, so it may.
	Differs
)

// DiffQuiet asks git, run in dir, whether path differs between two
// revisions: `git diff --quiet --no-ext-diff --no-textconv A B -- path`.
// No external diff or text conversion runs, and it gives up after two
// seconds.
func DiffQuiet(dir, a, b, path string) Change {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "diff", "--quiet", "--no-ext-diff", "--no-textconv", a, b, "--", path)
	cmd.Dir = dir
	err := cmd.Run()
	if err == nil {
		return Same
	}
	if ctx.Err() != nil {
		return Differs
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		return Differs
	}
	return Unknown
}
