package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// field is one member of a JSON object, kept in input order so the human
// part of an MCP call reads in the order its author wrote it.
type field struct {
	key string
	raw json.RawMessage
}

// object is a decoded tool_input.
type object []field

// parseObject decodes a JSON object into its members in order. A null or
// absent tool_input is an empty object: whether that is acceptable is for
// the tool's mapping to say (a Bash call without a command is not).
func parseObject(raw json.RawMessage) (object, error) {
	if len(bytes.TrimSpace(raw)) == 0 || isNull(raw) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, errors.New("tool_input is not a JSON object")
	}
	var obj object
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("tool_input: %v", err)
		}
		key, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("tool_input.%s: %v", key, err)
		}
		obj = append(obj, field{key, v})
	}
	return obj, nil
}

// get returns the raw value of the last member called key (the one
// encoding/json would keep), or nil.
func (o object) get(key string) json.RawMessage {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].key == key {
			return o[i].raw
		}
	}
	return nil
}

// str returns a string member. A member that is present but not a string is
// an error; an absent or null one is ("", false, nil).
func (o object) str(tool, key string) (string, bool, error) {
	raw := o.get(key)
	if raw == nil || isNull(raw) {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("%s: tool_input.%s must be a string, got %s", tool, key, kindOf(raw))
	}
	return s, true, nil
}

// need returns a required, non-blank string member.
func (o object) need(tool, key string) (string, error) {
	s, ok, err := o.str(tool, key)
	if err != nil {
		return "", err
	}
	if !ok || strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("%s: tool_input.%s is missing or empty, so the call cannot be checked", tool, key)
	}
	return s, nil
}

func kindOf(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// Limits of the human part of an MCP or unknown tool's arguments. They keep
// a target readable in the record; a target that hit them is marked, and the
// CLI never lets a marked target be allowed (the cut-off text might hold
// what a never entry would have caught).
const (
	maxValueRunes  = 300
	maxHumanRunes  = 1200
	maxHumanDepth  = 8
	TruncationMark = " …[truncated]"
)

// Truncated reports whether a target was cut short by Map.
func Truncated(target string) bool { return strings.HasSuffix(target, TruncationMark) }

// human collects the string values of an object, depth first and in key
// order, with whitespace collapsed: the part of a call a person would read.
// Numbers and booleans carry no words a warrant pattern could name.
func (o object) human() string {
	var h humanText
	for _, f := range o {
		h.add(f.raw, 0)
	}
	return h.String()
}

type humanText struct {
	parts     []string
	runes     int
	truncated bool
}

func (h *humanText) add(raw json.RawMessage, depth int) {
	if depth > maxHumanDepth {
		h.truncated = true
		return
	}
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return
	}
	switch t[0] {
	case '"':
		var s string
		if json.Unmarshal(t, &s) == nil {
			h.addString(s)
		}
	case '{':
		obj, err := parseObject(t)
		if err == nil {
			for _, f := range obj {
				h.add(f.raw, depth+1)
			}
		}
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(t, &items) == nil {
			for _, it := range items {
				h.add(it, depth+1)
			}
		}
	}
}

func (h *humanText) addString(s string) {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return
	}
	if h.runes >= maxHumanRunes {
		h.truncated = true
		return
	}
	limit := min(maxValueRunes, maxHumanRunes-h.runes)
	if utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit])
		h.truncated = true
	}
	h.parts = append(h.parts, s)
	h.runes += utf8.RuneCountInString(s) + 1
}

func (h *humanText) String() string {
	s := strings.Join(h.parts, " ")
	if h.truncated {
		s += TruncationMark
	}
	return s
}
