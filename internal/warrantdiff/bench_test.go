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

// BenchmarkVerifyAmends is the part of Run the diff's aim allows for on
// top of twice `git diff --stat`: verifying the new amend entries the
// diff found (each signature against base's allowed_signers).
func BenchmarkVerifyAmends(b *testing.B) {
	dir := os.Getenv("GITWARRANT_DIFF_BENCH")
	if dir == "" {
		b.Skip("GITWARRANT_DIFF_BENCH names no repository (KEEP=1 bench/diff.sh builds one)")
	}
	repo, err := gitx.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	r, err := Run(repo, ".gitwarrant", "", "base", "head")
	if err != nil {
		b.Fatal(err)
	}
	signers, err := ParseSigners(r.Base)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, f := range r.Amends {
			if got := CheckAmend(f.Chain, f.Entry, signers); got.Verified == nil {
				b.Fatalf("%s#%d: %v", f.Chain, f.Entry.Seq, got.Err)
			}
		}
	}
}
