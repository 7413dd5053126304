package warrantdiff

import (
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"gopkg.in/yaml.v3"
)

// A loop's `examples:` (docs/signing.md#the-warrant-diff) state calls the
// warrant must decide as written; `lint` and `check --examples` replay
// them. A deny example removed or changed no longer holds the warrant to
// that hard stop, so it is a widening; an added one is a narrowing. When
// both sides load, the examples are the loaded loops' (no second parse);
// when either does not, they are read from each frontmatter's YAML
// directly, so the diff sees them whatever else the file holds.

// denyExamples returns the `examples: deny:` items of a loop file.
func denyExamples(b []byte) []loops.Item {
	fm := frontmatter(b)
	if fm == nil {
		return nil
	}
	var doc yaml.Node
	// frontmatter(b) starts after the opening `---` line's text: skip
	// to the first newline so node lines count from the file's line 2.
	body := fm[strings.IndexByte(string(fm), '\n')+1:]
	if yaml.Unmarshal(body, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	ex := mapValueNode(doc.Content[0], "examples")
	if ex == nil {
		return nil
	}
	deny := mapValueNode(ex, "deny")
	if deny == nil || deny.Kind != yaml.SequenceNode {
		return nil
	}
	var out []loops.Item
	for _, it := range deny.Content {
		if it.Kind == yaml.ScalarNode {
			out = append(out, loops.Item{Text: strings.TrimSpace(it.Value), Line: it.Line + 1})
		}
	}
	return out
}

func mapValueNode(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// parsedDeny returns the deny examples of a loop that loaded: the same
// items denyExamples reads from the file's YAML, without parsing it again.
func parsedDeny(l *loops.Loop) []loops.Item {
	var out []loops.Item
	for _, e := range l.Examples {
		if e.Expect == loops.Deny {
			out = append(out, loops.Item{Text: e.Text, Line: e.Line})
		}
	}
	return out
}

// loopExampleChanges compares name's deny examples between base and head:
// from the parsed loops when both loaded (the examples `lint` and `check
// --examples` replay), else from each file's YAML.
func loopExampleChanges(base, head *Snapshot, name string) []Change {
	if bl, hl := base.Loop(name), head.Loop(name); bl != nil && hl != nil {
		return examplesDiff(name, parsedDeny(bl), parsedDeny(hl))
	}
	bb, _ := base.bytesOf(name)
	hb, _ := head.bytesOf(name)
	return exampleChanges(name, bb, hb)
}

// exampleChanges compares a loop file's deny examples.
func exampleChanges(name string, base, head []byte) []Change {
	return examplesDiff(name, denyExamples(base), denyExamples(head))
}

func examplesDiff(name string, base, head []loops.Item) []Change {
	removed, added := multisetDiff(base, head)
	var out []Change
	for _, it := range removed {
		out = append(out, Change{Loop: name, List: "examples.deny", Op: OpRemove, Entry: it.Text, Line: it.Line, Kind: Widening,
			Why: "a deny example no longer holds the warrant to this hard stop"})
	}
	for _, it := range added {
		out = append(out, Change{Loop: name, List: "examples.deny", Op: OpAdd, Entry: it.Text, Line: it.Line, Kind: Narrowing,
			Why: "a new deny example the warrant must hold to"})
	}
	return out
}
