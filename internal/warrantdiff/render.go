package warrantdiff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Summary counts changes.
type Summary struct {
	Widenings, Unsigned, Narrowings int
}

// Summarize counts changes by kind; an unsigned widening is one without a
// verified amend.
func Summarize(changes []Change) Summary {
	var s Summary
	for _, c := range changes {
		if c.Kind == Narrowing {
			s.Narrowings++
			continue
		}
		s.Widenings++
		if c.Cover == nil {
			s.Unsigned++
		}
	}
	return s
}

func (s Summary) String() string {
	return fmt.Sprintf("%d widening(s), %d unsigned; %d narrowing(s)", s.Widenings, s.Unsigned, s.Narrowings)
}

func sigText(c Change) string {
	switch {
	case c.Kind == Narrowing:
		return ""
	case c.Cover != nil:
		return fmt.Sprintf("signed by %s (%s#%d)", c.Cover.Signer, c.Cover.Chain, c.Cover.Seq)
	case c.Refused != "":
		return "unsigned (refused: " + c.Refused + ")"
	}
	return "unsigned"
}

func opMark(c Change) string {
	switch c.Op {
	case OpAdd:
		return "+"
	case OpRemove:
		return "-"
	}
	return "!"
}

func what(c Change) string {
	if c.List == "" {
		if c.Entry != "" {
			return c.Op + " " + c.Entry
		}
		return c.Op
	}
	s := fmt.Sprintf("%s %q", c.List, c.Entry)
	if c.Via != "" {
		s += " (inherited from " + c.Via + ")"
	}
	return s
}

// Text writes the diff for a terminal: one block per loop.
func Text(w io.Writer, base, head string, changes []Change) {
	fmt.Fprintf(w, "warrant diff %s → %s\n", base, head)
	if len(changes) == 0 {
		fmt.Fprintln(w, "no warrant changes")
		return
	}
	last := ""
	for _, c := range changes {
		if c.Loop != last {
			fmt.Fprintf(w, "%s\n", c.Loop)
			last = c.Loop
		}
		line := fmt.Sprintf("  %s %-9s %s", opMark(c), c.Kind, what(c))
		if s := sigText(c); s != "" {
			line += " — " + s
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, Summarize(changes))
}

// Markdown writes the diff as a table (a pull request's job summary).
func Markdown(w io.Writer, base, head string, changes []Change) {
	fmt.Fprintf(w, "### Warrant changes `%s` → `%s`\n\n", base, head)
	if len(changes) == 0 {
		fmt.Fprintln(w, "No warrant changes.")
		return
	}
	fmt.Fprintln(w, "| Loop | Change | List | Entry | Kind | Signature |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, c := range changes {
		entry := c.Entry
		if c.Via != "" {
			entry += " (inherited from `" + c.Via + "`)"
		}
		sig := sigText(c)
		if c.Kind == Widening && c.Cover == nil {
			sig = "**" + sig + "**"
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s |\n", mdCell(c.Loop), c.Op, c.List, mdCell(entry), c.Kind, mdCell(sig))
	}
	fmt.Fprintf(w, "\n%s\n", Summarize(changes))
}

func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// JSONChange is the stable JSON form of a change.
type JSONChange struct {
	Loop    string      `json:"loop"`
	List    string      `json:"list,omitempty"`
	Op      string      `json:"op"`
	Entry   string      `json:"entry,omitempty"`
	Kind    string      `json:"kind"`
	Why     string      `json:"why"`
	Via     string      `json:"via,omitempty"`
	Line    int         `json:"line,omitempty"`
	Signed  *JSONSigned `json:"signed"`
	Refused string      `json:"refused,omitempty"`
}

// JSONSigned names the amend that covers a widening.
type JSONSigned struct {
	Signer string `json:"signer"`
	Chain  string `json:"chain"`
	Seq    int64  `json:"seq"`
}

// JSONDiff is the whole diff as JSON.
type JSONDiff struct {
	Base       string       `json:"base"`
	Head       string       `json:"head"`
	Changes    []JSONChange `json:"changes"`
	Widenings  int          `json:"widenings"`
	Unsigned   int          `json:"unsigned"`
	Narrowings int          `json:"narrowings"`
}

// JSON writes the diff as one JSON object.
func JSON(w io.Writer, base, head string, changes []Change) error {
	d := JSONDiff{Base: base, Head: head, Changes: []JSONChange{}}
	for _, c := range changes {
		j := JSONChange{Loop: c.Loop, List: c.List, Op: c.Op, Entry: c.Entry, Kind: string(c.Kind), Why: c.Why, Via: c.Via, Line: c.Line, Refused: c.Refused}
		if c.Cover != nil {
			j.Signed = &JSONSigned{Signer: c.Cover.Signer, Chain: c.Cover.Chain, Seq: c.Cover.Seq}
		}
		d.Changes = append(d.Changes, j)
	}
	s := Summarize(changes)
	d.Widenings, d.Unsigned, d.Narrowings = s.Widenings, s.Unsigned, s.Narrowings
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}
