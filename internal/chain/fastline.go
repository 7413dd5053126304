package chain

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"unicode/utf8"
)

// The verify fast path (docs/record.md#verification). An entry's hash
// covers canonical(entry minus hash); every line gitwarrant (or docket)
// writes is itself canonical JSON, so for such a line that text is the
// line with its "hash" member cut out, and no decoding or re-encoding is
// needed — that re-encoding was most of verify's time (~22 µs a line).
// fastLine checks, byte by byte, that a line is in the canonical form
// Canonical writes (keys sorted and unique at every level, no whitespace,
// strings escaped exactly as JSON.stringify escapes them, numbers as
// written) and that its typed fields have the types ParseEntry demands,
// then hashes the raw bytes. Any line it cannot vouch for — not
// canonical, or a hash that does not match — goes the full way, which
// alone reports what is wrong: the fast path can say "verifies", never
// "broken".

// maxFastDepth bounds the nesting the fast path follows; deeper lines go
// the full way.
const maxFastDepth = 32

// fastHasher holds what one goroutine reuses across lines.
type fastHasher struct {
	h   hash.Hash
	sum [sha256.Size]byte
	hex [len(hashPrefix) + 2*sha256.Size]byte
}

const hashPrefix = "sha256:"

var newline = []byte{'\n'}

func newFastHasher() *fastHasher { return &fastHasher{h: sha256.New()} }

// fastEntry is what the fast path reads from a line: its seq, and its
// prev and hash as they appear in it (no escapes).
type fastEntry struct {
	seq        int64
	prev, hash []byte
}

// verify returns the line's fields when it is canonical, well typed and
// its hash is the hash of its own fields after its own prev; ok false
// sends the line the full way.
func (f *fastHasher) verify(line []byte) (fe fastEntry, ok bool) {
	if !utf8.Valid(line) {
		return fe, false
	}
	s := canonScanner{b: line}
	var hashFrom, hashTo int // the "hash" member, with one comma
	var seen int
	if !s.object(0, func(key []byte, from, valFrom, valTo, idx int) bool {
		val := line[valFrom:valTo]
		switch k := string(key); k {
		case "seq":
			n, ok := plainSeq(val)
			fe.seq, seen = n, seen|1
			return ok
		case "prev":
			fe.prev, seen = plainString(val), seen|2
			return fe.prev != nil
		case "hash":
			fe.hash, seen = plainString(val), seen|4
			hashFrom, hashTo = from, valTo
			if idx > 0 {
				hashFrom-- // the comma before it
			} else if valTo < len(line) && line[valTo] == ',' {
				hashTo++ // the comma after it
			}
			return fe.hash != nil
		case "ts", "loop", "kind":
			return val[0] == '"'
		case "action", "target", "verdict", "rule", "via", "loop_blob", "engine",
			"saw", "did", "skipped", "stopped", "note":
			return val[0] == '"' || string(val) == "null"
		}
		return true
	}) || s.pos != len(line) || seen != 7 {
		return fe, false
	}
	f.h.Reset()
	f.h.Write(fe.prev)
	f.h.Write(newline)
	f.h.Write(line[:hashFrom])
	f.h.Write(line[hashTo:])
	f.h.Sum(f.sum[:0])
	copy(f.hex[:], hashPrefix)
	hex.Encode(f.hex[len(hashPrefix):], f.sum[:])
	return fe, bytes.Equal(f.hex[:], fe.hash)
}

// plainSeq reads a positive integer written in plain digits.
func plainSeq(v []byte) (int64, bool) {
	if len(v) == 0 || len(v) > 18 || v[0] < '1' || v[0] > '9' {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// plainString returns a string value's text when it has no escapes.
func plainString(v []byte) []byte {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return nil
	}
	return v[1 : len(v)-1]
}

// canonScanner walks canonical JSON without building values.
type canonScanner struct {
	b   []byte
	pos int
}

// object reads an object at pos; member is called for each top-level
// member (depth 0) with its key, where the member starts, its value's
// bounds and its index, and may reject it.
func (s *canonScanner) object(depth int, member func(key []byte, from, valFrom, valTo, idx int) bool) bool {
	if depth > maxFastDepth || !s.eat('{') {
		return false
	}
	if s.eat('}') {
		return true
	}
	var prevKey []byte
	for idx := 0; ; idx++ {
		from := s.pos
		if !s.eat('"') {
			return false
		}
		kStart := s.pos
		for s.pos < len(s.b) && s.b[s.pos] != '"' {
			c := s.b[s.pos]
			if c < 0x20 || c == '\\' || c >= 0x80 {
				return false // escaped or non-ASCII keys go the full way
			}
			s.pos++
		}
		key := s.b[kStart:s.pos]
		if !s.eat('"') || !s.eat(':') || (idx > 0 && bytes.Compare(prevKey, key) >= 0) {
			return false
		}
		prevKey = key
		valFrom := s.pos
		if !s.value(depth) {
			return false
		}
		if member != nil && !member(key, from, valFrom, s.pos, idx) {
			return false
		}
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

func (s *canonScanner) eat(c byte) bool {
	if s.pos < len(s.b) && s.b[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

func (s *canonScanner) value(depth int) bool {
	if s.pos >= len(s.b) {
		return false
	}
	switch c := s.b[s.pos]; {
	case c == '"':
		return s.str()
	case c == '{':
		return s.object(depth+1, nil)
	case c == '[':
		s.pos++
		if s.eat(']') {
			return true
		}
		for {
			if depth+1 > maxFastDepth || !s.value(depth+1) {
				return false
			}
			if s.eat(']') {
				return true
			}
			if !s.eat(',') {
				return false
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		p := parser{data: s.b, pos: s.pos}
		if _, err := p.number(); err != nil {
			return false
		}
		s.pos = p.pos
		return true
	}
	for _, lit := range []string{"true", "false", "null"} {
		if string(s.b[s.pos:min(s.pos+len(lit), len(s.b))]) == lit {
			s.pos += len(lit)
			return true
		}
	}
	return false
}

// str reads a string escaped exactly as writeJSString escapes it. Runs
// without escapes are found with bytes.IndexByte, which is vectorised.
func (s *canonScanner) str() bool {
	s.pos++ // the opening quote
	for {
		q := bytes.IndexByte(s.b[s.pos:], '"')
		if q < 0 {
			return false
		}
		run := s.b[s.pos : s.pos+q]
		bs := bytes.IndexByte(run, '\\')
		if bs >= 0 {
			run = run[:bs]
		}
		for _, c := range run {
			if c < 0x20 {
				return false
			}
		}
		if bs < 0 {
			s.pos += q + 1
			return true
		}
		s.pos += bs
		if !s.escape() {
			return false
		}
	}
}

// escape reads one escape at pos, as writeJSString writes it: the short
// forms, and \u00xx in lowercase for the other control characters only.
func (s *canonScanner) escape() bool {
	if s.pos+1 >= len(s.b) {
		return false
	}
	switch s.b[s.pos+1] {
	case '"', '\\', 'b', 'f', 'n', 'r', 't':
		s.pos += 2
		return true
	case 'u':
		if s.pos+6 > len(s.b) || s.b[s.pos+2] != '0' || s.b[s.pos+3] != '0' || (s.b[s.pos+4] != '0' && s.b[s.pos+4] != '1') {
			return false
		}
		lo := s.b[s.pos+5]
		v := 0
		switch {
		case lo >= '0' && lo <= '9':
			v = int(lo - '0')
		case lo >= 'a' && lo <= 'f':
			v = int(lo-'a') + 10
		default:
			return false
		}
		v += 16 * int(s.b[s.pos+4]-'0')
		if v == '\b' || v == '\t' || v == '\n' || v == '\f' || v == '\r' {
			return false // these have short forms
		}
		s.pos += 6
		return true
	}
	return false
}

// DecodeEntry is ParseEntry without the generic map, for readers that
// only show entries (`record log`): a canonical line whose members are
// all the typed fields, with plain values, is read straight into the
// Entry; any other line is read by ParseEntry, so the result is the same.
func DecodeEntry(line []byte) (Entry, error) {
	if e, ok := decodePlain(line); ok {
		return e, nil
	}
	e, _, err := ParseEntry(line)
	return e, err
}

func decodePlain(line []byte) (e Entry, ok bool) {
	if !utf8.Valid(line) {
		return e, false
	}
	s := canonScanner{b: line}
	if !s.object(0, func(key []byte, _, valFrom, valTo, _ int) bool {
		val := line[valFrom:valTo]
		if string(key) == "seq" {
			n, ok := plainSeq(val)
			e.Seq = n
			return ok
		}
		var p *string
		required := false
		switch string(key) { // no allocation: a switch on a converted []byte
		case "ts":
			p, required = &e.TS, true
		case "loop":
			p, required = &e.Loop, true
		case "kind":
			p, required = &e.Kind, true
		case "prev":
			p, required = &e.Prev, true
		case "hash":
			p, required = &e.Hash, true
		case "action":
			p = &e.Action
		case "target":
			p = &e.Target
		case "verdict":
			p = &e.Verdict
		case "rule":
			p = &e.Rule
		case "via":
			p = &e.Via
		case "loop_blob":
			p = &e.LoopBlob
		case "engine":
			p = &e.Engine
		case "saw":
			p = &e.Saw
		case "did":
			p = &e.Did
		case "skipped":
			p = &e.Skipped
		case "stopped":
			p = &e.Stopped
		case "note":
			p = &e.Note
		}
		v := plainString(val)
		if p == nil || v == nil || (len(v) == 0 && !required) {
			return false // an extra field, an escape, or an empty optional one (kept in Extra)
		}
		*p = string(v)
		return true
	}) || s.pos != len(line) || e.Seq == 0 {
		return Entry{}, false
	}
	return e, true
}
