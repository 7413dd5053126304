package loops

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// AmendLists are the lists an amend may change: the six warrant lists and
// the top-level reserved list.
var AmendLists = append(slices.Clone(Lists), "reserved")

// ItemsOf returns the entries of an amendable list (a warrant list or
// "reserved"), or false for any other name.
func (l *Loop) ItemsOf(list string) ([]Item, bool) {
	if list == "reserved" {
		return l.Reserved, true
	}
	if !slices.Contains(Lists, list) {
		return nil, false
	}
	return l.Warrant.List(list), true
}

// EditList returns src with entry added to (or, with remove, taken out of)
// list by the smallest text change (docs/signing.md#amending-a-loop-file): a
// flow list stays one line and changes on that line; a block list gains or
// loses one `- entry` line; comments, order, quoting and line endings are
// kept. The result is parsed again and must hold exactly the old list plus
// or minus the entry, so an edit can never mean more than it says. It is a
// pure function of its inputs.
func EditList(path string, src []byte, list, entry string, remove bool) ([]byte, error) {
	entry = strings.TrimSpace(entry)
	if entry == "" {
		return nil, &Error{File: path, Msg: "the entry is empty", Hint: "say what the entry allows or stops, e.g. \"push to release/*\""}
	}
	before, err := Parse(path, src)
	if err != nil {
		return nil, err
	}
	old, ok := before.ItemsOf(list)
	if !ok {
		return nil, &Error{File: path, Msg: fmt.Sprintf("%q is not a list an amend can change", list), Hint: "use one of " + strings.Join(AmendLists, ", ")}
	}
	at := slices.IndexFunc(old, func(it Item) bool { return it.Text == entry })
	switch {
	case remove && at < 0:
		return nil, &Error{File: path, Msg: fmt.Sprintf("%s has no entry %q", list, entry), Hint: "entries are: " + quoteAll(Texts(old))}
	case !remove && at >= 0:
		return nil, &Error{File: path, Line: old[at].Line, Msg: fmt.Sprintf("%s already holds %q", list, entry), Hint: "nothing to add"}
	}
	lines := strings.SplitAfter(string(src), "\n")
	node, parent, err := findList(src, list)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	var out []string
	if remove {
		out, err = removeItem(lines, node, at)
	} else {
		out, err = addItem(lines, node, parent, list, entry)
	}
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error(), Hint: "edit the file by hand, then sign the change with `gitwarrant amend`"}
	}
	result := []byte(strings.Join(out, ""))
	if err := checkEdit(path, result, list, Texts(old), entry, remove); err != nil {
		return nil, err
	}
	return result, checkRest(path, before, result, list)
}

// checkRest holds every other list, and the fields an agent is told, to
// what they were: an edit of one list must not touch another.
func checkRest(path string, before *Loop, result []byte, list string) error {
	after, err := Parse(path, result)
	if err != nil {
		return err
	}
	for _, l := range AmendLists {
		b, _ := before.ItemsOf(l)
		a, _ := after.ItemsOf(l)
		if l != list && !slices.Equal(Texts(b), Texts(a)) {
			return &Error{File: path, Msg: fmt.Sprintf("the edit would change %s too; nothing was changed", l), Hint: "edit the file by hand, then sign the change with `gitwarrant amend`"}
		}
	}
	if before.Name != after.Name || before.Description != after.Description || before.Brief != after.Brief || before.Procedure != after.Procedure ||
		!slices.Equal(Texts(before.Record), Texts(after.Record)) || !slices.Equal(Texts(before.Triggers), Texts(after.Triggers)) {
		return &Error{File: path, Msg: "the edit would change more than the list; nothing was changed", Hint: "edit the file by hand, then sign the change with `gitwarrant amend`"}
	}
	return nil
}

// checkEdit parses the edited file and holds it to the intended list.
func checkEdit(path string, result []byte, list string, old []string, entry string, remove bool) error {
	after, err := Parse(path, result)
	if err != nil {
		return fmt.Errorf("the edit would break the file (%v); nothing was changed", err)
	}
	want := slices.Clone(old)
	if remove {
		want = slices.DeleteFunc(want, func(s string) bool { return s == entry })
	} else {
		want = append(want, entry)
	}
	got, _ := after.ItemsOf(list)
	if !slices.Equal(Texts(got), want) {
		return &Error{File: path, Msg: fmt.Sprintf("the edit would make %s %s instead of %s; nothing was changed", list, quoteAll(Texts(got)), quoteAll(want)),
			Hint: "edit the file by hand, then sign the change with `gitwarrant amend`"}
	}
	return nil
}

func quoteAll(s []string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// listNode is a list's place in the file. Lines are 1-based file lines.
type listNode struct {
	key *yaml.Node // the list's key; nil when the list is absent
	val *yaml.Node // its value (sequence or null)
	off int        // add to a node line to get the file line
	// warrant is the `warrant` key when its value is empty (`warrant:`,
	// `warrant: ~`): a list is then added under it.
	warrant *yaml.Node
	fmEnd   int // file line of the closing `---`
}

// findList locates list's nodes; parent is the warrant map (nil for
// reserved, or when warrant is absent).
func findList(src []byte, list string) (listNode, *yaml.Node, error) {
	text := strings.TrimPrefix(string(src), "\ufeff")
	lines := strings.Split(text, "\n")
	end := 0
	for i := 1; i < len(lines); i++ {
		if isDelimiter(strings.TrimSuffix(lines[i], "\r")) {
			end = i
			break
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(strings.Join(lines[1:end], "\n")+"\n"), &doc); err != nil {
		return listNode{}, nil, err
	}
	ln := listNode{off: 1, fmEnd: end + 1}
	if len(doc.Content) == 0 {
		return ln, nil, nil
	}
	root := doc.Content[0]
	m := root
	var parent *yaml.Node
	if list != "reserved" {
		parent = mapValue(root, "warrant")
		if parent == nil || parent.Kind != yaml.MappingNode {
			ln.warrant = mapKey(root, "warrant")
			return ln, nil, nil
		}
		m = parent
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == list {
			ln.key, ln.val = m.Content[i], m.Content[i+1]
		}
	}
	return ln, parent, nil
}

func mapKey(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// addItem adds entry as the list's last item.
func addItem(lines []string, n listNode, parent *yaml.Node, list, entry string) ([]string, error) {
	switch {
	case n.key == nil:
		return addList(lines, n, parent, list, entry)
	case n.val.Kind == yaml.ScalarNode: // `ask:` or `ask: ~`: becomes a one-item flow list
		i := n.key.Line + n.off - 1
		body, eol := splitEOL(lines[i])
		r := []rune(body)
		keyEnd := n.key.Column - 1 + len([]rune(n.key.Value))
		colon := strings.IndexRune(string(r[keyEnd:]), ':')
		if colon < 0 {
			return nil, fmt.Errorf("cannot find the colon after %s", list)
		}
		head := string(r[:keyEnd]) + string(r[keyEnd:])[:colon+1]
		_, comment := splitComment(string(r[keyEnd:])[colon+1:])
		lines[i] = head + " [" + flowScalar(entry) + "]" + comment + eol
		return lines, nil
	case n.val.Style&yaml.FlowStyle != 0:
		i := n.val.Line + n.off - 1
		body, eol := splitEOL(lines[i])
		r := []rune(body)
		closing := flowEnd(r, n.val.Column-1)
		if closing < 0 {
			return nil, fmt.Errorf("cannot find the end of the flow list %s", list)
		}
		sep := ", "
		if len(n.val.Content) == 0 {
			sep = ""
		}
		// Insert after the last item's text, before any space and the `]`.
		at := closing
		for at > 0 && (r[at-1] == ' ' || r[at-1] == '\t') && len(n.val.Content) > 0 {
			at--
		}
		lines[i] = string(r[:at]) + sep + flowScalar(entry) + string(r[at:]) + eol
		return lines, nil
	default:
		last := n.val.Content[len(n.val.Content)-1]
		i := last.Line + n.off - 1
		body, eol := splitEOL(lines[i])
		dash := strings.Index(body, "-")
		if dash < 0 {
			return nil, fmt.Errorf("cannot find the `-` of %s's last item", list)
		}
		gap := body[dash+1 : dash+1+len(body[dash+1:])-len(strings.TrimLeft(body[dash+1:], " \t"))]
		line := body[:dash] + "-" + gap + blockScalar(entry) + eol
		if eol == "" { // the file has no final newline here; cannot happen inside frontmatter
			line = "\n" + line
		}
		return slices.Insert(lines, i+1, line), nil
	}
}

// addList adds a list that is not there yet, as a one-line flow list: under
// warrant (at the indentation of its other lists), or as a top-level key
// before the closing `---`.
func addList(lines []string, n listNode, parent *yaml.Node, list, entry string) ([]string, error) {
	eol := "\n"
	if strings.HasSuffix(lines[0], "\r\n") {
		eol = "\r\n"
	}
	item := list + ": [" + flowScalar(entry) + "]" + eol
	if list == "reserved" {
		return slices.Insert(lines, n.fmEnd-1, item), nil
	}
	if n.warrant != nil { // `warrant:` with no lists: the line loses any `~`
		i := n.warrant.Line + n.off - 1
		body, lineEOL := splitEOL(lines[i])
		_, comment := splitComment(body[strings.Index(body, ":")+1:])
		lines[i] = "warrant:" + comment + lineEOL
		return slices.Insert(lines, i+1, "  "+item), nil
	}
	if parent == nil || len(parent.Content) == 0 {
		return slices.Insert(lines, n.fmEnd-1, "warrant:"+eol, "  "+item), nil
	}
	lastVal := parent.Content[len(parent.Content)-1]
	lastLine := lastVal.Line
	if len(lastVal.Content) > 0 {
		lastLine = lastVal.Content[len(lastVal.Content)-1].Line
	}
	indent := strings.Repeat(" ", parent.Content[0].Column-1)
	return slices.Insert(lines, lastLine+n.off, indent+item), nil
}

// removeItem removes item at (an index into the list).
func removeItem(lines []string, n listNode, at int) ([]string, error) {
	it := n.val.Content[at]
	if n.val.Style&yaml.FlowStyle == 0 {
		return slices.Delete(lines, it.Line+n.off-1, it.Line+n.off), nil
	}
	i := n.val.Line + n.off - 1
	body, eol := splitEOL(lines[i])
	r := []rune(body)
	start := it.Column - 1
	end := itemEnd(r, start)
	var from, to int
	switch {
	case len(n.val.Content) == 1:
		from, to = start, end
	case at+1 < len(n.val.Content):
		from, to = start, n.val.Content[at+1].Column-1
	default:
		prev := n.val.Content[at-1]
		from, to = itemEnd(r, prev.Column-1), end
	}
	lines[i] = string(r[:from]) + string(r[to:]) + eol
	return lines, nil
}

// itemEnd returns the index just past a flow item's text starting at
// start: the next `,` or `]` outside quotes, less trailing blanks.
func itemEnd(r []rune, start int) int {
	i := scanFlow(r, start, false)
	for i > start && (r[i-1] == ' ' || r[i-1] == '\t') {
		i--
	}
	return i
}

// flowEnd returns the index of the `]` closing the flow list whose `[` is
// at open, or -1.
func flowEnd(r []rune, open int) int {
	i := scanFlow(r, open+1, true)
	if i < len(r) && r[i] == ']' {
		return i
	}
	return -1
}

// scanFlow returns the index of the next `]` (or, unless toClose, `,`)
// outside quoted scalars, from i. A quote opens a quoted scalar only where
// a scalar starts (after `[`, `,` or blanks): in `0"` it is plain text.
func scanFlow(r []rune, i int, toClose bool) int {
	var q rune
	start := true
	for ; i < len(r); i++ {
		c := r[i]
		switch {
		case q == '"' && c == '\\':
			i++
		case q != 0 && c == q:
			if q == '\'' && i+1 < len(r) && r[i+1] == '\'' {
				i++
				continue
			}
			q = 0
		case q != 0:
		case (c == '"' || c == '\'') && start:
			q = c
		case c == ']' || c == ',':
			if c == ']' || !toClose {
				return i
			}
			start = true
			continue
		}
		if c != ' ' && c != '\t' {
			start = c == '['
		}
	}
	return len(r)
}

func splitEOL(line string) (string, string) {
	if b, ok := strings.CutSuffix(line, "\r\n"); ok {
		return b, "\r\n"
	}
	if b, ok := strings.CutSuffix(line, "\n"); ok {
		return b, "\n"
	}
	return line, ""
}

// splitComment splits the rest of a line after a null value into the value
// text and a trailing ` # comment`, kept as written.
func splitComment(s string) (string, string) {
	if i := strings.Index(s, " #"); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// flowScalar writes entry as an item of a flow list: plain when YAML reads
// it back as the same string, else double-quoted.
func flowScalar(entry string) string {
	if plainSafe(entry, true) {
		return entry
	}
	return doubleQuote(entry)
}

// blockScalar writes entry as a block list item.
func blockScalar(entry string) string {
	if plainSafe(entry, false) {
		return entry
	}
	return doubleQuote(entry)
}

func doubleQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// plainSafe reports whether entry can be written unquoted: YAML must read
// it back as the same string (not a number, boolean or null, no comment,
// no mapping, nothing flow syntax would split).
func plainSafe(entry string, flow bool) bool {
	if strings.ContainsAny(entry[:1], "-?:,[]{}#&*!|>'\"%@`") || strings.Contains(entry, ": ") ||
		strings.Contains(entry, " #") || strings.HasSuffix(entry, ":") || (flow && strings.ContainsAny(entry, ",[]{}")) {
		return false
	}
	var v any
	if err := yaml.Unmarshal([]byte("x: "+entry), &v); err != nil {
		return false
	}
	m, ok := v.(map[string]any)
	s, isStr := m["x"].(string)
	return ok && isStr && s == entry
}
