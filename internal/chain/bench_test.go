package chain

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// writeBenchRecord writes an n-entry chain directly (no fsync per entry) so
// the large fixtures are quick to build; it is byte-identical to what
// Append would write with a fixed timestamp.
func writeBenchRecord(b *testing.B, n int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "w.jsonl")
	var buf bytes.Buffer
	prev := Genesis
	for i := 1; i <= n; i++ {
		e := Entry{Seq: int64(i), TS: "2026-07-03T10:15:00.000Z", Loop: "weekly-report", Kind: KindCheck,
			Action: "send", Target: fmt.Sprintf("email number %d to the team", i), Verdict: "ask", Rule: "ask: email", Prev: prev}
		f := e.Fields()
		h, err := ComputeHash(prev, f)
		if err != nil {
			b.Fatal(err)
		}
		f["hash"] = h
		line, _ := Canonical(f)
		buf.Write(append(line, '\n'))
		prev = h
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkAppend shows append cost does not grow with the chain (docs/design.md#the-record:
// O(1), read the tail not the file). Each op includes the fsync.
func BenchmarkAppend(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			c := &File{Path: writeBenchRecord(b, n)}
			e := Entry{Loop: "weekly-report", Kind: KindCheck, Action: "send", Target: "bench", Verdict: "ask"}
			b.ResetTimer()
			for b.Loop() {
				if _, err := c.Append(e); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerify measures a full verification of a 100,000-entry chain.
func BenchmarkVerify(b *testing.B) {
	path := writeBenchRecord(b, 100_000)
	data, _ := os.ReadFile(path)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if rep := Verify(bytes.NewReader(data), path); !rep.OK() || rep.Entries != 100_000 {
			b.Fatalf("verify: %+v", rep.Break)
		}
	}
}

// BenchmarkTail isolates the tail read Append does under its lock, without
// the fsync that dominates (and adds noise to) BenchmarkAppend.
func BenchmarkTail(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			path := writeBenchRecord(b, n)
			for b.Loop() {
				if e, ok, err := Tail(path); !ok || err != nil || e.Seq != int64(n) {
					b.Fatalf("Tail: %v %v %v", e.Seq, ok, err)
				}
			}
		})
	}
}

// BenchmarkFastLine is the verify fast path per line, against SHA-256 of
// the same bytes (what sha256sum does).
func BenchmarkFastLine(b *testing.B) {
	data, err := os.ReadFile(writeBenchRecord(b, 2000))
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	b.Run("fast", func(b *testing.B) {
		f := newFastHasher()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			for _, l := range lines {
				if _, ok := f.verify(l); !ok {
					b.Fatal("declined")
				}
			}
		}
	})
	b.Run("sha256", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			sha256.Sum256(data)
		}
	})
}
