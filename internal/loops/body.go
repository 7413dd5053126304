package loops

import (
	"regexp"
	"strings"
	"sync"
)

// headingRE matches an ATX heading of level 1–3 (up to three spaces of
// indent, optional closing hashes), capturing its text.
var headingRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}#{1,3}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`) })

// section identifies where body lines go.
type section int

const (
	preamble section = iota
	brief
	procedure
)

// splitBody sorts body lines into the preamble and the two prose layers.
// Spec "Body sections": a heading named exactly Brief or Procedure
// (case-insensitive) opens a layer; every other line, including other
// headings and anything inside fenced code, is content of the open section.
// Nothing is dropped: a repeated heading appends to its section.
func splitBody(lines []string) (pre, br, proc string) {
	var parts [3][]string
	cur := preamble
	var f fence
	for _, line := range lines {
		if f.open() {
			f.feed(line)
			parts[cur] = append(parts[cur], line)
			continue
		}
		if s, ok := sectionHeading(line); ok {
			if len(parts[s]) > 0 {
				parts[s] = append(parts[s], "")
			}
			cur = s
			continue
		}
		f.feed(line)
		parts[cur] = append(parts[cur], line)
	}
	return trimBlank(parts[preamble]), trimBlank(parts[brief]), trimBlank(parts[procedure])
}

// sectionHeading reports whether line opens the Brief or Procedure layer.
func sectionHeading(line string) (section, bool) {
	// Most lines are prose: only one whose first non-space byte (within
	// the three spaces of indent a heading may have) is '#' is handed to
	// the regular expression, which every loop load would otherwise run
	// on every line.
	if t := strings.TrimLeft(line, " "); len(line)-len(t) > 3 || !strings.HasPrefix(t, "#") {
		return preamble, false
	}
	m := headingRE().FindStringSubmatch(line)
	if m == nil {
		return preamble, false
	}
	switch strings.ToLower(strings.TrimSpace(m[1])) {
	case "brief":
		return brief, true
	case "procedure":
		return procedure, true
	}
	return preamble, false
}

// trimBlank joins lines, dropping blank lines only at the start and end.
func trimBlank(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// fence tracks a fenced code block (``` or ~~~, CommonMark). Any leading
// indent is accepted so that a fence inside a list item is still seen: when
// unsure, lines stay content rather than opening a section.
type fence struct {
	ch byte // '`' or '~' while open, else 0
	n  int  // length of the opening run
}

func (f *fence) open() bool { return f.ch != 0 }

// feed updates the fence state with one line.
func (f *fence) feed(line string) {
	t := strings.TrimLeft(line, " \t")
	ch, n := fenceRun(t)
	if n < 3 {
		return
	}
	rest := t[n:]
	switch {
	case f.ch == 0 && (ch == '~' || !strings.Contains(rest, "`")):
		f.ch, f.n = ch, n
	case f.ch == ch && n >= f.n && strings.TrimSpace(rest) == "":
		f.ch, f.n = 0, 0
	}
}

// fenceRun returns the fence character that t starts with and how many
// times it repeats.
func fenceRun(t string) (byte, int) {
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return 0, 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	return t[0], n
}

// SafeSectionText returns text made safe to place under a Brief or
// Procedure heading by a generator: outside code fences, a line that would
// open a section is escaped with a backslash (Markdown still shows `#`),
// and a fence left open is closed so it cannot swallow the next heading.
func SafeSectionText(text string) string {
	lines := strings.Split(text, "\n")
	var f fence
	for i, line := range lines {
		if !f.open() && IsSectionHeading(line) {
			lines[i] = "\\" + strings.TrimLeft(line, " ")
		}
		f.feed(line)
	}
	if f.open() {
		lines = append(lines, strings.Repeat(string(f.ch), f.n))
	}
	return strings.Join(lines, "\n")
}

// IsSectionHeading reports whether line, outside a code fence, would open
// the Brief or Procedure layer.
func IsSectionHeading(line string) bool {
	_, ok := sectionHeading(line)
	return ok
}
