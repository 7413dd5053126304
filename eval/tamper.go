package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// Tamper chain sizes: enough chains and entries that every edit position
// (first, middle, last) and every entry kind occurs many times.
const (
	tamperChains  = 24
	tamperMinLen  = 3
	tamperMaxLen  = 28
	tamperSeedOne = 0x7a3e_11c0_5eed_0004
	tamperSeedTwo = 0x0b5e_55ed_7a3e_0004
)

// Tamper is the tamper suite (spec "The hash chain", docs/design.md#the-record): records
// written by chain.File, then every single-entry edit (each field, by
// changing, retyping and removing it, and adding a field), every deletion,
// insertion, swap and truncation is checked against chain.Verify and a
// pinned head. Each must be caught at the right seq; untouched chains and
// legitimate growth must not be flagged.
func Tamper() (*Suite, error) {
	s := newSuite("tamper",
		"every edit, deletion, insertion, swap and truncation of a record is detected by verify at the entry it touched (truncation and whole-tail rewrites via the pinned head); intact chains and legitimate appends are never flagged")
	dir, err := os.MkdirTemp("", "gitwarrant-eval-tamper-")
	if err != nil {
		return nil, fmt.Errorf("make a temp dir: %w; check TMPDIR", err)
	}
	defer os.RemoveAll(dir)
	r := newRand(tamperSeedOne, tamperSeedTwo)
	for c := 0; c < tamperChains; c++ {
		n := tamperMinLen + r.IntN(tamperMaxLen-tamperMinLen+1)
		lines, err := writeChain(filepath.Join(dir, fmt.Sprintf("w%02d.jsonl", c)), n, r)
		if err != nil {
			return nil, err
		}
		t := &tamperer{s: s, lines: lines, chainName: fmt.Sprintf("chain %d (%d entries)", c, n)}
		if err := t.run(r); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// writeChain appends n generated entries with chain.File and returns the
// file's lines (without newlines).
func writeChain(path string, n int, r *rand.Rand) ([][]byte, error) {
	clock := time.Date(2026, 7, 3, 10, 15, 0, 0, time.UTC)
	f := &chain.File{Path: path, Now: func() time.Time {
		clock = clock.Add(1500 * time.Millisecond)
		return clock
	}}
	for i := 0; i < n; i++ {
		if _, err := f.Append(genEntry(r)); err != nil {
			return nil, fmt.Errorf("append generated entry %d to %s: %w", i+1, path, err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")), nil
}

var (
	tamperLoops   = []string{"insurance-appeal", "release", "client-follow-up", "weekly-plan"}
	tamperTargets = []string{"appeal letter", "git push origin main", "status email to the team",
		"policy documents", "rm -rf build/", "café menu — draft ✓", `quote "q3" \ backslash`, "\u2028line sep"}
)

// genEntry makes one entry of a random kind, with fields of every shape the
// record holds: typed strings, unicode, and Extra values (nested objects,
// numbers, booleans) as amends and proposals carry.
func genEntry(r *rand.Rand) chain.Entry {
	e := chain.Entry{Loop: pick(r, tamperLoops)}
	switch r.IntN(4) {
	case 0, 1:
		e.Kind = chain.KindCheck
		e.Action = pick(r, []string{"read", "draft", "change", "send"})
		e.Target = pick(r, tamperTargets)
		e.Verdict = pick(r, []string{"allow", "ask", "deny"})
		e.Rule = "default: unlisted means ask"
		e.Via = pick(r, []string{"cli", "hook", "mcp", "http"})
		e.LoopBlob = fmt.Sprintf("git:%040x", r.Uint64())
		e.Engine = "gitwarrant-1"
	case 2:
		e.Kind = chain.KindNote
		e.Did = pick(r, tamperTargets)
		e.Stopped = "before send"
	default:
		e.Kind = chain.KindAmend
		e.Extra = map[string]any{
			"list": "draft", "pattern": pick(r, tamperTargets), "op": "add",
			"signer": "ana@example.com", "sig": fmt.Sprintf("SSHSIG-%016x", r.Uint64()),
			"meta": map[string]any{"lines": []any{json.Number("3"), json.Number("4")}, "signed": true},
		}
	}
	return e
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// tamperer applies every tamper to one chain.
type tamperer struct {
	s         *Suite
	chainName string
	lines     [][]byte
}

func (t *tamperer) n() int { return len(t.lines) }

func (t *tamperer) head() string {
	_, m, _ := chain.ParseEntry(t.lines[t.n()-1])
	return m["hash"].(string)
}

func (t *tamperer) run(r *rand.Rand) error {
	t.intact()
	for i := 1; i <= t.n(); i++ {
		if err := t.fieldEdits(i); err != nil {
			return err
		}
		if err := t.rehashEdit(i); err != nil {
			return err
		}
		t.deletion(i)
		if err := t.insertion(i, r); err != nil {
			return err
		}
		if i < t.n() {
			t.swap(i)
		}
	}
	t.truncations(r)
	return nil
}

// verify runs chain.Verify on lines (each newline-terminated unless torn).
func verify(lines [][]byte, torn []byte) *chain.Report {
	var buf bytes.Buffer
	for _, l := range lines {
		buf.Write(l)
		buf.WriteByte('\n')
	}
	buf.Write(torn)
	return chain.Verify(&buf, "tampered.jsonl")
}

// expectBreak checks that rep broke at line and seq, and offers a closest
// call when the break is far from the first line (more intact prefix).
func (t *tamperer) expectBreak(what string, rep *chain.Report, line int, seq int64) {
	ok := rep.Break != nil && rep.Break.Line == line && rep.Break.Seq == seq
	got := "verified end to end"
	if rep.Break != nil {
		got = fmt.Sprintf("break at line %d seq %d: %s", rep.Break.Line, rep.Break.Seq, rep.Break.Reason)
	}
	ex := Example{Input: t.chainName + ": " + what, Got: got,
		Note: fmt.Sprintf("want a break at line %d seq %d", line, seq)}
	t.s.Check(ok, ex)
}

// expectHead checks that the chain verifies and that the originally pinned
// head has the wanted status — the only way truncation and whole-tail
// rewrites show (spec: "one case the chain alone cannot see").
func (t *tamperer) expectHead(what string, rep *chain.Report, want chain.HeadStatus) {
	st, _ := rep.HeadStatus(t.head())
	names := map[chain.HeadStatus]string{chain.HeadIsLast: "head is last", chain.HeadPresent: "head present", chain.HeadMissing: "head missing"}
	got := names[st]
	if rep.Break != nil {
		got = "unexpected break: " + rep.Break.Reason
	}
	ex := Example{Input: t.chainName + ": " + what, Got: got + " (chain verifies)", Note: "want " + names[want]}
	t.s.Check(rep.Break == nil && st == want, ex)
	if want == chain.HeadMissing && st == want {
		// Verify alone passed: only the pin saw it. That is the closest call.
		t.s.NearOnce(category(what), 2, ex)
	}
}

func (t *tamperer) intact() {
	rep := verify(t.lines, nil)
	t.s.Check(rep.Break == nil && rep.Entries == t.n(),
		Example{Input: t.chainName + ": untouched", Got: fmt.Sprint(rep.Break), Note: "an intact chain must verify"})
	t.expectHead("untouched, pinned head", rep, chain.HeadIsLast)
	for k := 1; k < t.n(); k++ {
		_, m, _ := chain.ParseEntry(t.lines[k-1])
		st, seq := rep.HeadStatus(m["hash"].(string))
		t.s.Check(st == chain.HeadPresent && seq == int64(k), Example{
			Input: fmt.Sprintf("%s: grown since head %d was pinned", t.chainName, k),
			Got:   fmt.Sprintf("status %d seq %d", st, seq), Note: "an older pin is present, not missing"})
	}
}

// withLine returns a copy of the chain with line i (1-based) replaced.
func (t *tamperer) withLine(i int, line []byte) [][]byte {
	out := slices.Clone(t.lines)
	out[i-1] = line
	return out
}

// fieldEdits changes, retypes and removes every field of entry i, and adds
// one: each must break the chain at entry i.
func (t *tamperer) fieldEdits(i int) error {
	_, m, err := chain.ParseEntry(t.lines[i-1])
	if err != nil {
		return fmt.Errorf("generated line %d does not parse: %w", i, err)
	}
	keys := sortedKeys(m)
	for _, k := range keys {
		for _, edit := range fieldEditsFor(k, m[k]) {
			mm := cloneMap(m)
			if edit.remove {
				delete(mm, k)
			} else {
				mm[k] = edit.value
			}
			line, err := chain.Canonical(mm)
			if err != nil {
				return err
			}
			t.expectBreak(fmt.Sprintf("entry %d field %q %s", i, k, edit.name), verify(t.withLine(i, line), nil), i, int64(i))
		}
	}
	mm := cloneMap(m)
	mm["zz_added"] = "forged"
	line, _ := chain.Canonical(mm)
	t.expectBreak(fmt.Sprintf("entry %d with an added field", i), verify(t.withLine(i, line), nil), i, int64(i))
	return nil
}

type fieldEdit struct {
	name   string
	value  any
	remove bool
}

// fieldEditsFor lists the edits tried on one field value.
func fieldEditsFor(key string, v any) []fieldEdit {
	edits := []fieldEdit{{name: "removed", remove: true}}
	switch x := v.(type) {
	case string:
		edits = append(edits,
			fieldEdit{name: "one character changed", value: flipRune(x)},
			fieldEdit{name: "extended", value: x + " "},
			fieldEdit{name: "retyped to a number", value: json.Number("7")})
	case json.Number:
		edits = append(edits,
			fieldEdit{name: "incremented", value: json.Number(fmt.Sprint(mustInt(x) + 1))},
			fieldEdit{name: "decremented", value: json.Number(fmt.Sprint(mustInt(x) - 1))},
			fieldEdit{name: "retyped to a string", value: string(x)})
	case bool:
		edits = append(edits, fieldEdit{name: "negated", value: !x})
	case map[string]any:
		c := cloneMap(x)
		c["forged"] = true
		edits = append(edits, fieldEdit{name: "given a nested key", value: c})
	default:
		edits = append(edits, fieldEdit{name: "replaced", value: "forged"})
	}
	return edits
}

func flipRune(s string) string {
	if s == "" {
		return "x"
	}
	r := []rune(s)
	if r[0] == 'x' {
		r[0] = 'y'
	} else {
		r[0] = 'x'
	}
	return string(r)
}

func mustInt(n json.Number) int64 {
	v, _ := n.Int64()
	return v
}

// rehashEdit plays a smarter attacker who edits entry i's target or note
// and recomputes its hash: the next entry's prev exposes it; when i is the
// last entry, or the attacker rewrites the whole tail, only the pinned head
// does.
func (t *tamperer) rehashEdit(i int) error {
	lines, err := rewriteFrom(t.lines, i, func(m map[string]any) { m["loop"] = flipRune(m["loop"].(string)) }, false)
	if err != nil {
		return err
	}
	if i < t.n() {
		t.expectBreak(fmt.Sprintf("entry %d edited and rehashed", i), verify(lines, nil), i+1, int64(i+1))
	} else {
		t.expectHead(fmt.Sprintf("last entry %d edited and rehashed", i), verify(lines, nil), chain.HeadMissing)
	}
	lines, err = rewriteFrom(t.lines, i, func(m map[string]any) { m["loop"] = flipRune(m["loop"].(string)) }, true)
	if err != nil {
		return err
	}
	t.expectHead(fmt.Sprintf("entry %d edited and the whole tail rehashed", i), verify(lines, nil), chain.HeadMissing)
	return nil
}

// rewriteFrom applies edit to entry i and recomputes its hash; with tail it
// also re-links and rehashes every later entry, as a forger would.
func rewriteFrom(src [][]byte, i int, edit func(map[string]any), tail bool) ([][]byte, error) {
	lines := slices.Clone(src)
	prev := chain.Genesis
	if i > 1 {
		_, pm, _ := chain.ParseEntry(lines[i-2])
		prev = pm["hash"].(string)
	}
	for j := i; j <= len(lines); j++ {
		_, m, err := chain.ParseEntry(lines[j-1])
		if err != nil {
			return nil, err
		}
		if j == i {
			edit(m)
		}
		m["prev"] = prev
		h, err := chain.ComputeHash(prev, m)
		if err != nil {
			return nil, err
		}
		m["hash"] = h
		if lines[j-1], err = chain.Canonical(m); err != nil {
			return nil, err
		}
		prev = h
		if !tail {
			break
		}
	}
	return lines, nil
}

// deletion removes entry i: the next entry shows a seq gap at line i; the
// last entry's deletion is a truncation, seen only by the pinned head.
func (t *tamperer) deletion(i int) {
	lines := slices.Delete(slices.Clone(t.lines), i-1, i)
	if i < t.n() {
		t.expectBreak(fmt.Sprintf("entry %d deleted", i), verify(lines, nil), i, int64(i))
		return
	}
	t.expectHead(fmt.Sprintf("last entry %d deleted", i), verify(lines, nil), chain.HeadMissing)
}

// insertion inserts a forged entry before entry i, correctly linked and
// hashed (the strongest forger): entry i, now one line down, breaks. A
// forged entry with a wrong hash appended at the end breaks at itself,
// while a correct append is growth and must not be flagged.
func (t *tamperer) insertion(i int, r *rand.Rand) error {
	prev := chain.Genesis
	if i > 1 {
		_, pm, _ := chain.ParseEntry(t.lines[i-2])
		prev = pm["hash"].(string)
	}
	forged := genEntry(r)
	forged.Seq, forged.Prev, forged.TS = int64(i), prev, "2026-07-03T10:15:00.000Z"
	line, _, err := chain.Seal(forged)
	if err != nil {
		return err
	}
	lines := slices.Insert(slices.Clone(t.lines), i-1, line)
	t.expectBreak(fmt.Sprintf("forged entry inserted before entry %d", i), verify(lines, nil), i+1, int64(i+1))
	if i == t.n() {
		return t.appendAtEnd(r)
	}
	return nil
}

func (t *tamperer) appendAtEnd(r *rand.Rand) error {
	n := t.n()
	e := genEntry(r)
	e.Seq, e.Prev, e.TS = int64(n+1), t.head(), "2026-07-03T11:00:00.000Z"
	good, sealed, err := chain.Seal(e)
	if err != nil {
		return err
	}
	fields := sealed.Fields()
	h := sealed.Hash
	t.expectHead("legitimate append after the pinned head", verify(append(slices.Clone(t.lines), good), nil), chain.HeadPresent)
	fields["hash"] = flipRune(h)
	bad, _ := chain.Canonical(fields)
	t.expectBreak("forged entry with a wrong hash appended", verify(append(slices.Clone(t.lines), bad), nil), n+1, int64(n+1))
	return nil
}

// swap exchanges entries i and i+1: line i now holds seq i+1.
func (t *tamperer) swap(i int) {
	lines := slices.Clone(t.lines)
	lines[i-1], lines[i] = lines[i], lines[i-1]
	t.expectBreak(fmt.Sprintf("entries %d and %d swapped", i, i+1), verify(lines, nil), i, int64(i))
}

// truncations cuts the chain after every k < n entries (seen only by the
// pinned head) and mid-line (a torn last line, seen by verify).
func (t *tamperer) truncations(r *rand.Rand) {
	for k := 0; k < t.n(); k++ {
		t.expectHead(fmt.Sprintf("truncated to %d of %d entries", k, t.n()), verify(t.lines[:k], nil), chain.HeadMissing)
		next := t.lines[k]
		cut := 1 + r.IntN(len(next)-1)
		rep := verify(t.lines[:k], next[:cut])
		t.expectBreak(fmt.Sprintf("torn mid-line after %d entries (cut at byte %d)", k, cut), rep, k+1, int64(k+1))
		t.s.Check(rep.Break != nil && rep.Break.Reason == chain.ReasonTorn, Example{
			Input: fmt.Sprintf("%s: torn after %d entries", t.chainName, k), Got: fmt.Sprint(rep.Break), Note: "a torn last line is reported as torn"})
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func cloneMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
