package fsx

import (
	"strings"
	"testing"
)

// TestReadLastLines: only whole lines come back, whether the cut falls
// inside a line, right after a newline or right on one.
func TestReadLastLines(t *testing.T) {
	log := "1\taa\n2\tbb\n3\tcc\n" // lines of 5 bytes
	for limit, want := range map[int64]string{
		100: log, 15: log, 14: "2\tbb\n3\tcc\n", 11: "2\tbb\n3\tcc\n", 10: "2\tbb\n3\tcc\n",
		9: "3\tcc\n", 5: "3\tcc\n", 4: "", 0: "",
	} {
		got, err := ReadLastLines(strings.NewReader(log), int64(len(log)), limit)
		if err != nil || string(got) != want {
			t.Errorf("limit %d: got %q, %v; want %q", limit, got, err, want)
		}
	}
}
