package chain

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// helperEnv makes the test binary act as one appending process (see
// TestMain): "path|proc|count".
const helperEnv = "GITWARRANT_CHAIN_TEST_APPENDER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(appendFromHelper(spec))
	}
	os.Exit(m.Run())
}

func appendFromHelper(spec string) int {
	parts := strings.Split(spec, "|")
	n, _ := strconv.Atoi(parts[2])
	c := &File{Path: parts[0]}
	for i := 0; i < n; i++ {
		_, err := c.Append(Entry{Loop: "race", Kind: KindNote, Did: fmt.Sprintf("proc-%s-%d", parts[1], i)})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func TestConcurrentProcessesKeepOneChain(t *testing.T) {
	const procs, each = 20, 25
	path := filepath.Join(t.TempDir(), "record", "w.jsonl")
	cmds := make([]*exec.Cmd, procs)
	for p := range cmds {
		cmds[p] = exec.Command(os.Args[0], "-test.run=^$")
		cmds[p].Env = append(os.Environ(), fmt.Sprintf("%s=%s|%d|%d", helperEnv, path, p, each))
		cmds[p].Stderr = os.Stderr
		if err := cmds[p].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for p, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("appender %d: %v", p, err)
		}
	}
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || rep.Entries != procs*each {
		t.Fatalf("after concurrent appends: err %v, %d entries, break %+v", err, rep.Entries, rep.Break)
	}
	f, _ := os.Open(path)
	defer f.Close()
	entries, err := ReadEntries(f)
	if err != nil {
		t.Fatal(err)
	}
	next := map[string]int{} // per process, the next marker expected
	for _, e := range entries {
		var p, i int
		if _, err := fmt.Sscanf(e.Did, "proc-%d-%d", &p, &i); err != nil {
			t.Fatalf("seq %d: bad marker %q", e.Seq, e.Did)
		}
		key := strconv.Itoa(p)
		if i != next[key] {
			t.Fatalf("seq %d: process %d wrote %d, expected %d next", e.Seq, p, i, next[key])
		}
		next[key]++
	}
	for p := 0; p < procs; p++ {
		if next[strconv.Itoa(p)] != each {
			t.Errorf("process %d: %d entries on record, want %d", p, next[strconv.Itoa(p)], each)
		}
	}
}

func TestAppendFillsChainFields(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "w.jsonl")
	at := time.Date(2026, 7, 3, 10, 15, 0, 123456789, time.FixedZone("X", 3600))
	c := &File{Path: path, Now: func() time.Time { return at }}
	e1, err := c.Append(Entry{Seq: 99, Prev: "junk", Hash: "junk", Loop: "l", Kind: KindNote, Note: "first"})
	if err != nil {
		t.Fatal(err)
	}
	if e1.Seq != 1 || e1.Prev != Genesis || e1.TS != "2026-07-03T09:15:00.123Z" {
		t.Fatalf("first entry = %+v", e1)
	}
	e2, err := c.Append(Entry{TS: "2020-01-01T00:00:00.000Z", Loop: "l", Kind: KindNote, Note: "second"})
	if err != nil {
		t.Fatal(err)
	}
	if e2.Seq != 2 || e2.Prev != e1.Hash || e2.TS != "2020-01-01T00:00:00.000Z" {
		t.Fatalf("second entry = %+v", e2)
	}
	if tail, ok, err := Tail(path); !ok || err != nil || tail.Hash != e2.Hash || tail.Note != "second" {
		t.Fatalf("Tail = %+v %v %v", tail, ok, err)
	}
	if _, err := os.Stat(path + ".lock"); err != nil {
		t.Fatalf("default lock file: %v", err)
	}
}

func TestAppendRefusesBadEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.jsonl")
	c := &File{Path: path}
	if _, err := c.Append(Entry{Loop: "l"}); err == nil {
		t.Error("entry without kind was appended")
	}
	huge := Entry{Loop: "l", Kind: KindNote, Note: strings.Repeat("x", MaxLine)}
	if _, err := c.Append(huge); err == nil || !strings.Contains(err.Error(), "line limit") {
		t.Errorf("oversized entry: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		if data, _ := os.ReadFile(path); len(data) != 0 {
			t.Errorf("refused entries left %d bytes", len(data))
		}
	}
}

func TestTornLastLine(t *testing.T) {
	path, lines := buildRecord(t, 3)
	fourth := strings.Replace(lines[2], `"seq":3`, `"seq":4`, 1)
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(fourth[:len(fourth)/2])
	f.Close()
	before, _ := os.ReadFile(path)

	rep, err := VerifyFile(path)
	if err != nil || rep.Break == nil || rep.Break.Reason != ReasonTorn || rep.Break.Line != 4 || rep.Break.Seq != 4 || rep.Entries != 3 {
		t.Fatalf("torn record: %v %+v", err, rep.Break)
	}
	_, err = (&File{Path: path}).Append(Entry{Loop: "l", Kind: KindNote})
	var torn *TornError
	if !errors.As(err, &torn) || torn.Line != 4 || !strings.Contains(err.Error(), path+":4") || !strings.Contains(err.Error(), "record verify") {
		t.Fatalf("Append after torn line: %v", err)
	}
	if _, _, err := Tail(path); !errors.As(err, &torn) {
		t.Fatalf("Tail after torn line: %v", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("Append changed a file with a torn last line")
	}
}

func TestUnterminatedValidLastLine(t *testing.T) {
	path, _ := buildRecord(t, 3)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.TrimSuffix(data, []byte("\n")), 0o644)
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || rep.Entries != 3 || !rep.Unterminated {
		t.Fatalf("unterminated valid line: %v %+v unterminated=%v", err, rep.Break, rep.Unterminated)
	}
	if _, err := (&File{Path: path}).Append(Entry{Loop: "l", Kind: KindNote}); err == nil {
		t.Fatal("Append wrote after an unterminated last line")
	}
}

func TestTailReadsLongLastLine(t *testing.T) {
	// A last line spanning several 4 KiB blocks exercises the backwards reader.
	path := filepath.Join(t.TempDir(), "w.jsonl")
	c := &File{Path: path}
	c.Append(Entry{Loop: "l", Kind: KindNote, Note: "short"})
	long := strings.Repeat("é", 3*tailBlock)
	want, err := c.Append(Entry{Loop: "l", Kind: KindNote, Note: long})
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := Tail(path)
	if !ok || err != nil || got.Note != long || got.Hash != want.Hash {
		t.Fatalf("Tail of long line: ok=%v err=%v", ok, err)
	}
	e3, err := c.Append(Entry{Loop: "l", Kind: KindNote})
	if err != nil || e3.Seq != 3 || e3.Prev != want.Hash {
		t.Fatalf("append after long line: %+v %v", e3, err)
	}
}

func TestParsedEntryRoundTrips(t *testing.T) {
	line := `{"seq":7,"ts":"t","loop":"l","kind":"amend","rule":null,"via":"","list":"send","n":1.50,"nested":{"b":[1,{"x":null}],"a":true},"prev":"p","hash":"h"}`
	e, m, err := ParseEntry([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if e.Seq != 7 || e.Kind != KindAmend || e.Extra["list"] != "send" || e.Hash != "h" {
		t.Fatalf("typed = %+v", e)
	}
	delete(m, "hash")
	a, _ := Canonical(m)
	b, _ := Canonical(e.Fields())
	if !bytes.Equal(a, b) {
		t.Fatalf("Fields() differs from the line:\n%s\n%s", b, a)
	}
}

func TestAppendRefusesAfterUnparsableLastLine(t *testing.T) {
	path, _ := buildRecord(t, 2)
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("not json\n")
	f.Close()
	before, _ := os.ReadFile(path)
	_, err := (&File{Path: path}).Append(Entry{Loop: "l", Kind: KindNote})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "unparsable") {
		t.Fatalf("Append after garbage line: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("Append changed the file")
	}
}
