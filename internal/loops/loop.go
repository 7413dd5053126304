// Package loops parses loop files (Loop File Spec v0.1, docs/loop-format.md#the-warrant) and
// decides warrant verdicts. It is a leaf package: it reads bytes and
// fs.FS values, and never runs processes or touches the terminal.
package loops

import (
	"fmt"
	"sync"
)

// EngineVersion identifies the matching engine. It is stored in every check
// entry so that `record verify --replay` can tell whether a past verdict was
// computed by the same rules. Bump it whenever a verdict could change.
const EngineVersion = "gitwarrant-2"

// MaxFileSize is the largest loop file accepted, in bytes.
const MaxFileSize = 204800

// SpecVersion is the only loop file `version` understood.
const SpecVersion = 1

// Verb is one of the four warrant actions, in escalating order of consequence.
type Verb string

// The four verbs.
const (
	Read   Verb = "read"
	Draft  Verb = "draft"
	Change Verb = "change"
	Send   Verb = "send"
)

// Verbs lists the verbs in escalating order of consequence.
var Verbs = []Verb{Read, Draft, Change, Send}

// ParseVerb returns the verb named s, or an error naming the valid ones.
func ParseVerb(s string) (Verb, error) {
	for _, v := range Verbs {
		if string(v) == s {
			return v, nil
		}
	}
	return "", fmt.Errorf("%q is not an action: use one of read, draft, change, send", s)
}

// Lists names every warrant list in file order.
var Lists = []string{"read", "draft", "change", "send", "ask", "never"}

// Item is one scalar from a frontmatter list, with the line it came from
// (1-based, counted in the whole file) so errors and CI annotations can
// point at it.
type Item struct {
	Text string
	Line int
	// From names the loop the item was inherited from (`extends`); Line
	// is then a line of that loop's file. Empty for the loop's own items.
	From string
	// typed is the entry parsed as a typed entry when the loop file was
	// read (nil for natural language, or for an Item built in code), so a
	// decision does not parse the same text again. Never mutated: TypedIn
	// hands out copies.
	typed *Typed
	// lazy, when typed is nil, compiles the typed entry on first use,
	// shared by every copy of the item: a parse read back from the parse
	// cache (docs/performance.md#the-parse-cache) leaves compiling to the
	// entries a decision asks for, and a parent's entries folded into many
	// children are compiled once.
	lazy *lazyTyped
}

// lazyTyped is an item's typed entry, compiled on first use.
type lazyTyped struct {
	once sync.Once
	t    *Typed
}

// get compiles text once; nil when it is not a typed entry.
func (z *lazyTyped) get(text string) *Typed {
	z.once.Do(func() { z.t, _ = ParseTyped(text) })
	return z.t
}

// Warrant holds the six warrant lists.
type Warrant struct {
	Read, Draft, Change, Send, Ask, Never []Item
}

// List returns the list called name ("read" … "never"), or nil.
func (w *Warrant) List(name string) []Item {
	switch name {
	case "read":
		return w.Read
	case "draft":
		return w.Draft
	case "change":
		return w.Change
	case "send":
		return w.Send
	case "ask":
		return w.Ask
	case "never":
		return w.Never
	}
	return nil
}

// SetList replaces the list called name; it reports false for an unknown name.
func (w *Warrant) SetList(name string, items []Item) bool {
	switch name {
	case "read":
		w.Read = items
	case "draft":
		w.Draft = items
	case "change":
		w.Change = items
	case "send":
		w.Send = items
	case "ask":
		w.Ask = items
	case "never":
		w.Never = items
	default:
		return false
	}
	return true
}

// Loop is one parsed loop file.
type Loop struct {
	Name        string
	Description string
	Version     int
	Warrant     Warrant
	Reserved    []Item
	Record      []Item
	Triggers    []Item
	Goal        string
	Stop        string
	Budget      string
	// Examples are tool calls the warrant must decide as stated
	// (docs/typed-entries.md#examples).
	Examples []Example

	// Extends names the parent loop (Text) and the line saying so; Abstract
	// marks a baseline to extend, never routed to or checked
	// (docs/loop-format.md#extends-and-abstract). Inherits lists the
	// ancestors folded in, oldest first.
	Extends  Item
	Abstract bool
	Inherits []string
	// Warnings are what the file gets away with (see Warning).
	Warnings []Warning

	// Preamble is body text before the first Brief or Procedure heading.
	// The spec says nothing is dropped, so it is kept and rendered.
	Preamble  string
	Brief     string
	Procedure string

	// Path is where the loop was read from (for messages).
	Path string
	// BlobID is the Git blob id of the file's bytes ("git:<sha1 hex>"),
	// computed in-process so no git call is needed.
	BlobID string
	// Digest is "sha256:<hex>" of the file's bytes.
	Digest string
	// Source is the file's raw bytes.
	Source []byte

	// Unsigned says why the file's bytes are not the version in force,
	// when a Voucher put another in force ("" when they are).
	Unsigned string
	// allowsNothing marks a loop no version of which is in force.
	allowsNothing bool
}

// Texts returns the text of each item.
func Texts(items []Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Text
	}
	return out
}

// Error is a rejection of a loop file: what is wrong, where, and what to do.
type Error struct {
	File string // path as given
	Line int    // 1-based; 0 when the whole file is at fault
	Msg  string // what is wrong
	Hint string // what to do
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	s := loc + ": " + e.Msg
	if e.Hint != "" {
		s += " — " + e.Hint
	}
	return s
}
