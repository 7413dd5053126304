package record

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogReadsAheadInOrder: a full log reads a chain ahead in batches
// decoded on every CPU (prefetch), yet emits every entry in the chain's
// order, names the exact line of an unparsable entry after emitting all
// before it, and stops at once when the output fails.
func TestLogReadsAheadInOrder(t *testing.T) {
	dir := t.TempDir() // outside Git: the file is the chain
	p := projectAt(dir)
	path := filepath.Join(p.RecordDir(), "x.jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 3*prefetchBatch + 17
	writeChain(t, path, n)
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int64
	if err := r.Log(LogFilter{}, 0, func(e LoggedEntry) error { seqs = append(seqs, e.Seq); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(seqs) != n {
		t.Fatalf("emitted %d entries, want %d", len(seqs), n)
	}
	for i, s := range seqs {
		if s != int64(i+1) {
			t.Fatalf("entry %d has seq %d: out of order", i, s)
		}
	}

	stop := errors.New("output closed")
	count := 0
	err = r.Log(LogFilter{}, 0, func(LoggedEntry) error {
		count++
		if count == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || count != 10 {
		t.Fatalf("stopping early: err %v after %d entries, want the output's error after 10", err, count)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	const bad = 2*prefetchBatch + 3 // a line in the third batch
	lines[bad-1] = "not an entry"
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	seqs = seqs[:0]
	err = r.Log(LogFilter{}, 0, func(e LoggedEntry) error { seqs = append(seqs, e.Seq); return nil })
	if err == nil || !strings.Contains(err.Error(), "line 1027:") {
		t.Fatalf("unparsable line %d: err %v, want it named", bad, err)
	}
	if len(seqs) != bad-1 {
		t.Fatalf("emitted %d entries before the bad line, want %d", len(seqs), bad-1)
	}
}
