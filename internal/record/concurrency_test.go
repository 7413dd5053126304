package record

import (
	"math/rand"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// TestFourProcessesAppendOneIntactChain: 4 processes × 250 appends at once
// in one worktree give one chain of 1000 entries and 1000 ref commits.
func TestFourProcessesAppendOneIntactChain(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: 1000 appends in 4 processes")
	}
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	w := writerOf(t, r) // choose the writer before the race
	bulkAppend(t, r, SegmentEntries-100, "before the race")
	commitWork(t, dir, "a.txt", "before the race")
	var procs []*os.Process
	for i := 0; i < 4; i++ {
		cmd := appender(t, p.Dir, 250)
		procs = append(procs, cmd.Process)
		defer cmd.Wait()
	}
	for _, pr := range procs {
		st, err := pr.Wait()
		if err != nil || !st.Success() {
			t.Fatalf("appender: %v %v", err, st)
		}
	}
	ref := "refs/gitwarrant/" + w
	want := SegmentEntries - 100 + 1000
	rep := chain.Verify(strings.NewReader(refContent(t, dir, ref)), ref)
	if !rep.OK() || rep.Entries != want {
		t.Fatalf("chain: %+v", rep)
	}
	if n := strings.TrimSpace(git(t, dir, "rev-list", "--count", ref)); n != "1001" {
		t.Fatalf("ref has %s commits, want the bulk one and 1000", n)
	}
	// the commit after the race seals the first segment
	commitWork(t, dir, "b.txt", "after the race")
	if names := folderNames(t, dir, r, w); names[0] != segName(1, SegmentEntries) {
		t.Fatalf("no sealed segment after the race: %v", names)
	}
	mustVerify(t, r)
}

// TestSIGKILLNeverBreaksChainOrRef kills appenders at random points and
// checks after each kill that the ref's chain verifies and never shrinks:
// objects are written before the ref moves, so a kill leaves the old or
// the new ref, never a broken one. A commit after each kill brings the
// branch up to the ref, across segment seals (docs/record.md#concurrency).
func TestSIGKILLNeverBreaksChainOrRef(t *testing.T) {
	trials := 60
	if testing.Short() {
		trials = 10
	}
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	w := writerOf(t, r)
	ref := "refs/gitwarrant/" + w
	bulkAppend(t, r, SegmentEntries-8, "before the kills") // the kills cross a seal
	rng := rand.New(rand.NewSource(1))
	last := 0
	for i := 0; i < trials; i++ {
		cmd := appender(t, p.Dir, 1000)
		time.Sleep(time.Duration(5+rng.Intn(80)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if _, err := gitErr(dir, "rev-parse", "--verify", "-q", ref); err != nil {
			continue
		}
		rep := chain.Verify(strings.NewReader(refContent(t, dir, ref)), ref)
		if !rep.OK() || rep.Entries < last {
			t.Fatalf("trial %d: ref chain %+v (had %d entries)", i, rep.Break, last)
		}
		last = rep.Entries
		if i%10 == 9 {
			os.WriteFile(dir+"/n.txt", []byte{byte(i)}, 0o644)
			git(t, dir, "add", "n.txt")
			git(t, dir, "commit", "-q", "-m", "after kills")
			mustVerify(t, r)
		}
	}
	if last <= SegmentEntries {
		t.Errorf("only %d entries: the trials did not cross a seal", last)
	}
	if _, err := r.Append(note("after the storm")); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, r)
}
