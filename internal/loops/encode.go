package loops

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
)

// A parse kept across processes (docs/performance.md#the-parse-cache) is
// Parse(path, data) written down: every field Parse sets, in a hand-rolled
// encoding, with the path and the SHA-256 of the bytes it was made from at
// its head. DecodeParsed takes it only for that very path and those very
// bytes; the bytes themselves, their digest and blob id are never read
// from it but taken from the file just read, and each typed entry is
// compiled again from its text when it is first used, so the encoding
// holds no compiled matcher whose shape could drift.
//
// Why hand-rolled: a hook process decodes a handful of loops once, so the
// cost that counts is a cold decode. BenchmarkDecodeParsed, the
// fix-bug-on-branch template, one run on a loaded 2-CPU VM (load average
// 46; the ratios held in a run at 15): Parse 4.5 ms, this encoding
// 0.21 ms, encoding/gob with a fresh decoder — as each new process has —
// 0.54 ms, encoding/json 1.3 ms.

// encodeFormat changes whenever the encoding or the meaning of a field
// does; an entry of another format is a miss.
const encodeFormat = 1

// encodeMagic opens every encoded parse.
var encodeMagic = []byte("gitwarrant-parse\x00")

// ErrNotParsed is DecodeParsed's answer for anything but the parse of
// exactly these bytes at exactly this path: a cache miss, never a loop.
var ErrNotParsed = errors.New("not a parse of these bytes")

// EncodeParsed writes down l, which Parse(path, data) returned for bytes
// whose SHA-256 is sum. Only a loop fresh from Parse may be encoded: what
// loading adds later (a parent folded in, a version put in force) is not
// a function of the file's bytes.
func EncodeParsed(l *Loop, sum [32]byte) []byte {
	var e encoder
	e.b = append(e.b, encodeMagic...)
	e.uint(encodeFormat)
	e.str(l.Path)
	e.b = append(e.b, sum[:]...)
	e.str(l.Name)
	e.str(l.Description)
	e.int(l.Version)
	for _, name := range Lists {
		e.items(l.Warrant.List(name))
	}
	e.items(l.Reserved)
	e.items(l.Record)
	e.items(l.Triggers)
	e.str(l.Goal)
	e.str(l.Stop)
	e.str(l.Budget)
	e.examples(l.Examples)
	e.item(l.Extends)
	e.bool(l.Abstract)
	e.strs(l.Inherits)
	e.warnings(l.Warnings)
	e.str(l.Preamble)
	e.str(l.Brief)
	e.str(l.Procedure)
	e.str(l.Unsigned)
	e.bool(l.allowsNothing)
	return e.b
}

// DecodeParsed returns the loop enc holds when it was encoded for path and
// for the very bytes data, else ErrNotParsed. The loop's Source is data
// itself, as Parse keeps it.
func DecodeParsed(path string, data []byte, enc []byte) (*Loop, error) {
	return decodeParsed(path, data, ParseSum(data), enc)
}

// decodeParsed is DecodeParsed for a caller that has just computed sum,
// the SHA-256 of data, itself.
func decodeParsed(path string, data []byte, sum [32]byte, enc []byte) (*Loop, error) {
	d := decoder{b: enc}
	if !bytes.HasPrefix(enc, encodeMagic) {
		return nil, ErrNotParsed
	}
	d.b = d.b[len(encodeMagic):]
	if d.uint() != encodeFormat || d.str() != path || !bytes.Equal(d.take(len(sum)), sum[:]) || d.bad {
		return nil, ErrNotParsed
	}
	l := &Loop{Path: path, Source: data, Digest: "sha256:" + hex.EncodeToString(sum[:]), BlobID: BlobID(data)}
	l.Name = d.str()
	l.Description = d.str()
	l.Version = d.int()
	for _, name := range Lists {
		l.Warrant.SetList(name, d.items())
	}
	l.Reserved = d.items()
	l.Record = d.items()
	l.Triggers = d.items()
	l.Goal = d.str()
	l.Stop = d.str()
	l.Budget = d.str()
	l.Examples = d.examples()
	l.Extends = d.item()
	l.Abstract = d.bool()
	l.Inherits = d.strs()
	l.Warnings = d.warnings()
	l.Preamble = d.str()
	l.Brief = d.str()
	l.Procedure = d.str()
	l.Unsigned = d.str()
	l.allowsNothing = d.bool()
	if d.bad || len(d.b) != 0 {
		return nil, ErrNotParsed
	}
	// Each warrant entry's typed form is compiled from its text when first
	// asked for (TypedIn): the same text compiles to the same entry, and
	// Parse accepted every one of them. Routing a prompt over every loop
	// never asks.
	for _, name := range Lists {
		items := l.Warrant.List(name)
		for i := range items {
			if LooksTyped(items[i].Text) {
				items[i].lazy = &lazyTyped{}
			}
		}
	}
	return l, nil
}

// ParseSum is the SHA-256 of a loop file's bytes, the key its parse is
// kept under.
func ParseSum(data []byte) [32]byte { return sha256.Sum256(data) }

type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int)     { e.b = binary.AppendVarint(e.b, int64(v)) }

func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

// count writes a slice's length, keeping nil apart from empty: a decoded
// loop must be Parse's, field for field.
func (e *encoder) count(n int, isNil bool) {
	if isNil {
		e.uint(0)
		return
	}
	e.uint(uint64(n) + 1)
}

func (e *encoder) item(it Item) {
	e.str(it.Text)
	e.int(it.Line)
	e.str(it.From)
}

func (e *encoder) items(its []Item) {
	e.count(len(its), its == nil)
	for _, it := range its {
		e.item(it)
	}
}

func (e *encoder) strs(ss []string) {
	e.count(len(ss), ss == nil)
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) examples(xs []Example) {
	e.count(len(xs), xs == nil)
	for _, x := range xs {
		e.str(string(x.Expect))
		e.str(x.Text)
		e.str(x.Tool)
		e.str(x.Arg)
		e.int(x.Line)
	}
}

func (e *encoder) warnings(ws []Warning) {
	e.count(len(ws), ws == nil)
	for _, w := range ws {
		e.int(w.Line)
		e.str(w.Msg)
		e.str(w.Hint)
	}
}

// decoder reads what encoder wrote; any short or malformed field sets bad
// and every later read returns a zero value.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int {
	v, n := binary.Varint(d.b)
	if n <= 0 || int64(int(v)) != v {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *decoder) bool() bool {
	b := d.take(1)
	if b == nil || b[0] > 1 {
		d.bad = true
		return false
	}
	return b[0] == 1
}

func (d *decoder) take(n int) []byte {
	if d.bad || n < 0 || n > len(d.b) {
		d.bad = true
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

func (d *decoder) str() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.bad = true
		return ""
	}
	return string(d.take(int(n)))
}

// count reads a slice length: -1 for nil. A length no remaining bytes
// could hold is malformed, so a corrupted count cannot make a huge slice.
func (d *decoder) count() int {
	n := d.uint()
	if n == 0 || d.bad {
		return -1
	}
	if n-1 > uint64(len(d.b)) {
		d.bad = true
		return -1
	}
	return int(n - 1)
}

func (d *decoder) item() Item {
	return Item{Text: d.str(), Line: d.int(), From: d.str()}
}

func (d *decoder) items() []Item {
	n := d.count()
	if n < 0 {
		return nil
	}
	out := make([]Item, n)
	for i := range out {
		out[i] = d.item()
	}
	return out
}

func (d *decoder) strs() []string {
	n := d.count()
	if n < 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) examples() []Example {
	n := d.count()
	if n < 0 {
		return nil
	}
	out := make([]Example, n)
	for i := range out {
		out[i] = Example{Expect: Verdict(d.str()), Text: d.str(), Tool: d.str(), Arg: d.str(), Line: d.int()}
	}
	return out
}

func (d *decoder) warnings() []Warning {
	n := d.count()
	if n < 0 {
		return nil
	}
	out := make([]Warning, n)
	for i := range out {
		out[i] = Warning{Line: d.int(), Msg: d.str(), Hint: d.str()}
	}
	return out
}
