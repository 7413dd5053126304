package peerguards

import (
	"fmt"
	"strconv"
	"strings"
)

// DCG reads destructive_command_guard's regression corpus: every
// `[[case]]` of tests/corpus/**/*.toml with its `command` and its expected
// decision (`expected`, or `expected_decision` in canonical.toml): deny is
// Block, allow is Allow. Cases whose input is a raw hook payload instead of
// a command (`input_kind = "hook_json"`) are skipped: they test the
// peer's payload parsing, not a command.
func DCG(s *Source) (*Corpus, error) {
	c := &Corpus{Peer: "destructive_command_guard", Repository: "https://github.com/Dicklesworthstone/destructive_command_guard", Commit: s.Commit(), License: "MIT"}
	files, err := s.Files("tests/corpus", ".toml")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		text, err := s.Read(f)
		if err != nil {
			return nil, err
		}
		c.Paths = append(c.Paths, f)
		if err := dcgFile(c, f, text); err != nil {
			return nil, err
		}
	}
	c.Cases = dedupe(c.Cases)
	return c, nil
}

// dcgFile reads the cases of one corpus file. The corpus uses a small
// part of TOML: `[[case]]` headers and `key = "basic string"` lines (inline
// tables, which hold only log expectations, are not read).
func dcgFile(c *Corpus, f, text string) error {
	type rawCase struct {
		fields map[string]string
		line   int // the command's line
		at     int // the header's line
	}
	var cur *rawCase
	flush := func() error {
		if cur == nil {
			return nil
		}
		defer func() { cur = nil }()
		where := fmt.Sprintf("%s:%d", f, cur.at)
		if cur.fields["input_kind"] == "hook_json" {
			c.Skipped = append(c.Skipped, Skipped{Source: where, Why: "a raw hook payload, not a command"})
			return nil
		}
		cmd, ok := cur.fields["command"]
		if !ok {
			return fmt.Errorf("%s: a case without a command", where)
		}
		exp := cur.fields["expected"]
		if exp == "" {
			exp = cur.fields["expected_decision"]
		}
		var v string
		switch exp {
		case "deny":
			v = Block
		case "allow":
			v = Allow
		default:
			return fmt.Errorf("%s: unknown expected decision %q", where, exp)
		}
		c.Cases = append(c.Cases, Case{Command: cmd, Verdict: v, Source: fmt.Sprintf("%s:%d", f, cur.line)})
		return nil
	}
	for i, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "" || strings.HasPrefix(t, "#"):
			continue
		case t == "[[case]]":
			if err := flush(); err != nil {
				return err
			}
			cur = &rawCase{fields: map[string]string{}, at: i + 1}
			continue
		case strings.HasPrefix(t, "["):
			// a sub-table such as [case.log]: its keys are not the case's
			continue
		}
		if cur == nil {
			continue
		}
		key, val, ok := strings.Cut(t, "=")
		if !ok {
			return fmt.Errorf("%s:%d: not a key = value line", f, i+1)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !strings.HasPrefix(val, `"`) {
			continue // numbers, booleans, inline tables: not read
		}
		s, err := tomlBasicString(val)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", f, i+1, err)
		}
		cur.fields[key] = s
		if key == "command" {
			cur.line = i + 1
		}
	}
	return flush()
}

// tomlBasicString decodes a one-line TOML basic string at the start of v
// (anything after its closing quote, such as a comment, is ignored).
func tomlBasicString(v string) (string, error) {
	if strings.HasPrefix(v, `"""`) {
		return "", fmt.Errorf("multi-line strings are not read: %s", v)
	}
	var b strings.Builder
	for i := 1; i < len(v); i++ {
		ch := v[i]
		switch ch {
		case '"':
			return b.String(), nil
		case '\\':
			i++
			if i >= len(v) {
				return "", fmt.Errorf("unterminated escape: %s", v)
			}
			switch v[i] {
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
			case 'e':
				b.WriteByte(0x1b)
			case '"', '\\':
				b.WriteByte(v[i])
			case 'u', 'U':
				n := 4
				if v[i] == 'U' {
					n = 8
				}
				if i+n >= len(v) {
					return "", fmt.Errorf("short unicode escape: %s", v)
				}
				r, err := strconv.ParseUint(v[i+1:i+1+n], 16, 32)
				if err != nil {
					return "", fmt.Errorf("bad unicode escape: %s", v)
				}
				b.WriteRune(rune(r))
				i += n
			default:
				return "", fmt.Errorf("unknown escape \\%c: %s", v[i], v)
			}
		default:
			b.WriteByte(ch)
		}
	}
	return "", fmt.Errorf("unterminated string: %s", v)
}
