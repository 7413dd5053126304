package chain

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzVerify feeds arbitrary bytes to Verify. It must never panic; a
// verified chain must verify the same way again; and every verified line
// that carries the spec's required fields must hash the same through the
// typed Entry (Fields) as through its own map, because Append hashes Fields.
func FuzzVerify(f *testing.F) {
	_, lines := buildRecord(f, 3)
	valid := strings.Join(lines, "\n") + "\n"
	f.Add([]byte(valid))
	f.Add([]byte(valid[:len(valid)-20]))
	f.Add([]byte(lines[0] + "\n\n"))
	f.Add([]byte(strings.Replace(valid, `"seq":2`, `"seq":3`, 1)))
	f.Add(trickySeed(f))
	f.Add([]byte(`{"seq":1,"prev":"GENESIS","hash":"x","a":{"b":[1,2.5e3,null]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep := Verify(bytes.NewReader(data), "fuzz")
		again := Verify(bytes.NewReader(data), "fuzz")
		if rep.Head != again.Head || rep.Entries != again.Entries || rep.OK() != again.OK() {
			t.Fatalf("verify not deterministic: %+v vs %+v", rep, again)
		}
		if rep.Entries != len(rep.Hashes) || (rep.Entries > 0 && rep.Hashes[rep.Entries-1] != rep.Head) {
			t.Fatalf("report inconsistent: %+v", rep)
		}
		if b := rep.Break; b != nil && (b.Line != rep.Entries+1 || b.Seq != rep.LastSeq+1) {
			t.Fatalf("break %+v after %d entries", b, rep.Entries)
		}
		checkFieldsRoundTrip(t, data, rep.Entries)
	})
}

func checkFieldsRoundTrip(t *testing.T, data []byte, n int) {
	prev := Genesis
	for _, line := range bytes.SplitN(data, []byte("\n"), n+1)[:n] {
		e, m, err := ParseEntry(line)
		if err != nil {
			t.Fatalf("verified line does not parse: %v", err)
		}
		complete := true
		for _, k := range requiredStrings {
			if _, ok := m[k]; !ok {
				complete = false
			}
		}
		if h, err := ComputeHash(prev, e.Fields()); complete && (err != nil || h != e.Hash) {
			t.Fatalf("Fields() hashes to %s, line has %s (%v)", h, e.Hash, err)
		}
		prev = e.Hash
	}
}

// trickySeed is a record of trickyBodies written by Append.
func trickySeed(f testing.TB) []byte {
	path := filepath.Join(f.TempDir(), "tricky.jsonl")
	c := &File{Path: path}
	for _, b := range trickyBodies() {
		if _, err := c.Append(bodyEntry(f, b)); err != nil {
			f.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// FuzzCanonicalString checks string escaping round-trips through a
// standard JSON decoder for every valid UTF-8 string.
func FuzzCanonicalString(f *testing.F) {
	for _, s := range []string{"", "<&>", "\u2028", "\x00\x1f\"\\", "é🚀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Canonical(s)
		if !utf8.ValidString(s) {
			if err == nil {
				t.Fatalf("invalid UTF-8 %q accepted", s)
			}
			return
		}
		var back string
		if err != nil || json.Unmarshal(out, &back) != nil || back != s {
			t.Fatalf("Canonical(%q) = %s (%v), decodes to %q", s, out, err, back)
		}
		if bytes.ContainsAny(out, "\n\r") {
			t.Fatalf("Canonical(%q) contains a raw line break: %s", s, out)
		}
	})
}
