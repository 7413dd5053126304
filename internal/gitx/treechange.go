package gitx

import (
	"context"
	"errors"
	"os/exec"
	"time"
)

// EmptyTree is the id of the empty tree, which every SHA-1 repository
// can name without holding it.
const EmptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// PathsChange asks git, run in dir, whether any of paths differs between
// what revs name: `git diff --quiet --no-ext-diff --no-textconv
// --end-of-options <revs…> -- <paths…>`. One rev compares it with the
// work tree; two compare their trees; `A...B` compares B with the merge
// base of A and B; `C^!` compares C with its parent. Paths are pathspecs
// (`:(top)…` for the repository's root). Like DiffQuiet it runs no
// external diff or text conversion, gives up after two seconds (Differs),
// and answers Unknown when git cannot read a rev.
func PathsChange(dir string, revs []string, paths []string) Change {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	args := append([]string{"diff", "--quiet", "--no-ext-diff", "--no-textconv", "--end-of-options"}, revs...)
	cmd := exec.CommandContext(ctx, "git", append(append(args, "--"), paths...)...)
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

// HasRev reports whether rev names an object git can read in dir; rev
// must not begin with a dash (rev-parse reads --end-of-options as a rev).
func HasRev(dir, rev string) bool {
	cmd := exec.Command("git", "rev-parse", "--quiet", "--verify", rev)
	cmd.Dir = dir
	return cmd.Run() == nil
}
