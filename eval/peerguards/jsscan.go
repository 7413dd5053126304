package peerguards

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsTok is one token of a TypeScript test file: enough of the language to
// find calls, their string arguments and their bracket structure.
type jsTok struct {
	kind   byte   // 'i' identifier or keyword, 's' string, 'n' number, 'p' punctuation
	text   string // the source text (for 's', the decoded value)
	interp bool   // a template literal with ${…}: its value is built at run time
	line   int
}

// jsScan tokenizes src, skipping comments, regular expression literals and
// template interpolations' structure (an interpolated template is one
// token marked interp).
func jsScan(src string) ([]jsTok, error) {
	var toks []jsTok
	line := 1
	i := 0
	prevSignificant := func() jsTok {
		if len(toks) == 0 {
			return jsTok{kind: 'p', text: "("}
		}
		return toks[len(toks)-1]
	}
	for i < len(src) {
		ch := src[i]
		switch {
		case ch == '\n':
			line++
			i++
		case ch == ' ' || ch == '\t' || ch == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("line %d: unterminated comment", line)
			}
			line += strings.Count(src[i:i+2+end+2], "\n")
			i += 2 + end + 2
		case ch == '\'' || ch == '"' || ch == '`':
			val, interp, n, err := jsString(src[i:])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			toks = append(toks, jsTok{kind: 's', text: val, interp: interp, line: line})
			line += strings.Count(src[i:i+n], "\n")
			i += n
		case ch == '/' && regexAllowed(prevSignificant()):
			n, err := jsRegex(src[i:])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			toks = append(toks, jsTok{kind: 'p', text: "regex", line: line})
			i += n
		case isIdentStart(ch):
			j := i
			for j < len(src) && (isIdentStart(src[j]) || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			toks = append(toks, jsTok{kind: 'i', text: src[i:j], line: line})
			i = j
		case ch >= '0' && ch <= '9':
			j := i
			for j < len(src) && (isIdentStart(src[j]) || src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
				j++
			}
			toks = append(toks, jsTok{kind: 'n', text: src[i:j], line: line})
			i = j
		default:
			if ch >= utf8.RuneSelf {
				_, n := utf8.DecodeRuneInString(src[i:])
				i += n
				continue
			}
			toks = append(toks, jsTok{kind: 'p', text: string(ch), line: line})
			i++
		}
	}
	return toks, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// regexAllowed says whether a '/' after prev starts a regular expression
// literal rather than a division.
func regexAllowed(prev jsTok) bool {
	switch prev.kind {
	case 's', 'n':
		return false
	case 'i':
		switch prev.text {
		case "return", "typeof", "case", "in", "of", "new", "delete", "void", "throw", "else", "do":
			return true
		}
		return false
	}
	return prev.text != ")" && prev.text != "]" && prev.text != "}"
}

func jsRegex(s string) (int, error) {
	inClass := false
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				j := i + 1
				for j < len(s) && isIdentStart(s[j]) {
					j++
				}
				return j, nil
			}
		case '\n':
			return 0, fmt.Errorf("unterminated regular expression")
		}
	}
	return 0, fmt.Errorf("unterminated regular expression")
}

// jsString decodes the string literal at the start of s and returns its
// value, whether it interpolates, and its length in s.
func jsString(s string) (string, bool, int, error) {
	q := s[0]
	var b strings.Builder
	interp := false
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), interp, i + 1, nil
		case c == '\n' && q != '`':
			return "", false, 0, fmt.Errorf("unterminated string")
		case c == '$' && q == '`' && i+1 < len(s) && s[i+1] == '{':
			interp = true
			depth := 0
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == '{' {
					depth++
				} else if s[j] == '}' {
					depth--
					if depth == 0 {
						break
					}
				} else if s[j] == '\'' || s[j] == '"' || s[j] == '`' {
					_, _, n, err := jsString(s[j:])
					if err != nil {
						return "", false, 0, err
					}
					j += n - 1
				}
			}
			b.WriteString(s[i : j+1])
			i = j
		case c == '\\':
			i++
			if i >= len(s) {
				return "", false, 0, fmt.Errorf("unterminated escape")
			}
			n, err := jsEscape(&b, s[i:])
			if err != nil {
				return "", false, 0, err
			}
			i += n - 1
		default:
			b.WriteByte(c)
		}
	}
	return "", false, 0, fmt.Errorf("unterminated string")
}

// jsEscape writes the character escaped by the text after a backslash and
// returns how many bytes the escape used.
func jsEscape(b *strings.Builder, s string) (int, error) {
	switch s[0] {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case '0':
		b.WriteByte(0)
	case '\n':
		// a line continuation
	case 'x':
		if len(s) < 3 {
			return 0, fmt.Errorf("short \\x escape")
		}
		r, err := strconv.ParseUint(s[1:3], 16, 8)
		if err != nil {
			return 0, fmt.Errorf("bad \\x escape")
		}
		b.WriteRune(rune(r))
		return 3, nil
	case 'u':
		if strings.HasPrefix(s, "u{") {
			end := strings.IndexByte(s, '}')
			if end < 0 {
				return 0, fmt.Errorf("bad \\u{} escape")
			}
			r, err := strconv.ParseUint(s[2:end], 16, 32)
			if err != nil {
				return 0, fmt.Errorf("bad \\u{} escape")
			}
			b.WriteRune(rune(r))
			return end + 1, nil
		}
		if len(s) < 5 {
			return 0, fmt.Errorf("short \\u escape")
		}
		r, err := strconv.ParseUint(s[1:5], 16, 16)
		if err != nil {
			return 0, fmt.Errorf("bad \\u escape")
		}
		b.WriteRune(rune(r))
		return 5, nil
	default:
		r, n := utf8.DecodeRuneInString(s)
		b.WriteRune(r)
		return n, nil
	}
	return 1, nil
}
