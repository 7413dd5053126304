package chain

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Canonical returns v as canonical JSON, the form the hash covers (spec "The
// hash chain", docs/design.md#the-record): object keys sorted at every level, no insignificant
// whitespace.
//
// Where the spec says only "lexicographically sorted" and "JSON", Canonical
// reproduces what docket (Node) computes with JSON.stringify over sorted
// keys, so that a record written by docket verifies here byte for byte:
//
//   - Keys sort by UTF-16 code units, as JavaScript's default Array sort
//     does. For ASCII keys (every key either tool writes) this is the same
//     as byte order; it differs from UTF-8 byte order only when a key mixes
//     characters above U+FFFF with characters in U+E000–U+FFFF.
//   - Strings escape only `"`, `\` and control characters below U+0020
//     (\b \f \n \r \t, the rest as \u00xx in lowercase hex). `<`, `>`, `&`,
//     U+2028 and U+2029 stay literal. Invalid UTF-8 is an error, since no
//     JavaScript string corresponds to it.
//   - json.Number keeps its literal text (decode with UseNumber so a parsed
//     number is hashed as written); Go integers print in decimal; float64
//     prints as JavaScript's Number#toString does.
//
// Supported values are map[string]any, []any, string, json.Number, bool, nil
// and the Go integer and float types; anything else is first passed through
// encoding/json and canonicalised from the result.
func Canonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(512)
	if err := writeCanonical(&buf, v, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 512

func writeCanonical(buf *bytes.Buffer, v any, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("canonical JSON: nesting deeper than %d levels; flatten the value", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(x))
	case string:
		return writeJSString(buf, x)
	case json.Number:
		if !isJSONNumber(string(x)) {
			return fmt.Errorf("canonical JSON: %q is not a JSON number; pass a valid number", string(x))
		}
		buf.WriteString(string(x))
	case int:
		buf.WriteString(strconv.FormatInt(int64(x), 10))
	case int64:
		buf.WriteString(strconv.FormatInt(x, 10))
	case int32:
		buf.WriteString(strconv.FormatInt(int64(x), 10))
	case uint64:
		buf.WriteString(strconv.FormatUint(x, 10))
	case float64:
		return writeJSFloat(buf, x)
	case map[string]any:
		return writeObject(buf, x, "", depth)
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeCanonical(buf, e, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	default:
		return writeViaJSON(buf, v, depth)
	}
	return nil
}

// writeObject writes m with sorted keys, leaving out the key skip (so the
// hash can cover an entry minus its hash without copying the map).
func writeObject(buf *bytes.Buffer, m map[string]any, skip string, depth int) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != skip || skip == "" {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, compareUTF16)
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := writeJSString(buf, k); err != nil {
			return err
		}
		buf.WriteByte(':')
		if err := writeCanonical(buf, m[k], depth+1); err != nil {
			return err
		}
	}
	buf.WriteByte('}')
	return nil
}

// writeViaJSON canonicalises a value of any other type (a struct, a
// []string, a map[string]string) by round-tripping it through encoding/json.
func writeViaJSON(buf *bytes.Buffer, v any, depth int) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("canonical JSON: cannot encode %T: %v", v, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return fmt.Errorf("canonical JSON: cannot re-read %T: %v", v, err)
	}
	return writeCanonical(buf, generic, depth)
}

// compareUTF16 orders strings by UTF-16 code units, like JavaScript's sort.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua == ub { // both above U+FFFF with one high surrogate
				return cmp.Compare(ra, rb)
			}
			return cmp.Compare(ua, ub)
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

// firstUnit is the first UTF-16 code unit of r: r itself, or its high
// surrogate when r is above U+FFFF.
func firstUnit(r rune) rune {
	if r < 0x10000 {
		return r
	}
	hi, _ := utf16.EncodeRune(r)
	return hi
}

const hexDigits = "0123456789abcdef"

// writeJSString writes s quoted exactly as JSON.stringify quotes it.
func writeJSString(buf *bytes.Buffer, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("canonical JSON: string %q is not valid UTF-8; re-encode it as UTF-8", s)
	}
	buf.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf.WriteString(s[start:i])
		switch c {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\b':
			buf.WriteString(`\b`)
		case '\f':
			buf.WriteString(`\f`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		default:
			buf.WriteString(`\u00`)
			buf.WriteByte(hexDigits[c>>4])
			buf.WriteByte(hexDigits[c&0xf])
		}
		start = i + 1
	}
	buf.WriteString(s[start:])
	buf.WriteByte('"')
	return nil
}

// writeJSFloat writes f as JavaScript's Number#toString does: shortest
// round-trip digits, plain notation for 1e-6 <= |f| < 1e21, otherwise
// exponent notation without a leading zero in the exponent ("1.5e-7", "1e+21").
func writeJSFloat(buf *bytes.Buffer, f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("canonical JSON: %v has no JSON form; use a finite number", f)
	}
	if f == 0 {
		buf.WriteByte('0') // JSON.stringify(-0) is "0"
		return nil
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		buf.WriteString(strconv.FormatFloat(f, 'f', -1, 64))
		return nil
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // e.g. 1e-07, 1.5e+21
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[:1]
	exp = strings.TrimLeft(exp[1:], "0")
	buf.WriteString(mant + "e" + sign + exp)
	return nil
}

// isJSONNumber reports whether s is a number in JSON's grammar.
func isJSONNumber(s string) bool {
	p := &parser{data: []byte(s)}
	_, err := p.number()
	return err == nil && p.pos == len(s)
}
