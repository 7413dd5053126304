package chain

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain/spectest"
)

// The independent reference implementation lives in package spectest.
var (
	refCanonical = spectest.Canonical
	refHash      = spectest.Hash
	refVerify    = spectest.Verify
)

// refBuild writes a spec-valid record from bodies (seq, prev, hash added),
// deliberately not in canonical form: Go's HTML-escaping Marshal plus a
// space, to show verification hashes parsed values, not bytes.
func refBuild(t *testing.T, bodies []map[string]any) []byte {
	t.Helper()
	var out bytes.Buffer
	prev := "GENESIS"
	for i, b := range bodies {
		m := map[string]any{"seq": i + 1, "prev": prev}
		for k, v := range b {
			m[k] = v
		}
		m["hash"] = refHash(t, prev, m)
		line, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString("{ " + string(line[1:]) + "\n")
		prev = m["hash"].(string)
	}
	return out.Bytes()
}

// trickyBodies covers the spec's example shape and every character class
// where JSON.stringify and Go's encoder differ.
func trickyBodies() []map[string]any {
	return []map[string]any{
		{"ts": "2026-07-03T10:15:00.000Z", "loop": "insurance-appeal", "kind": "check",
			"action": "send", "target": "appeal email to insurer", "verdict": "ask",
			"rule": "ask: anything addressed to the insurer"},
		{"ts": "2026-07-03T10:16:00.000Z", "loop": "insurance-appeal", "kind": "note",
			"saw": "<script> & \"quotes\" \\ back", "did": "café — résumé 🚀",
			"note": "line\u2028sep\u2029para\ttab\nnl\r\x01\x1f\x7f"},
		{"ts": "2026-07-03T10:17:00.000Z", "loop": "l", "kind": "proposal",
			"list": "send", "pattern": "post to <team> & co", "nested": map[string]any{"z": []any{1, "é", nil, true}, "a": 2.5}},
	}
}

func TestAppendedRecordVerifiesUnderReference(t *testing.T) {
	path := filepath.Join(t.TempDir(), "record", "w.jsonl")
	c := &File{Path: path, Now: func() time.Time { return time.Date(2026, 7, 3, 10, 15, 0, 0, time.UTC) }}
	for _, b := range trickyBodies() {
		if _, err := c.Append(bodyEntry(t, b)); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head := refVerify(t, data)
	rep := Verify(bytes.NewReader(data), path)
	if !rep.OK() || rep.Head != head || rep.Entries != 3 {
		t.Fatalf("Verify = %+v, reference head %s", rep, head)
	}
	// Append writes canonical lines: each is the reference canonical form.
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		dec.Decode(&m)
		if want := refCanonical(t, m); line != want {
			t.Errorf("line %d not canonical:\n got %s\nwant %s", i+1, line, want)
		}
	}
}

func TestReferenceBuiltRecordVerifies(t *testing.T) {
	data := refBuild(t, trickyBodies())
	rep := Verify(bytes.NewReader(data), "ref.jsonl")
	if !rep.OK() {
		t.Fatalf("reference record failed: %+v", rep.Break)
	}
	if want := refVerify(t, data); rep.Head != want || rep.LastSeq != 3 {
		t.Fatalf("head %s seq %d, want %s seq 3", rep.Head, rep.LastSeq, want)
	}
}

// bodyEntry turns a spec-shaped body into an Entry through ParseEntry, so
// fields outside the typed set land in Extra.
func bodyEntry(t testing.TB, body map[string]any) Entry {
	t.Helper()
	m := map[string]any{"seq": 1}
	for k, v := range body {
		m[k] = v
	}
	e, _, err := ParseEntry(mustJSON(t, m))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// nodeScript implements the spec the way docket does: JSON.stringify over
// recursively key-sorted objects, sha256 over prev + "\n" + that. With
// argv "verify" it checks a record and prints the head; with "build" it
// writes a record from a JSON array of bodies on stdin.
const nodeScript = `
const crypto = require('crypto'), fs = require('fs');
const sortKeys = v => Array.isArray(v) ? v.map(sortKeys)
  : (v && typeof v === 'object') ? Object.keys(v).sort().reduce((o, k) => (o[k] = sortKeys(v[k]), o), {}) : v;
const hash = (prev, e) => { const c = {...e}; delete c.hash;
  return 'sha256:' + crypto.createHash('sha256').update(prev + '\n' + JSON.stringify(sortKeys(c))).digest('hex'); };
const [mode, file] = process.argv.slice(2);
if (mode === 'verify') {
  let prev = 'GENESIS', seq = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(l => l)) {
    const e = JSON.parse(line);
    if (e.seq !== ++seq || e.prev !== prev || e.hash !== hash(prev, e)) { console.log('BREAK at seq ' + seq); process.exit(1); }
    prev = e.hash;
  }
  console.log(prev);
} else {
  let prev = 'GENESIS', out = '';
  JSON.parse(fs.readFileSync(0, 'utf8')).forEach((b, i) => {
    const e = {seq: i + 1, ...b, prev}; e.hash = hash(prev, e); prev = e.hash; out += JSON.stringify(e) + '\n';
  });
  fs.writeFileSync(file, out);
}
`

// TestNodeInterop checks both directions against a JavaScript
// implementation run by a real node process: a Go-written record verifies
// there, and a node-written one verifies here. Skipped without node.
func TestNodeInterop(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "chain.js")
	os.WriteFile(script, []byte(nodeScript), 0o644)

	// Keys above U+FFFF against U+FFFF: JavaScript sorts by UTF-16 code
	// units, not code points (only node checks this; the Go reference above
	// sorts by bytes).
	bodies := append(trickyBodies(), map[string]any{"ts": "t", "loop": "l", "kind": "note",
		"x": map[string]any{"\uffff": 1, "😀": 2, "\ue000": 3}})
	goFile := filepath.Join(dir, "go.jsonl")
	c := &File{Path: goFile}
	for _, b := range bodies {
		if _, err := c.Append(bodyEntry(t, b)); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(node, script, "verify", goFile).CombinedOutput()
	rep, _ := VerifyFile(goFile)
	if err != nil || strings.TrimSpace(string(out)) != rep.Head {
		t.Fatalf("node verify of Go record: %v: %s (Go head %s)", err, out, rep.Head)
	}

	nodeFile := filepath.Join(dir, "node.jsonl")
	cmd := exec.Command(node, script, "build", nodeFile)
	cmd.Stdin = bytes.NewReader(mustJSON(t, bodies))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node build: %v: %s", err, out)
	}
	rep, err = VerifyFile(nodeFile)
	if err != nil || !rep.OK() || rep.Entries != 4 {
		t.Fatalf("node-written record does not verify: %v %+v", err, rep.Break)
	}
	// And Go can keep appending to a node-written chain.
	if _, err := (&File{Path: nodeFile}).Append(Entry{Loop: "l", Kind: KindNote, Note: "after node"}); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(node, script, "verify", nodeFile).CombinedOutput(); err != nil {
		t.Fatalf("node verify after Go append: %v: %s", err, out)
	}
}
