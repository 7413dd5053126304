package record

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// wholeFileTail is how `record log -n` read a file chain before it read
// from the end: the whole chain in memory, split, the last window of
// lines decoded, the window widened fourfold while the filter left fewer
// than n. The test holds the backwards read to it.
func wholeFileTail(data []byte, f LogFilter, n int64) ([]int64, error) {
	for window := max(n, 64); ; window *= 4 {
		lines := splitLines(data)
		if int64(len(lines)) > window {
			lines = lines[int64(len(lines))-window:]
		}
		var out []int64
		for _, l := range lines {
			e, err := chain.DecodeEntry(bytes.TrimSuffix(l, []byte("\n")))
			if err != nil {
				return nil, err
			}
			if f.match(&e) {
				out = append(out, e.Seq)
			}
		}
		if int64(len(out)) >= n || int64(len(lines)) < window {
			return out[max(0, int64(len(out))-n):], nil
		}
	}
}

// TestLogTailOfAFileChainReadsTheSameEntries: `record log -n` on a file
// chain outside Git (docket's record.jsonl, a chain file, a folder
// without a ref) reads its lines from the end, and shows exactly the
// entries — or fails exactly where — reading the whole file did: with a
// damaged, torn or cut last line, CRLF line ends, no final newline, an
// unparsable line just inside and just outside the lines read, filters
// that match few entries, and n past the chain's length.
func TestLogTailOfAFileChainReadsTheSameEntries(t *testing.T) {
	var chainBytes bytes.Buffer
	prev := chain.Genesis
	const total = 400
	for i := 1; i <= total; i++ {
		via := "cli"
		if i%37 == 0 {
			via = "hook"
		}
		line, e, err := chain.Seal(chain.Entry{Seq: int64(i), TS: fmt.Sprintf("2026-01-01T00:%02d:%02d.000Z", i/60, i%60),
			Loop: "appeal", Kind: chain.KindNote, Did: fmt.Sprintf("note %d", i), Via: via, Prev: prev})
		if err != nil {
			t.Fatal(err)
		}
		chainBytes.Write(append(line, '\n'))
		prev = e.Hash
	}
	good := chainBytes.String()
	lines := strings.SplitAfter(good, "\n")
	lines = lines[:len(lines)-1]
	replaceLine := func(k int, with string) string { // k from the end, 1 = last
		c := append([]string(nil), lines...)
		c[len(c)-k] = with
		return strings.Join(c, "")
	}
	last := lines[len(lines)-1]
	variants := map[string]string{
		"intact":                     good,
		"crlf":                       strings.ReplaceAll(good, "\n", "\r\n"),
		"no final newline":           strings.TrimSuffix(good, "\n"),
		"torn last line":             strings.TrimSuffix(good, last) + last[:len(last)/2],
		"damaged last line":          replaceLine(1, "{\"seq\":400,\"broken\n"),
		"blank line at the end":      good + "\n",
		"bad line 30 from the end":   replaceLine(30, "not an entry\n"),
		"bad line 100 from the end":  replaceLine(100, "not an entry\n"),
		"bad line 300 from the end":  replaceLine(300, "not an entry\n"),
		"first line missing its end": strings.Replace(good, "\n", "", 1),
	}
	filters := map[string]LogFilter{"all": {}, "via hook": {Via: "hook"}, "none": {Loop: "other"}}
	for name, data := range variants {
		for _, layout := range []string{"docket file", "chain file", "folder"} {
			t.Run(name+"/"+layout, func(t *testing.T) {
				dir := t.TempDir() // outside Git: the files are the chain
				p := projectAt(dir)
				if err := os.MkdirAll(p.RecordDir(), 0o755); err != nil {
					t.Fatal(err)
				}
				switch layout {
				case "docket file":
					write(t, p.LegacyRecord(), data)
				case "chain file":
					write(t, filepath.Join(p.RecordDir(), "local.jsonl"), data)
				case "folder": // cut mid-line too: the files concatenate
					w := filepath.Join(p.RecordDir(), "main-0123456789ab")
					if err := os.Mkdir(w, 0o755); err != nil {
						t.Fatal(err)
					}
					cut1, cut2 := len(data)/3, len(data)-len(last)/2
					write(t, filepath.Join(w, segName(1, 100)), data[:cut1])
					write(t, filepath.Join(w, segName(101, 200)), data[cut1:cut2])
					write(t, filepath.Join(w, segName(201, 400)), data[cut2:])
				}
				r, err := Open(p)
				if err != nil {
					t.Fatal(err)
				}
				for fname, f := range filters {
					for _, n := range []int{1, 20, 64, 65, 300, total, 1000} {
						want, wantErr := wholeFileTail([]byte(data), f, int64(n))
						var got []int64
						err := r.Log(f, n, func(e LoggedEntry) error { got = append(got, e.Seq); return nil })
						if (err != nil) != (wantErr != nil) {
							t.Fatalf("%s, -n %d: err %v, reading the whole file: %v", fname, n, err, wantErr)
						}
						if err != nil {
							if !strings.Contains(err.Error(), "unparsable entry") || !strings.Contains(err.Error(), "record verify") {
								t.Fatalf("%s, -n %d: %v: want it to say the entry is unparsable and what to run", fname, n, err)
							}
							continue
						}
						if fmt.Sprint(got) != fmt.Sprint(want) {
							t.Fatalf("%s, -n %d: seqs %v, reading the whole file %v", fname, n, got, want)
						}
					}
				}
			})
		}
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
