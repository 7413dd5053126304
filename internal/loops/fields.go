package loops

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// topKeys are the frontmatter fields, in the order messages list them
// (spec "Frontmatter fields" plus the guide's triggers/goal/stop/budget).
var topKeys = []string{"name", "description", "version", "warrant", "reserved", "record", "triggers", "goal", "stop", "budget", "extends", "abstract", "examples"}

// decodeFrontmatter fills l from the frontmatter and returns the file line
// of `name`. Unknown and duplicate keys are errors: a misspelt `nevr:` must
// not silently drop a hard stop (docs/loop-format.md#the-warrant).
func decodeFrontmatter(path string, fm frontmatter, l *Loop) (int, error) {
	c := &checker{path: path, lines: fm.lines, off: fm.off, covered: map[int]bool{}, runes: map[int][]rune{}}
	root, err := c.parseYAML()
	if err != nil {
		return 0, err
	}
	if root == nil {
		return 0, c.errf(0, "frontmatter is empty: `name` is required", "add `name: <file name without .loop.md>`")
	}
	if err := c.node(root); err != nil {
		return 0, err
	}
	if root.Kind != yaml.MappingNode {
		return 0, c.errf(root.Line, "frontmatter must be fields of the form `key: value`",
			"start with `name: <loop name>`; allowed fields are "+strings.Join(topKeys, ", "))
	}
	nameLine := 0
	err = c.eachPair(root, topKeys, "field", func(key string, k, v *yaml.Node) error {
		if key == "name" {
			nameLine = k.Line + c.off
		}
		return c.field(key, v, l)
	})
	if err != nil {
		return 0, err
	}
	if err := c.checkCoverage(); err != nil {
		return 0, err
	}
	l.Warnings = c.warnings
	if nameLine == 0 {
		return 0, c.errf(0, "`name` is missing from the frontmatter", "add `name: <file name without .loop.md>`")
	}
	return nameLine, nil
}

// eachPair walks a block map, rejecting keys outside allowed, duplicates and
// non-scalar keys, and calls fn for each pair in file order.
func (c *checker) eachPair(m *yaml.Node, allowed []string, what string, fn func(key string, k, v *yaml.Node) error) error {
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if err := c.node(k); err != nil {
			return err
		}
		if k.Kind != yaml.ScalarNode {
			return c.errf(k.Line, "a key must be a plain word", "write `key: value` with one of: "+strings.Join(allowed, ", "))
		}
		key := k.Value
		if !contains(allowed, key) {
			hint := "use one of: " + strings.Join(allowed, ", ")
			if s := suggest(key, allowed); s != "" {
				hint = fmt.Sprintf("did you mean %q? Allowed: %s", s, strings.Join(allowed, ", "))
			}
			return c.errf(k.Line, fmt.Sprintf("unknown %s %q", what, key), hint)
		}
		if first, dup := seen[key]; dup {
			return c.errf(k.Line, fmt.Sprintf("%q appears twice (first on line %d)", key, first+c.off),
				"merge the two into one entry; YAML would otherwise keep only one of them")
		}
		seen[key] = k.Line
		if err := c.node(v); err != nil {
			return err
		}
		if err := fn(key, k, v); err != nil {
			return err
		}
	}
	return nil
}

// field decodes one top-level field into l.
func (c *checker) field(key string, v *yaml.Node, l *Loop) error {
	var err error
	switch key {
	case "name":
		l.Name, err = c.text(v, key)
		if err == nil && !ValidName(l.Name) {
			err = c.errf(v.Line, fmt.Sprintf("name %q is not a valid loop name", l.Name),
				"use lowercase letters, digits and dashes, starting with a letter or digit (e.g. insurance-appeal)")
		}
	case "description":
		l.Description, err = c.text(v, key)
	case "goal":
		l.Goal, err = c.text(v, key)
	case "stop":
		l.Stop, err = c.text(v, key)
	case "budget":
		l.Budget, err = c.text(v, key)
	case "version":
		l.Version, err = c.version(v)
	case "warrant":
		err = c.warrant(v, &l.Warrant)
	case "reserved":
		l.Reserved, err = c.list(v, key)
	case "record":
		l.Record, err = c.list(v, key)
	case "triggers":
		l.Triggers, err = c.list(v, key)
	case "extends", "abstract":
		err = c.inheritField(key, v, l) // inherit.go
	case "examples":
		l.Examples, err = c.examples(v)
	}
	return err
}

// version accepts only the integer 1: the spec says a version the tool does
// not understand is rejected, never silently misread.
func (c *checker) version(v *yaml.Node) (int, error) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!int" {
		var n int
		if err := v.Decode(&n); err == nil && n == SpecVersion {
			return n, nil
		}
	}
	shown := v.Value
	if v.Kind != yaml.ScalarNode {
		shown = "a " + kindName(v)
	} else if v.Tag == "!!null" {
		shown = "empty"
	}
	return 0, c.errf(v.Line, fmt.Sprintf("version %s is not understood: this gitwarrant reads loop file spec version %d only", shown, SpecVersion),
		fmt.Sprintf("write `version: %d` (or remove the line), or upgrade gitwarrant if the file was written for a newer spec", SpecVersion))
}

// warrant decodes the warrant map. An empty `warrant:` is an empty warrant,
// under which every action asks (spec rule 4).
func (c *checker) warrant(v *yaml.Node, w *Warrant) error {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		return c.errf(v.Line, "warrant must be a map of lists", "write `warrant:` then indented lines such as `  read: [policy documents]`")
	}
	return c.eachPair(v, Lists, "warrant list", func(key string, _, lv *yaml.Node) error {
		items, err := c.list(lv, "warrant."+key)
		if err == nil {
			err = c.checkTyped(items, "warrant."+key)
		}
		if err == nil {
			w.SetList(key, items)
		}
		return err
	})
}

// text decodes a one-line scalar field; null is the empty string.
func (c *checker) text(v *yaml.Node, field string) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", c.errf(v.Line, fmt.Sprintf("%s must be one line of text, not a %s", field, kindName(v)),
			fmt.Sprintf("write `%s: <text>` on one line", field))
	}
	if isNull(v) {
		return "", nil
	}
	return c.value(v, field)
}

// value returns a scalar's trimmed text, refusing control characters that a
// quoted escape (`"\n"`) could smuggle into compiled context.
func (c *checker) value(v *yaml.Node, field string) (string, error) {
	for _, r := range v.Value {
		if what := badRune(r); what != "" {
			return "", c.errf(v.Line, fmt.Sprintf("%s contains a control or invisible character (U+%04X)", field, r),
				"remove the escape sequence; values are one line of plain text")
		}
	}
	return strings.TrimSpace(v.Value), nil
}

// list decodes a list of scalars; null and [] are empty lists. Numbers and
// booleans are kept as the text written; a null or blank item is an error
// because it can only be a mistake.
func (c *checker) list(v *yaml.Node, field string) ([]Item, error) {
	if isNull(v) {
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, c.errf(v.Line, fmt.Sprintf("%s must be a list, not a %s", field, kindName(v)),
			fmt.Sprintf("write `%s: [first, second]`, or one `- item` per line below it", lastPart(field)))
	}
	flow := v.Style&yaml.FlowStyle != 0
	items := make([]Item, 0, len(v.Content))
	for _, it := range v.Content {
		if err := c.item(it, v, flow, field); err != nil {
			return nil, err
		}
		text, err := c.value(it, field+" item")
		if err != nil {
			return nil, err
		}
		items = append(items, Item{Text: text, Line: it.Line + c.off})
	}
	return items, nil
}

// item checks one list entry's shape.
func (c *checker) item(it, list *yaml.Node, flow bool, field string) error {
	if err := c.node(it); err != nil {
		return err
	}
	switch {
	case it.Kind == yaml.MappingNode:
		return c.errf(it.Line, fmt.Sprintf("%s holds a map; lists of maps are not allowed in a loop file", field),
			"write each entry as plain text (`- contacting the insurer`); quote it if it contains `: `")
	case it.Kind == yaml.SequenceNode:
		return c.errf(it.Line, fmt.Sprintf("%s holds a nested list; lists must contain text only", field),
			"flatten the entries into one list")
	case flow && it.Line != list.Line:
		return c.errf(it.Line, fmt.Sprintf("flow list %s spans more than one line", field),
			"keep `[a, b]` on one line, or write one `- item` per line")
	case isNull(it) || strings.TrimSpace(it.Value) == "":
		return c.errf(it.Line, fmt.Sprintf("%s has an empty item", field),
			"delete the empty `-` entry, or write the text it should hold")
	}
	return nil
}

func isNull(v *yaml.Node) bool {
	return v.Kind == yaml.ScalarNode && v.Tag == "!!null" && v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0
}

func kindName(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		return "map"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "single value"
	}
	return "YAML node"
}

func lastPart(field string) string {
	return field[strings.LastIndex(field, ".")+1:]
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// suggest returns the allowed key nearest to key when it is close enough to
// be a misspelling (`nevr` → `never`), else "".
func suggest(key string, allowed []string) string {
	k := strings.ToLower(strings.TrimSpace(key))
	best, bestD := "", 1<<30
	for _, a := range allowed {
		d := editDistance(k, a)
		if d < bestD {
			best, bestD = a, d
		}
	}
	limit := 2
	if len(k) <= 3 {
		limit = 1
	}
	if bestD <= limit {
		return best
	}
	for _, a := range allowed {
		if len(k) >= 3 && (strings.HasPrefix(a, k) || strings.HasPrefix(k, a)) {
			return a
		}
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, by rune.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
