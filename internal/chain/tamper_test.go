package chain

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildRecord appends n check entries to a fresh file and returns its path
// and lines (without newlines).
func buildRecord(t testing.TB, n int) (string, []string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "record", "main-abc.jsonl")
	tick := time.Date(2026, 7, 3, 10, 0, 0, 0, time.UTC)
	c := &File{Path: path, Now: func() time.Time { tick = tick.Add(time.Second); return tick }}
	verdicts := []string{"allow", "ask", "deny"}
	for i := 1; i <= n; i++ {
		_, err := c.Append(Entry{Loop: "weekly-report", Kind: KindCheck, Action: "send",
			Target: fmt.Sprintf("email number %d to the team", i), Verdict: verdicts[i%3], Rule: "ask: email"})
		if err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func verifyLines(lines []string) *Report {
	return Verify(strings.NewReader(strings.Join(lines, "\n")+"\n"), "test.jsonl")
}

// editValue changes one character of the value of key in a canonical line:
// the last character of a string, or the last digit of a number (never to a
// zero, so seq stays a positive integer).
func editValue(t *testing.T, line, key string) string {
	t.Helper()
	i := strings.Index(line, `"`+key+`":`)
	if i < 0 {
		t.Fatalf("no %s in %s", key, line)
	}
	start := i + len(key) + 3
	end := start
	if line[start] == '"' {
		end = start + 1 + strings.IndexByte(line[start+1:], '"') - 1
	} else {
		for end+1 < len(line) && line[end+1] >= '0' && line[end+1] <= '9' {
			end++
		}
	}
	c := line[end]
	switch {
	case c == '9':
		c = '1'
	case c >= '0' && c <= '8', c >= 'a' && c <= 'y', c >= 'A' && c <= 'Y':
		c++
	default:
		c = 'a'
	}
	return line[:end] + string(c) + line[end+1:]
}

func wantBreak(t *testing.T, name string, rep *Report, line int, reason string) {
	t.Helper()
	b := rep.Break
	if b == nil || b.Line != line || b.Reason != reason || b.Seq != int64(line) {
		t.Errorf("%s: break = %+v, want line %d seq %d %q", name, b, line, line, reason)
	}
	if rep.Entries != line-1 {
		t.Errorf("%s: %d entries verified before the break, want %d", name, rep.Entries, line-1)
	}
}

func TestTamperEveryFieldOfEveryLine(t *testing.T) {
	_, lines := buildRecord(t, 50)
	if rep := verifyLines(lines); !rep.OK() || rep.Entries != 50 {
		t.Fatalf("pristine record: %+v", rep.Break)
	}
	fields := map[string]string{
		"target": ReasonBadHash, "verdict": ReasonBadHash, "ts": ReasonBadHash,
		"hash": ReasonBadHash, "seq": ReasonSeqGap, "prev": ReasonBadPrev,
	}
	for k := range lines {
		for field, reason := range fields {
			edited := append([]string(nil), lines...)
			edited[k] = editValue(t, lines[k], field)
			if edited[k] == lines[k] {
				t.Fatalf("edit of %s on line %d changed nothing", field, k+1)
			}
			wantBreak(t, fmt.Sprintf("edit %s line %d", field, k+1), verifyLines(edited), k+1, reason)
		}
	}
}

func TestTamperAddOrRemoveAField(t *testing.T) {
	_, lines := buildRecord(t, 5)
	edited := append([]string(nil), lines...)
	edited[2] = strings.Replace(lines[2], `{`, `{"approved_by":"alice",`, 1)
	wantBreak(t, "added field", verifyLines(edited), 3, ReasonBadHash)
	edited[2] = strings.Replace(lines[2], `"rule":"ask: email",`, "", 1)
	wantBreak(t, "removed field", verifyLines(edited), 3, ReasonBadHash)
}

func TestTamperRehashedEditBreaksTheNextLine(t *testing.T) {
	_, lines := buildRecord(t, 50)
	for k := range lines {
		edited := append([]string(nil), lines...)
		e, m, _ := ParseEntry([]byte(lines[k]))
		m["verdict"] = "allow!"
		h, _ := ComputeHash(e.Prev, m)
		m["hash"] = h
		c, _ := Canonical(m)
		edited[k] = string(c)
		rep := verifyLines(edited)
		if k == len(lines)-1 {
			// A rewritten last entry is a valid chain; only the pinned head shows it.
			if st, _ := rep.HeadStatus(mustHead(t, lines)); !rep.OK() || st != HeadMissing {
				t.Errorf("rewritten last line: ok=%v head status %v, want HeadMissing", rep.OK(), st)
			}
			continue
		}
		wantBreak(t, fmt.Sprintf("rehashed edit line %d", k+1), rep, k+2, ReasonBadPrev)
	}
}

func TestTamperDeletion(t *testing.T) {
	_, lines := buildRecord(t, 50)
	for k := 0; k < len(lines)-1; k++ {
		edited := append(append([]string(nil), lines[:k]...), lines[k+1:]...)
		wantBreak(t, fmt.Sprintf("delete line %d", k+1), verifyLines(edited), k+1, ReasonSeqGap)
	}
}

func TestTamperInsertion(t *testing.T) {
	_, lines := buildRecord(t, 50)
	for k := range lines {
		dup := insertAt(lines, k+1, lines[k])
		wantBreak(t, fmt.Sprintf("duplicate line %d", k+1), verifyLines(dup), k+2, ReasonSeqGap)
	}
	// A fabricated entry with a correct seq, prev and hash for its place:
	// the entry after it no longer fits.
	for k := 0; k < len(lines)-1; k++ {
		prev := Genesis
		if k > 0 {
			_, m, _ := ParseEntry([]byte(lines[k-1]))
			prev = m["hash"].(string)
		}
		fake := Entry{Seq: int64(k + 1), TS: "2026-07-03T10:00:00.000Z", Loop: "weekly-report", Kind: KindCheck,
			Action: "send", Target: "fabricated", Verdict: "allow", Prev: prev}
		f := fake.Fields()
		f["hash"], _ = ComputeHash(prev, f)
		c, _ := Canonical(f)
		wantBreak(t, fmt.Sprintf("fabricated before line %d", k+1), verifyLines(insertAt(lines, k, string(c))), k+2, ReasonSeqGap)
	}
}

func TestTamperAdjacentSwap(t *testing.T) {
	_, lines := buildRecord(t, 50)
	for k := 0; k < len(lines)-1; k++ {
		edited := append([]string(nil), lines...)
		edited[k], edited[k+1] = edited[k+1], edited[k]
		wantBreak(t, fmt.Sprintf("swap lines %d,%d", k+1, k+2), verifyLines(edited), k+1, ReasonSeqGap)
	}
}

func TestTruncationShowsInHeadStatus(t *testing.T) {
	_, lines := buildRecord(t, 50)
	full := verifyLines(lines)
	oldHead := mustHead(t, lines)
	if st, seq := full.HeadStatus(oldHead); st != HeadIsLast || seq != 50 {
		t.Fatalf("full chain: head status %v seq %d, want HeadIsLast 50", st, seq)
	}
	for n := 1; n < len(lines); n++ {
		cut := verifyLines(lines[:n])
		if !cut.OK() || cut.LastSeq != int64(n) {
			t.Fatalf("truncated to %d: %+v", n, cut.Break)
		}
		if st, _ := cut.HeadStatus(oldHead); st != HeadMissing {
			t.Errorf("truncated to %d: old head status %v, want HeadMissing", n, st)
		}
		// The shorter chain's head, pinned earlier, is present but not last in the full one.
		if st, seq := full.HeadStatus(strings.TrimPrefix(cut.Head, "sha256:")); st != HeadPresent || seq != int64(n) {
			t.Errorf("head of %d entries in full chain: %v seq %d, want HeadPresent %d", n, st, seq, n)
		}
	}
}

func mustHead(t *testing.T, lines []string) string {
	t.Helper()
	_, m, err := ParseEntry([]byte(lines[len(lines)-1]))
	if err != nil {
		t.Fatal(err)
	}
	return m["hash"].(string)
}

func insertAt(lines []string, i int, line string) []string {
	out := append([]string(nil), lines[:i]...)
	out = append(out, line)
	return append(out, lines[i:]...)
}

func TestUnparsableLines(t *testing.T) {
	_, lines := buildRecord(t, 3)
	cases := map[string]string{
		"empty":      "",
		"not json":   "hello",
		"array":      "[1,2]",
		"duplicate":  strings.Replace(lines[1], `{`, `{"verdict":"deny",`, 1),
		"seq string": strings.Replace(lines[1], `"seq":2`, `"seq":"2"`, 1),
		"seq float":  strings.Replace(lines[1], `"seq":2`, `"seq":2.0`, 1),
		"bad utf8":   strings.Replace(lines[1], "email", "em\xffail", 1),
		"trailing":   lines[1] + " {}",
		"kind num":   strings.Replace(lines[1], `"kind":"check"`, `"kind":7`, 1),
		"too long":   strings.Replace(lines[1], `"action"`, `"pad":"`+strings.Repeat("x", MaxLine)+`","action"`, 1),
	}
	for name, bad := range cases {
		edited := []string{lines[0], bad, lines[2]}
		wantBreak(t, name, verifyLines(edited), 2, ReasonUnparsable)
	}
	if rep := verifyLines(lines); !rep.OK() {
		t.Fatal("control record failed")
	}
}

func TestVerifyFileMissingAndEmpty(t *testing.T) {
	dir := t.TempDir()
	if _, err := VerifyFile(filepath.Join(dir, "nope.jsonl")); err == nil || !strings.Contains(err.Error(), "nope.jsonl") {
		t.Fatalf("missing file: err = %v", err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	rep, err := VerifyFile(empty)
	if err != nil || !rep.OK() || rep.Entries != 0 || rep.Head != "" {
		t.Fatalf("empty file: %v %+v", err, rep)
	}
	if st, _ := rep.HeadStatus("sha256:00"); st != HeadMissing {
		t.Fatalf("pinned head in empty chain: %v", st)
	}
	if _, ok, err := Tail(empty); ok || err != nil {
		t.Fatalf("Tail(empty) = %v, %v", ok, err)
	}
}

func TestReadEntries(t *testing.T) {
	_, lines := buildRecord(t, 4)
	es, err := ReadEntries(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil || len(es) != 4 || es[3].Target != "email number 4 to the team" || es[3].Seq != 4 {
		t.Fatalf("ReadEntries = %d entries, %v", len(es), err)
	}
	_, err = ReadEntries(strings.NewReader(lines[0] + "\nnot json\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("bad line error = %v", err)
	}
	var buf bytes.Buffer
	if es, err := ReadEntries(&buf); err != nil || len(es) != 0 {
		t.Fatalf("empty: %v %v", es, err)
	}
}

// TestVerifyParallelAgreesWithVerify: on every tamper of the suite's kinds
// and on long chains cut at block boundaries, the parallel verifier gives
// the sequential one's report (entries, head, break line, seq, reason).
func TestVerifyParallelAgreesWithVerify(t *testing.T) {
	lines := sealedLines(t, 8000) // ~2 MB: lines cross the 1 MB block cuts
	variants := map[string]string{"intact": strings.Join(lines, "\n") + "\n"}
	edit := append([]string(nil), lines...)
	edit[1500] = strings.Replace(edit[1500], "email number", "email numbr", 1)
	variants["edited"] = strings.Join(edit, "\n") + "\n"
	variants["deleted"] = strings.Join(append(append([]string(nil), lines[:10]...), lines[11:]...), "\n") + "\n"
	swap := append([]string(nil), lines...)
	swap[5], swap[6] = swap[6], swap[5]
	variants["reordered"] = strings.Join(swap, "\n") + "\n"
	variants["torn"] = strings.Join(lines, "\n") + "\n" + lines[0][:20]
	variants["unterminated"] = strings.Join(lines, "\n")
	variants["empty line"] = strings.Join(lines[:3], "\n") + "\n\n" + strings.Join(lines[3:], "\n") + "\n"
	cut := append([]string(nil), lines...)
	cut[5200] = strings.Replace(cut[5200], `"seq":5201`, `"seq":5202`, 1)
	variants["seq gap past a block"] = strings.Join(cut, "\n") + "\n"
	for name, data := range variants {
		want := Verify(strings.NewReader(data), "x")
		got := VerifyParallel(strings.NewReader(data), "x", 1, Genesis)
		sameReport(t, name, got, want)
	}
}

func sameReport(t *testing.T, name string, got, want *Report) {
	t.Helper()
	if got.Entries != want.Entries || got.Head != want.Head || (got.Break == nil) != (want.Break == nil) ||
		(got.Break != nil && (*got.Break != *want.Break)) || got.Unterminated != want.Unterminated {
		t.Errorf("%s: parallel %d entries, head %s, %+v; sequential %d, %s, %+v",
			name, got.Entries, got.Head, got.Break, want.Entries, want.Head, want.Break)
	}
}

// TestParallelVerifierWrittenInPieces: a chain written to a
// ParallelVerifier in pieces of any size — a byte, a line and a half, a
// chunk, a segment, more than a block — gives the sequential report, on
// chains long enough that block buffers are reused many times (a link
// checked against a reused buffer would break the intact chain), with a
// break after many reused blocks, and a read error in the middle.
func TestParallelVerifierWrittenInPieces(t *testing.T) {
	lines := sealedLines(t, 40000) // ~9 MB
	intact := strings.Join(lines, "\n") + "\n"
	bad := append([]string(nil), lines...)
	bad[33000] = strings.Replace(bad[33000], `"prev":"sha256:`, `"prev":"sha256:0`, 1)
	edited := append([]string(nil), lines...)
	edited[39000] = strings.Replace(edited[39000], "email number", "email numbr", 1)
	variants := map[string]string{
		"intact":       intact,
		"bad prev":     strings.Join(bad, "\n") + "\n",
		"edited":       strings.Join(edited, "\n") + "\n",
		"unterminated": strings.TrimSuffix(intact, "\n"),
		"long line":    strings.Join(lines[:100], "\n") + "\n" + strings.Repeat("x", MaxLine+10) + "\n" + strings.Join(lines[100:], "\n") + "\n",
	}
	for name, data := range variants {
		want := Verify(strings.NewReader(data), "x")
		for _, piece := range []int{1 << 20 * 3, 1 << 20, 900_000, 60_000, 347, 1} {
			if piece == 1 && len(data) > 3<<20 {
				continue // byte by byte only where it is quick
			}
			v := NewParallelVerifier("x", 1, Genesis)
			for rest := data; len(rest) > 0; {
				k := min(piece, len(rest))
				if n, err := v.Write([]byte(rest[:k])); n != k || err != nil {
					t.Fatalf("%s: Write = %d, %v", name, n, err)
				}
				rest = rest[k:]
			}
			sameReport(t, fmt.Sprintf("%s in pieces of %d", name, piece), v.Close(), want)
		}
	}
	short := strings.Join(lines[:1000], "\n") + "\n"
	v := NewParallelVerifier("x", 1, Genesis)
	v.Write([]byte(short + lines[1000][:50]))
	got := v.CloseWithError(errors.New("disk on fire"))
	if got.Entries != 1000 || got.Break == nil || got.Break.Reason != ReasonReadError || got.Break.Seq != 1001 || got.Break.Line != 1001 {
		t.Fatalf("read error after 1000 entries: %+v %+v", got, got.Break)
	}
}

// sealedLines makes a valid chain of n lines in memory (no file, no fsync).
func sealedLines(t testing.TB, n int) []string {
	t.Helper()
	prev := Genesis
	out := make([]string, n)
	for i := range out {
		line, e, err := Seal(Entry{Seq: int64(i + 1), TS: "2026-07-03T10:00:00.000Z", Loop: "weekly-report", Kind: KindCheck,
			Action: "send", Target: fmt.Sprintf("email number %d to the team, with a longer target to fill the line", i+1),
			Verdict: "ask", Rule: "ask: email", Prev: prev})
		if err != nil {
			t.Fatal(err)
		}
		out[i], prev = string(line), e.Hash
	}
	return out
}
