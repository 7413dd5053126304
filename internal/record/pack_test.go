package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// TestRecordPacksItsOwnObjects: the record packs its objects every
// PackEvery events into kept packs and merges them, so loose objects stay
// far below what makes `git gc --auto` run (gc.auto 6,700, estimated from
// objects/17) and no unkept pack is added; the chain still reads and
// verifies, and git fsck is clean.
func TestRecordPacksItsOwnObjects(t *testing.T) {
	dir, p := newRepo(t)
	r := openT(t, p)
	w := writerOf(t, r)
	n := PackEvery*PackFanIn + 10 // one merge of level 0
	appendN(t, r, n, "event")
	loose := 0
	filepath.Walk(filepath.Join(dir, ".git", "objects"), func(path string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && len(filepath.Base(filepath.Dir(path))) == 2 {
			loose++
		}
		return nil
	})
	if loose > 4*PackEvery {
		t.Fatalf("%d loose objects after %d events", loose, n)
	}
	keeps, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.keep"))
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if len(keeps) == 0 || len(keeps) > PackFanIn || len(packs) != len(keeps) {
		t.Fatalf("%d kept of %d packs", len(keeps), len(packs))
	}
	if out := git(t, dir, "count-objects", "-v"); !strings.Contains(out, "garbage: 0") {
		t.Fatalf("count-objects:\n%s", out)
	}
	rep := chain.Verify(strings.NewReader(refContent(t, dir, "refs/gitwarrant/"+w)), w)
	if !rep.OK() || rep.Entries != n {
		t.Fatalf("chain after packing: %d entries %+v", rep.Entries, rep.Break)
	}
	if out, err := gitErr(dir, "fsck", "--strict", "--no-dangling"); err != nil {
		t.Fatalf("fsck: %v\n%s", err, out)
	}
	appendN(t, r, 1, "after") // reads its last chunk from a pack
	mustVerify(t, r)
}
