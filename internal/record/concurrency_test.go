package record

import (
	"bytes"
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
	r := openT(t, p)
	w := writerOf(t, r) // choose the writer before the race
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
	rep, err := chain.VerifyFile(r.ChainPath(w))
	if err != nil || !rep.OK() || rep.Entries != 1000 {
		t.Fatalf("chain: %v %+v", err, rep)
	}
	ref := "refs/gitwarrant/" + w
	if n := strings.TrimSpace(git(t, dir, "rev-list", "--count", ref)); n != "1000" {
		t.Fatalf("ref has %s commits, want 1000", n)
	}
	file, _ := os.ReadFile(r.ChainPath(w))
	if refContent(t, dir, ref) != string(file) {
		t.Fatal("ref content differs from the chain file")
	}
}

// TestSIGKILLNeverBreaksChainOrRef kills appenders at random points and
// checks after each kill: the chain verifies (or fails only by a torn last
// line), and the ref's content is a prefix of the file.
func TestSIGKILLNeverBreaksChainOrRef(t *testing.T) {
	trials := 100
	if testing.Short() {
		trials = 10
	}
	dir, p := newRepo(t)
	r := openT(t, p)
	w := writerOf(t, r)
	path, ref := r.ChainPath(w), "refs/gitwarrant/"+w
	rng := rand.New(rand.NewSource(1))
	behind := 0
	for i := 0; i < trials; i++ {
		cmd := appender(t, p.Dir, 1000)
		time.Sleep(time.Duration(5+rng.Intn(60)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		rep, err := chain.VerifyFile(path)
		if err != nil {
			continue // killed before the first append created the file
		}
		if !rep.OK() {
			if rep.Break.Reason != chain.ReasonTorn {
				t.Fatalf("trial %d: chain broken by %s: %+v", i, rep.Break.Reason, rep.Break)
			}
			t.Logf("trial %d: torn last line reported; a person would trim it", i)
			b, _ := os.ReadFile(path)
			os.WriteFile(path, b[:bytes.LastIndexByte(b, '\n')+1], 0o644)
		}
		file, _ := os.ReadFile(path)
		if _, err := gitErr(dir, "rev-parse", "--verify", "-q", ref); err != nil {
			continue
		}
		got := refContent(t, dir, ref)
		if !strings.HasPrefix(string(file), got) {
			t.Fatalf("trial %d: the ref points at content the file does not extend", i)
		}
		if len(got) < len(file) {
			behind++
		}
	}
	// A final append catches any lagging ref up, by extending it only.
	if _, err := r.Append(note("after the storm")); err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(path)
	if refContent(t, dir, ref) != string(file) {
		t.Fatal("ref was not caught up to the file")
	}
	t.Logf("%d/%d kills left the ref behind the file (caught up later)", behind, trials)
}
