package warrantdiff

import (
	"os"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// benchRun diffs base against head in the repository bench/diff.sh builds
// (KEEP=1 bench/diff.sh keeps it; GITWARRANT_DIFF_BENCH names it).
func benchRun(b *testing.B) *Result {
	dir := os.Getenv("GITWARRANT_DIFF_BENCH")
	if dir == "" {
		b.Skip("GITWARRANT_DIFF_BENCH names no repository (KEEP=1 bench/diff.sh builds one)")
	}
	repo, err := gitx.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	r, err := Run(repo, ".gitwarrant", "", "base", "head", nil)
	if err != nil {
		b.Fatal(err)
	}
	if len(r.Amends) != 5 {
		b.Fatalf("found %d amends, want the 5 the benchmark signs", len(r.Amends))
	}
	return r
}

// BenchmarkRun is the whole diff, from opening the repository:
// GITWARRANT_DIFF_BENCH=<repo> go test -bench Run.
func BenchmarkRun(b *testing.B) {
	for b.Loop() {
		benchRun(b)
	}
}

// BenchmarkVerifyAmends is the part of Run the diff's aim allows for on
// top of twice `git diff --stat`: verifying the new amend entries the
// diff found (each signature against base's allowed_signers).
func BenchmarkVerifyAmends(b *testing.B) {
	r := benchRun(b)
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
