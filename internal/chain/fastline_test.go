package chain

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// TestFastLineTakesWrittenLines: every line Append writes — the tricky
// bodies included (escapes, non-ASCII, nesting) — is one the fast path
// vouches for, with the seq, prev and hash the full path finds.
func TestFastLineTakesWrittenLines(t *testing.T) {
	f := newFastHasher()
	_, lines := buildRecord(t, 5)
	for _, line := range append(lines, strings.Split(strings.TrimSuffix(string(trickySeed(t)), "\n"), "\n")...) {
		fe, ok := f.verify([]byte(line))
		if !ok {
			t.Errorf("fast path declined a line Append wrote: %s", line)
			continue
		}
		sameAsFullPath(t, []byte(line), fe)
	}
}

// TestFastLineDeclines: lines that are not canonical, or whose hash does
// not match, go the full way.
func TestFastLineDeclines(t *testing.T) {
	f := newFastHasher()
	_, lines := buildRecord(t, 1)
	good := lines[0]
	for name, line := range map[string]string{
		"space":          strings.Replace(good, `,"`, `, "`, 1),
		"keys unsorted":  `{"seq":1,` + strings.TrimPrefix(good, "{"),
		"escaped slash":  strings.Replace(good, `"kind":"`, `"kind":"\/`, 1),
		"upper hex":      strings.Replace(good, `"kind":"`, `"kind":"\u001F`, 1),
		"long form":      strings.Replace(good, `"kind":"`, `"kind":"\u000a`, 1),
		"edited":         strings.Replace(good, `"kind":"`, `"kind":"x`, 1),
		"seq as string":  strings.Replace(good, `"seq":1`, `"seq":"1"`, 1),
		"seq 1.0":        strings.Replace(good, `"seq":1`, `"seq":1.0`, 1),
		"kind null":      strings.Replace(good, `"kind":"check"`, `"kind":null`, 1),
		"trailing space": good + " ",
		"no hash":        good[:strings.Index(good, `"hash"`)] + good[strings.Index(good, `,"kind"`)+1:],
	} {
		if _, ok := f.verify([]byte(line)); ok {
			t.Errorf("%s: fast path vouched for %s", name, line)
		}
	}
}

// FuzzFastLine: whatever the fast path vouches for, the full path
// verifies with the same seq, prev and hash.
func FuzzFastLine(f *testing.F) {
	_, lines := buildRecord(f, 2)
	for _, l := range lines {
		f.Add([]byte(l))
	}
	for _, l := range strings.Split(string(trickySeed(f)), "\n") {
		f.Add([]byte(l))
	}
	f.Add([]byte(`{"a":{"b":[1,2.5e3,null,"\u0000"]},"hash":"sha256:00","prev":"GENESIS","seq":1}`))
	fh := newFastHasher()
	f.Fuzz(func(t *testing.T, line []byte) {
		if fe, ok := fh.verify(line); ok {
			sameAsFullPath(t, line, fe)
		}
	})
}

func sameAsFullPath(t *testing.T, line []byte, fe fastEntry) {
	t.Helper()
	e, m, err := ParseEntry(line)
	if err != nil {
		t.Fatalf("fast path vouched for a line the full path rejects (%v): %s", err, line)
	}
	h, err := ComputeHash(e.Prev, m)
	if err != nil || h != e.Hash || e.Seq != fe.seq || e.Prev != string(fe.prev) || e.Hash != string(fe.hash) {
		t.Fatalf("fast path: seq %d prev %s hash %s; full path: seq %d prev %s hash %s computed %s (%v)",
			fe.seq, fe.prev, fe.hash, e.Seq, e.Prev, e.Hash, h, err)
	}
	if !bytes.Equal(line, bytes.TrimSpace(line)) {
		t.Fatalf("fast path vouched for a line with spaces around it")
	}
}

// FuzzDecodeEntry: DecodeEntry gives what ParseEntry gives, for any line.
func FuzzDecodeEntry(f *testing.F) {
	_, lines := buildRecord(f, 2)
	for _, l := range lines {
		f.Add([]byte(l))
	}
	for _, l := range strings.Split(string(trickySeed(f)), "\n") {
		f.Add([]byte(l))
	}
	f.Add([]byte(`{"hash":"","kind":"check","loop":"","prev":"p","rule":"","seq":3,"ts":"t"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		want, _, werr := ParseEntry(line)
		got, gerr := DecodeEntry(line)
		if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeEntry(%s) = %+v, %v; ParseEntry: %+v, %v", line, got, gerr, want, werr)
		}
	})
}

// TestDecodeEntryTakesWrittenLines: the lines Append writes take the
// direct path.
func TestDecodeEntryTakesWrittenLines(t *testing.T) {
	_, lines := buildRecord(t, 3)
	for _, l := range lines {
		if _, ok := decodePlain([]byte(l)); !ok {
			t.Errorf("not decoded directly: %s", l)
		}
	}
}
