package chain

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// requiredStrings are the string fields every entry carries (spec "The
// record"); Fields always writes them, even when empty.
var requiredStrings = []string{"ts", "loop", "kind", "prev"}

// optionalStrings are the typed string fields written only when non-empty.
var optionalStrings = []string{
	"action", "target", "verdict", "rule", "via", "loop_blob", "engine",
	"saw", "did", "skipped", "stopped", "note",
}

// stringField returns a pointer to e's typed field for a known string key,
// or nil for any other key.
func (e *Entry) stringField(key string) *string {
	switch key {
	case "ts":
		return &e.TS
	case "loop":
		return &e.Loop
	case "kind":
		return &e.Kind
	case "action":
		return &e.Action
	case "target":
		return &e.Target
	case "verdict":
		return &e.Verdict
	case "rule":
		return &e.Rule
	case "via":
		return &e.Via
	case "loop_blob":
		return &e.LoopBlob
	case "engine":
		return &e.Engine
	case "saw":
		return &e.Saw
	case "did":
		return &e.Did
	case "skipped":
		return &e.Skipped
	case "stopped":
		return &e.Stopped
	case "note":
		return &e.Note
	case "prev":
		return &e.Prev
	case "hash":
		return &e.Hash
	}
	return nil
}

// Fields returns the entry as the generic map that is hashed and written:
// every field except hash, optional strings only when non-empty, merged with
// Extra. A typed field wins over an Extra key of the same name; an Extra key
// fills a known optional field only when the typed one is empty (that is how
// ParseEntry keeps a line's `"rule":null` or `"rule":""` hashable).
func (e Entry) Fields() map[string]any {
	m := make(map[string]any, len(e.Extra)+8)
	for k, v := range e.Extra {
		m[k] = v
	}
	delete(m, "hash")
	m["seq"] = e.Seq
	for _, k := range requiredStrings {
		m[k] = *e.stringField(k)
	}
	for _, k := range optionalStrings {
		if v := *e.stringField(k); v != "" {
			m[k] = v
		}
	}
	return m
}

// ParseEntry decodes one record line (without its newline). It returns the
// typed entry and the line's own generic map, including hash; the hash of a
// line is always computed from that map, never from the typed struct, so
// fields written by docket or a later version are covered (spec "The hash
// chain").
//
// The line must be valid UTF-8 and exactly one JSON object with no
// duplicate keys (a duplicate would let a reader see a value the hash does
// not cover). seq must be a positive integer; a known string field of
// another type is an error, except that optional fields may be null.
func ParseEntry(line []byte) (Entry, map[string]any, error) {
	if !utf8.Valid(line) {
		return Entry{}, nil, errors.New("line is not valid UTF-8")
	}
	m, err := decodeObject(line)
	if err != nil {
		return Entry{}, nil, err
	}
	e, err := entryFromMap(m)
	if err != nil {
		return Entry{}, nil, err
	}
	return e, m, nil
}

func entryFromMap(m map[string]any) (Entry, error) {
	var e Entry
	seq, ok := m["seq"]
	if !ok {
		return Entry{}, errors.New(`missing "seq"`)
	}
	n, ok := seq.(json.Number)
	v, err := strconv.ParseInt(string(n), 10, 64)
	if !ok || err != nil || v < 1 {
		return Entry{}, fmt.Errorf(`"seq" must be a positive integer, found %s`, describe(seq))
	}
	e.Seq = v
	for k, val := range m {
		if k == "seq" {
			continue
		}
		p := e.stringField(k)
		if p == nil {
			e.addExtra(k, val)
			continue
		}
		s, isString := val.(string)
		optional := k != "hash" && !isRequired(k)
		switch {
		case isString && (s != "" || !optional):
			*p = s
		case optional && (isString || val == nil):
			e.addExtra(k, val) // keeps "" and null in the hashed fields
		default:
			return Entry{}, fmt.Errorf("%q must be a string, found %s", k, describe(val))
		}
	}
	return e, nil
}

func (e *Entry) addExtra(k string, v any) {
	if e.Extra == nil {
		e.Extra = make(map[string]any)
	}
	e.Extra[k] = v
}

func isRequired(k string) bool {
	for _, r := range requiredStrings {
		if r == k {
			return true
		}
	}
	return false
}

// describe names a decoded JSON value for an error message.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}

// Seal computes e's hash from its own fields and Prev (Seq, Prev and TS
// must already be set) and returns the canonical line, without its
// newline, and e with Hash filled in.
func Seal(e Entry) ([]byte, Entry, error) {
	fields := e.Fields()
	hash, err := ComputeHash(e.Prev, fields)
	if err != nil {
		return nil, Entry{}, err
	}
	e.Hash = hash
	fields["hash"] = hash
	line, err := Canonical(fields)
	if err != nil {
		return nil, Entry{}, err
	}
	return line, e, nil
}

// ComputeHash returns "sha256:" + hex(SHA256(prev + "\n" + canonical(fields)))
// per the spec ("The hash chain"): prev is the previous entry's hash
// (Genesis for the first) and fields is the entry without its hash. A "hash"
// key in fields is ignored. Note the entry's own prev field is also inside
// fields, exactly as the spec's formula has it.
func ComputeHash(prev string, fields map[string]any) (string, error) {
	var buf bytes.Buffer
	buf.Grow(len(prev) + 512)
	buf.WriteString(prev)
	buf.WriteByte('\n')
	if err := writeObject(&buf, fields, "hash", 0); err != nil {
		return "", err
	}
	sum := sha256.Sum256(buf.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}
