package ci

import (
	"os"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// BenchmarkRun runs the gate on the repository bench/ci.sh builds (KEEP=1
// bench/ci.sh keeps it): GITWARRANT_CI_BENCH=<repo> go test -bench Run.
func BenchmarkRun(b *testing.B) {
	dir := os.Getenv("GITWARRANT_CI_BENCH")
	if dir == "" {
		b.Skip("GITWARRANT_CI_BENCH names no repository (KEEP=1 bench/ci.sh builds one)")
	}
	for b.Loop() {
		repo, err := gitx.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		r, err := Run(repo, Options{Base: "main", Head: "pr"})
		if err != nil {
			b.Fatal(err)
		}
		if !r.OK() {
			b.Fatal("the benchmark's pull request fails the gate")
		}
	}
}
