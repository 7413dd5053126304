package record

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// TestConcurrentAppendsInOneProcess: 50 goroutines, each with its own
// Record, append 40 entries each at once; the appends are combined
// (docs/record.md#batched-appends), yet the ref holds one intact chain
// with one commit per entry, every caller's answer names its own entry,
// and an entry refused in the middle of a batch (over the line limit)
// records nothing while the others in its batch are recorded.
func TestConcurrentAppendsInOneProcess(t *testing.T) {
	dir, p := newRepo(t)
	w := writerOf(t, openT(t, p))
	const clients, each = 50, 40
	type got struct {
		text string
		e    chain.Entry
	}
	var mu sync.Mutex
	var answers []got
	var refused int
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := openT(t, p)
			var last int64
			for i := 0; i < each; i++ {
				text := fmt.Sprintf("client %d entry %d", c, i)
				e := note(text)
				if c == 7 && i == 20 {
					e.Did = strings.Repeat("x", chain.MaxLine) // over the limit
				}
				out, err := r.Append(e)
				mu.Lock()
				switch {
				case c == 7 && i == 20:
					if err == nil || !strings.Contains(err.Error(), "line limit") {
						t.Errorf("an over-long entry: %v", err)
					}
					refused++
				case err != nil:
					t.Errorf("%s: %v", text, err)
				case out.Seq <= last:
					t.Errorf("%s: seq %d after this caller's %d", text, out.Seq, last)
				default:
					last = out.Seq
					answers = append(answers, got{text, out})
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	ref := "refs/gitwarrant/" + w
	content := refContent(t, dir, ref)
	want := clients*each - refused
	if rep := chain.Verify(strings.NewReader(content), ref); !rep.OK() || rep.Entries != want {
		t.Fatalf("chain: %+v, want %d entries", rep, want)
	}
	if n := strings.TrimSpace(git(t, dir, "rev-list", "--count", ref)); n != fmt.Sprint(want) {
		t.Fatalf("ref has %s commits, want one per entry (%d)", n, want)
	}
	bySeq := map[int64]chain.Entry{}
	for _, line := range strings.Split(strings.TrimSuffix(content, "\n"), "\n") {
		e, _, err := chain.ParseEntry([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		bySeq[e.Seq] = e
	}
	for _, a := range answers {
		if e := bySeq[a.e.Seq]; e.Did != a.text || e.Hash != a.e.Hash {
			t.Fatalf("%s was answered as #%d %s, which holds %q %s", a.text, a.e.Seq, a.e.Hash, e.Did, e.Hash)
		}
	}
	if len(answers) != want {
		t.Fatalf("%d answers for %d entries", len(answers), want)
	}
	mustVerify(t, openT(t, p))
}

// TestBatchAnswersEveryCaller drives one batch directly: an entry refused
// while sealing costs only itself, and when no object can be written every
// caller is answered that nothing was recorded — none is told its entry is
// on the record when it is not.
func TestBatchAnswersEveryCaller(t *testing.T) {
	reqs := func(r *Record, texts ...string) []*appendReq {
		var out []*appendReq
		for _, text := range texts {
			e := note(text)
			if text == "too long" {
				e.Did = strings.Repeat("x", chain.MaxLine)
			}
			out = append(out, &appendReq{e: e, now: r.Now, done: make(chan struct{}), lead: make(chan struct{})})
		}
		return out
	}
	answered := func(t *testing.T, batch []*appendReq) {
		t.Helper()
		for i, req := range batch {
			select {
			case <-req.done:
			default:
				t.Fatalf("caller %d was never answered", i)
			}
		}
	}
	t.Run("one entry refused", func(t *testing.T) {
		dir, p := newRepo(t)
		r := openT(t, p)
		w := writerOf(t, r)
		batch := reqs(r, "first", "too long", "third")
		r.appendBatch(w, batch)
		answered(t, batch)
		if batch[0].err != nil || batch[2].err != nil || batch[0].out.Seq != 1 || batch[2].out.Seq != 2 {
			t.Fatalf("the others: %+v %v, %+v %v", batch[0].out, batch[0].err, batch[2].out, batch[2].err)
		}
		if batch[1].err == nil || !strings.Contains(batch[1].err.Error(), "nothing was recorded") {
			t.Fatalf("the over-long entry: %v", batch[1].err)
		}
		ref := "refs/gitwarrant/" + w
		if n := strings.TrimSpace(git(t, dir, "rev-list", "--count", ref)); n != "2" {
			t.Fatalf("ref has %s commits, want 2", n)
		}
		mustVerify(t, r)
	})
	t.Run("objects cannot be written", func(t *testing.T) {
		dir, p := newRepo(t)
		r := openT(t, p)
		w := writerOf(t, r)
		// every fan-out directory a new object would go to is a file
		objects := filepath.Join(dir, ".git", "objects")
		names, _ := filepath.Glob(filepath.Join(objects, "??"))
		for _, n := range names {
			os.RemoveAll(n)
		}
		for i := 0; i < 256; i++ {
			if err := os.WriteFile(filepath.Join(objects, fmt.Sprintf("%02x", i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		batch := reqs(r, "first", "second", "third")
		r.appendBatch(w, batch)
		answered(t, batch)
		for i, req := range batch {
			if req.err == nil || !strings.Contains(req.err.Error(), "nothing was recorded") || req.out.Hash != "" {
				t.Errorf("caller %d: %+v, %v", i, req.out, req.err)
			}
		}
		if !strings.Contains(batch[2].err.Error(), "an entry before it") {
			t.Errorf("caller 2 is not told why: %v", batch[2].err)
		}
		if _, err := gitErr(dir, "rev-parse", "-q", "--verify", "refs/gitwarrant/"+w); err == nil {
			t.Fatal("the ref was made")
		}
	})
}
