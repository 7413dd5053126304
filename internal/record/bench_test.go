package record

import (
	"fmt"
	"testing"
)

// BenchmarkAppend measures one append with its commit on the writer ref.
func BenchmarkAppend(b *testing.B) {
	_, p := newRepo(b)
	r, err := Open(p)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Append(note(fmt.Sprintf("step %d", i))); err != nil {
			b.Fatal(err)
		}
	}
}
