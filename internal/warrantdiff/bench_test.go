package warrantdiff

import (
	"os"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// BenchmarkRun diffs the repository bench/diff.sh builds (KEEP=1
// bench/diff.sh keeps it): GITWARRANT_DIFF_BENCH=<repo> go test -bench Run.
func BenchmarkRun(b *testing.B) {
	dir := os.Getenv("GITWARRANT_DIFF_BENCH")
	if dir == "" {
		b.Skip("GITWARRANT_DIFF_BENCH names no repository (KEEP=1 bench/diff.sh builds one)")
	}
	for b.Loop() {
		repo, err := gitx.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		r, err := Run(repo, ".gitwarrant", "", "base", "head")
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Amends) != 5 {
			b.Fatalf("found %d amends, want the 5 the benchmark signs", len(r.Amends))
		}
	}
}
