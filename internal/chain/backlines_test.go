package chain

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// forwardLines splits b as a forward read does: after each "\n", and the
// bytes after the last one as one more line.
func forwardLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return append(out, b)
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}

// backAll reads every line of files with BackLines, last first.
func backAll(t *testing.T, files []string) [][]byte {
	t.Helper()
	bl := NewBackLines(files)
	defer bl.Close()
	var out [][]byte
	for {
		l, err := bl.Prev()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
}

// TestBackLinesSplitsAsAForwardRead: read backwards from real files, a
// chain's lines are exactly a forward read's, reversed — across block and
// file boundaries, with CRLF endings, empty lines, a line longer than a
// block, empty files, and with and without a final newline.
func TestBackLinesSplitsAsAForwardRead(t *testing.T) {
	rng := rand.New(rand.NewSource(26))
	line := func() string {
		switch rng.Intn(10) {
		case 0:
			return "" // an empty line
		case 1:
			return strings.Repeat("x", backBlock+rng.Intn(3*backBlock)) // longer than a block
		case 2:
			return strings.Repeat("y", rng.Intn(500)) + "\r" // CRLF
		default:
			return strings.Repeat("z", 1+rng.Intn(900))
		}
	}
	cases := map[string]string{
		"empty":                  "",
		"one newline":            "\n",
		"one line":               "{}\n",
		"no final newline":       "{}\n{\"a\":1}",
		"blank lines at the end": "{}\n\n\n",
		"crlf":                   "{}\r\n{}\r\n",
		"a block of newlines":    strings.Repeat("\n", backBlock+3),
	}
	for i := range 8 {
		var b strings.Builder
		for range 50 + rng.Intn(400) {
			b.WriteString(line() + "\n")
		}
		if i%2 == 1 {
			b.WriteString(line()) // torn: no final newline
		}
		cases[fmt.Sprintf("random %d", i)] = b.String()
	}
	dir := t.TempDir()
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			want := forwardLines([]byte(data))
			slices.Reverse(want)
			for _, parts := range []int{1, 2, 5} {
				// The chain cut into parts files at random points (mid-line,
				// or leaving a file empty), as a folder's files concatenate.
				cuts := []int{0, len(data)}
				for range parts - 1 {
					cuts = append(cuts, rng.Intn(len(data)+1))
				}
				slices.Sort(cuts)
				var files []string
				for k := 0; k+1 < len(cuts); k++ {
					f := filepath.Join(dir, fmt.Sprintf("%d-%d-%d", len(name), parts, k))
					if err := os.WriteFile(f, []byte(data[cuts[k]:cuts[k+1]]), 0o644); err != nil {
						t.Fatal(err)
					}
					files = append(files, f)
				}
				got := backAll(t, files)
				if len(got) != len(want) {
					t.Fatalf("%d files: %d lines backwards, %d forwards", parts, len(got), len(want))
				}
				for k := range got {
					if !bytes.Equal(got[k], want[k]) {
						t.Fatalf("%d files: line %d from the end is %.40q, forwards %.40q", parts, k+1, got[k], want[k])
					}
				}
			}
		})
	}
}

// TestBackLinesReportsAMissingFile: a file of the chain that is gone is
// an error naming it, not the start of the chain.
func TestBackLinesReportsAMissingFile(t *testing.T) {
	dir := t.TempDir()
	last := filepath.Join(dir, "b")
	if err := os.WriteFile(last, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bl := NewBackLines([]string{filepath.Join(dir, "a"), last})
	defer bl.Close()
	var err error
	for err == nil {
		_, err = bl.Prev() // the last line may begin in the file before
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing first file: err %v, want it not found", err)
	}
}
