package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// This file is a tiny ordered-JSON editor. install must keep a user's
// settings file as it was — key order, indentation, spacing — and uninstall
// must give the original bytes back (docs/design.md#enforcement-surfaces: merge-safe, idempotent,
// "removes exactly what install added"). Decoding into a map and encoding it
// again would do neither, so edits are made as text splices on the spans of
// a parsed tree, and every new value copies the formatting of its siblings.

// jnode is a parsed JSON value with its byte span [start, end).
type jnode struct {
	kind  byte // '{' object, '[' array, '"' string, '0' number or literal
	start int
	end   int
	items []jitem // object members or array elements, in order
}

// jitem is an object member (key set) or an array element.
type jitem struct {
	key    string
	keyEnd int // end of the key's closing quote; 0 for array elements
	start  int // start of the key, or of the element value
	val    *jnode
}

// jsonDoc is a validated document and its parse tree.
type jsonDoc struct {
	path string // shown in errors
	data []byte
	root *jnode
}

// parseJSONDoc validates data with encoding/json (for its exact error
// offsets) and then builds the span tree. The error names path:line:col.
func parseJSONDoc(path string, data []byte) (*jsonDoc, error) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, fmt.Errorf("%s:1:1: the file starts with a byte order mark (BOM), which JSON does not allow; save it as UTF-8 without a BOM, then run install again — nothing was written", path)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		var se *json.SyntaxError
		off := int64(len(data))
		if errors.As(err, &se) {
			off = se.Offset
		}
		line, col := lineCol(data, int(off))
		return nil, fmt.Errorf("%s:%d:%d: malformed JSON (%v); fix the file by hand, then run install again — nothing was written", path, line, col, err)
	}
	p := &spanParser{data: data}
	root := p.value()
	if dup := firstDuplicate(root); dup != nil {
		line, col := lineCol(data, dup.start+1)
		return nil, fmt.Errorf("%s:%d:%d: %q appears twice in the same object, and readers disagree on which one counts (Claude Code takes the last); merge them by hand, then run install again — nothing was written", path, line, col, dup.key)
	}
	if root.kind != '{' {
		line, col := lineCol(data, root.start+1)
		return nil, fmt.Errorf("%s:%d:%d: the top level is not a JSON object; make it an object ({ … }), then run install again — nothing was written", path, line, col)
	}
	return &jsonDoc{path: path, data: data, root: root}, nil
}

// lineCol converts a byte offset (1-based, as json.SyntaxError reports it)
// into a 1-based line and column.
func lineCol(data []byte, off int) (int, int) {
	if off > len(data) {
		off = len(data)
	}
	if off < 1 {
		off = 1
	}
	line, col := 1, 1
	for _, b := range data[:off-1] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// where is "path:line:col" for a node, for error messages.
func (d *jsonDoc) where(n *jnode) string {
	line, col := lineCol(d.data, n.start+1)
	return fmt.Sprintf("%s:%d:%d", d.path, line, col)
}

// member returns the value of key in object n and its index, or nil, -1.
func (n *jnode) member(key string) (*jnode, int) {
	for i, it := range n.items {
		if it.key == key {
			return it.val, i
		}
	}
	return nil, -1
}

// spanParser walks JSON already validated by encoding/json, so it needs no
// error handling of its own.
type spanParser struct {
	data []byte
	pos  int
}

func (p *spanParser) ws() {
	for p.pos < len(p.data) && isJSONSpace(p.data[p.pos]) {
		p.pos++
	}
}

func isJSONSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func (p *spanParser) value() *jnode {
	p.ws()
	n := &jnode{start: p.pos}
	switch c := p.data[p.pos]; c {
	case '{', '[':
		n.kind = c
		p.container(n)
	case '"':
		n.kind = '"'
		p.str()
	default:
		n.kind = '0'
		for p.pos < len(p.data) && !isJSONSpace(p.data[p.pos]) && !bytes.ContainsRune([]byte(",]}"), rune(p.data[p.pos])) {
			p.pos++
		}
	}
	n.end = p.pos
	return n
}

func (p *spanParser) container(n *jnode) {
	closer := byte(']')
	if n.kind == '{' {
		closer = '}'
	}
	p.pos++ // opener
	for {
		p.ws()
		if p.data[p.pos] == closer {
			p.pos++
			return
		}
		if p.data[p.pos] == ',' {
			p.pos++
			p.ws()
		}
		it := jitem{start: p.pos}
		if n.kind == '{' {
			ks := p.pos
			p.str()
			_ = json.Unmarshal(p.data[ks:p.pos], &it.key)
			it.keyEnd = p.pos
			p.ws()
			p.pos++ // ':'
		}
		it.val = p.value()
		n.items = append(n.items, it)
	}
}

func (p *spanParser) str() {
	p.pos++ // opening quote
	for p.data[p.pos] != '"' {
		if p.data[p.pos] == '\\' {
			p.pos++
		}
		p.pos++
	}
	p.pos++
}

// style is the formatting a document uses, learned from its own text so
// inserted values look like their neighbours.
type style struct {
	compact bool   // single-line document with content: keep it single-line
	unit    string // one level of indentation
}

func (d *jsonDoc) style() style {
	lines := bytes.Split(d.data, []byte("\n"))
	for _, l := range lines[1:] {
		t := bytes.TrimLeft(l, " \t")
		if len(t) > 0 && len(t) < len(l) {
			return style{unit: string(l[:len(l)-len(t)])}
		}
	}
	inner := bytes.TrimSpace(d.data)
	return style{compact: len(d.root.items) > 0 && !bytes.Contains(inner, []byte("\n")), unit: "  "}
}

// lineIndent returns the leading whitespace of the line holding pos.
func (d *jsonDoc) lineIndent(pos int) string {
	s := bytes.LastIndexByte(d.data[:pos], '\n') + 1
	e := s
	for e < len(d.data) && (d.data[e] == ' ' || d.data[e] == '\t') {
		e++
	}
	return string(d.data[s:e])
}

// render encodes v for insertion at a place whose lines start with indent.
func (st style) render(v any, indent string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if !st.compact {
		enc.SetIndent(indent, st.unit)
	}
	_ = enc.Encode(v) // values are install's own, always encodable
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// splice returns data with [s, e) replaced by repl.
func splice(data []byte, s, e int, repl []byte) []byte {
	out := make([]byte, 0, len(data)-(e-s)+len(repl))
	out = append(out, data[:s]...)
	out = append(out, repl...)
	return append(out, data[e:]...)
}

// insertItem adds a member (key != "") or element at the end of container
// c, copying the separator and key spacing of the last existing item.
func (d *jsonDoc) insertItem(c *jnode, key string, v any) []byte {
	st := d.style()
	if len(c.items) == 0 {
		indent := d.lineIndent(c.start)
		if st.compact {
			return splice(d.data, c.start+1, c.end-1, d.itemText(st, key, ":", v, ""))
		}
		inner := indent + st.unit
		text := append([]byte("\n"+inner), d.itemText(st, key, ": ", v, inner)...)
		text = append(text, "\n"+indent...)
		return splice(d.data, c.start+1, c.end-1, text)
	}
	last := c.items[len(c.items)-1]
	ws := last.start
	for ws > 0 && isJSONSpace(d.data[ws-1]) {
		ws--
	}
	sep := string(d.data[ws:last.start])
	indent := sep
	if i := bytes.LastIndexByte([]byte(sep), '\n'); i >= 0 {
		indent = sep[i+1:]
	} else {
		indent = d.lineIndent(last.start)
	}
	colon := ": "
	if key != "" && last.keyEnd > 0 {
		colon = string(d.data[last.keyEnd:last.val.start])
	}
	text := append([]byte(","+sep), d.itemText(st, key, colon, v, indent)...)
	return splice(d.data, last.val.end, last.val.end, text)
}

func (d *jsonDoc) itemText(st style, key, colon string, v any, indent string) []byte {
	val := st.render(v, indent)
	if key == "" {
		return val
	}
	k, _ := json.Marshal(key)
	return append(append(k, colon...), val...)
}

// replaceValue puts v in place of n unless n already holds an equal value,
// so a second install leaves a hand-formatted entry byte-identical.
func (d *jsonDoc) replaceValue(n *jnode, v any) ([]byte, bool) {
	if sameJSON(d.data[n.start:n.end], v) {
		return d.data, false
	}
	return splice(d.data, n.start, n.end, d.style().render(v, d.lineIndent(n.start))), true
}

// removeItem deletes item i of container c together with the separator
// install added for it: the comma and whitespace before it (or, for the
// first item, after it). A sole item leaves an empty container behind,
// which the caller prunes.
func (d *jsonDoc) removeItem(c *jnode, i int) []byte {
	it := c.items[i]
	switch {
	case len(c.items) == 1:
		return splice(d.data, c.start+1, c.end-1, nil)
	case i > 0:
		return splice(d.data, c.items[i-1].val.end, it.val.end, nil)
	default:
		return splice(d.data, it.start, c.items[1].start, nil)
	}
}

// sameJSON reports whether raw decodes to the same value as v encodes to.
func sameJSON(raw []byte, v any) bool {
	want, err := json.Marshal(v)
	if err != nil {
		return false
	}
	var a, b any
	if json.Unmarshal(raw, &a) != nil || json.Unmarshal(want, &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

// firstDuplicate returns the first object member whose key an earlier
// member of the same object already has, or nil.
func firstDuplicate(n *jnode) *jitem {
	seen := map[string]bool{}
	for i := range n.items {
		it := &n.items[i]
		if n.kind == '{' {
			if seen[it.key] {
				return it
			}
			seen[it.key] = true
		}
		if d := firstDuplicate(it.val); d != nil {
			return d
		}
	}
	return nil
}
