package record

import (
	"fmt"
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
