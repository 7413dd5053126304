package chain

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeObject parses data as exactly one JSON object (RFC 8259), keeping
// numbers as json.Number literals. It is a small strict parser rather than
// encoding/json because verification must be fast (the pre-commit hook
// verifies every chain, docs/design.md#the-record) and stricter than encoding/json:
//
//   - a duplicate key at any level is an error: a reader would see one value
//     while the hash covers another;
//   - a lone UTF-16 surrogate escape is an error: encoding/json turns it into
//     U+FFFD, which would hash differently from docket's JavaScript.
//
// data must already be valid UTF-8 (ParseEntry checks).
func decodeObject(data []byte) (map[string]any, error) {
	p := &parser{data: data}
	p.skipSpace()
	if !p.eat('{') {
		return nil, p.fail("expected a JSON object")
	}
	m, err := p.object(1)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.fail("text after the JSON object")
	}
	return m, nil
}

type parser struct {
	data []byte
	pos  int
}

func (p *parser) fail(msg string) error {
	return fmt.Errorf("invalid JSON at byte %d: %s", p.pos+1, msg)
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// eat consumes c if it is next.
func (p *parser) eat(c byte) bool {
	if p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// object parses members after the opening brace.
func (p *parser) object(depth int) (map[string]any, error) {
	m := make(map[string]any)
	p.skipSpace()
	if p.eat('}') {
		return m, nil
	}
	for {
		p.skipSpace()
		keyAt := p.pos
		if !p.eat('"') {
			return nil, p.fail(`expected a string key`)
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if _, dup := m[key]; dup {
			p.pos = keyAt
			return nil, p.fail(fmt.Sprintf("duplicate key %q", key))
		}
		p.skipSpace()
		if !p.eat(':') {
			return nil, p.fail(`expected ":"`)
		}
		if m[key], err = p.value(depth); err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.eat('}') {
			return m, nil
		}
		if !p.eat(',') {
			return nil, p.fail(`expected "," or "}"`)
		}
	}
}

func (p *parser) array(depth int) ([]any, error) {
	a := []any{}
	p.skipSpace()
	if p.eat(']') {
		return a, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.skipSpace()
		if p.eat(']') {
			return a, nil
		}
		if !p.eat(',') {
			return nil, p.fail(`expected "," or "]"`)
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.fail(fmt.Sprintf("nesting deeper than %d levels", maxDepth))
	}
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end of line")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		p.pos++
		return p.object(depth + 1)
	case c == '[':
		p.pos++
		return p.array(depth + 1)
	case c == '"':
		p.pos++
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range []struct {
		text string
		val  any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if strings.HasPrefix(string(p.data[p.pos:min(p.pos+5, len(p.data))]), lit.text) {
			p.pos += len(lit.text)
			return lit.val, nil
		}
	}
	return nil, p.fail("expected a value")
}

// number scans a JSON number and returns its literal text.
func (p *parser) number() (json.Number, error) {
	start := p.pos
	p.eat('-')
	if !p.eat('0') && p.digits() == 0 {
		return "", p.fail("expected a digit")
	}
	if p.eat('.') && p.digits() == 0 {
		return "", p.fail("expected a digit after the decimal point")
	}
	if p.eat('e') || p.eat('E') {
		_ = p.eat('+') || p.eat('-')
		if p.digits() == 0 {
			return "", p.fail("expected a digit in the exponent")
		}
	}
	return json.Number(p.data[start:p.pos]), nil
}

func (p *parser) digits() int {
	n := 0
	for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
		p.pos++
		n++
	}
	return n
}

// str parses a string after its opening quote.
func (p *parser) str() (string, error) {
	start := p.pos
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == '"':
			s := string(p.data[start:p.pos])
			p.pos++
			return s, nil
		case c == '\\':
			return p.strEscaped(start)
		case c < 0x20:
			return "", p.fail("control character in string")
		}
		p.pos++
	}
	return "", p.fail("unterminated string")
}

// strEscaped finishes a string that contains escapes.
func (p *parser) strEscaped(start int) (string, error) {
	var b strings.Builder
	b.Write(p.data[start:p.pos])
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail("control character in string")
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		r, err := p.escape()
		if err != nil {
			return "", err
		}
		b.WriteRune(r)
	}
	return "", p.fail("unterminated string")
}

var simpleEscapes = map[byte]rune{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape decodes one escape sequence at p.pos (the backslash).
func (p *parser) escape() (rune, error) {
	if p.pos+1 >= len(p.data) {
		return 0, p.fail("unterminated escape")
	}
	if r, ok := simpleEscapes[p.data[p.pos+1]]; ok {
		p.pos += 2
		return r, nil
	}
	r, ok := p.hex4()
	if !ok {
		return 0, p.fail("invalid escape")
	}
	if !utf16.IsSurrogate(r) {
		return r, nil
	}
	if lo, ok := p.hex4(); ok && r < 0xdc00 {
		if pair := utf16.DecodeRune(r, lo); pair != utf8.RuneError {
			return pair, nil
		}
	}
	return 0, p.fail("lone UTF-16 surrogate escape; it has no UTF-8 form")
}

// hex4 decodes a \uXXXX escape at p.pos.
func (p *parser) hex4() (rune, bool) {
	if p.pos+6 > len(p.data) || p.data[p.pos] != '\\' || p.data[p.pos+1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.data[p.pos+2:p.pos+6]), 16, 16)
	if err != nil {
		return 0, false
	}
	p.pos += 6
	return rune(v), true
}
