package loops

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"gopkg.in/yaml.v3"
)

// checker holds frontmatter nodes to the spec's YAML subset ("YAML subset":
// nested maps, lists of scalars, quoted/unquoted scalars, booleans, numbers,
// null, [] and comments) with docs/loop-format.md#the-warrant's one widening: flow lists of
// scalars. yaml.v3 parses the full language, so everything beyond the subset
// is refused here, node by node, with the line it sits on.
type checker struct {
	path    string
	lines   []string       // frontmatter lines, for scanning quoted scalars
	off     int            // frontmatter line + off = file line
	covered map[int]bool   // frontmatter lines on which some node starts
	runes   map[int][]rune // decoded lines, cached: one long line of quoted items must not cost O(n²)
	// warnings are what the file gets away with (see lenient).
	warnings []Warning
}

// parseYAML decodes the frontmatter into one document node, or returns nil
// for an empty frontmatter.
func (c *checker) parseYAML() (*yaml.Node, error) {
	if err := c.checkRunes(); err != nil {
		return nil, err
	}
	c.lenient()
	dec := yaml.NewDecoder(strings.NewReader(strings.Join(c.lines, "\n") + "\n"))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, c.yamlError(err)
	}
	// A second document would be silently ignored by a single Decode; the
	// loop file has exactly one.
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		line := extra.Line
		if err != nil {
			return nil, c.yamlError(err)
		}
		return nil, c.errf(line, "frontmatter holds a second YAML document", "keep exactly one set of fields between the two `---` lines")
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// yamlError turns a yaml.v3 syntax error into an *Error whose line is
// counted in the whole file. yaml.v3's own line numbers mix 0- and 1-based
// marks, so the line is found instead as the shortest prefix of the
// frontmatter that no longer parses.
func (c *checker) yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(msg, ": "); strings.HasPrefix(msg, "line ") && i > 0 {
		msg = msg[i+2:]
	}
	line := c.firstBadLine()
	if m := unknownAnchorRE().FindStringSubmatch(msg); m != nil {
		return c.errf(line, fmt.Sprintf("alias *%s is not allowed in a loop file", m[1]),
			"write the value out in full; anchors and aliases are outside the loop file YAML subset")
	}
	return c.errf(line, "frontmatter is not valid YAML: "+msg,
		"fix the YAML syntax: `key: value` per line, list items as `- text`, indent with spaces")
}

var unknownAnchorRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`unknown anchor '(.*)' referenced`) })

// firstBadLine bisects for the first frontmatter line whose prefix fails to
// parse, given that the whole frontmatter fails. In the subset every
// complete line leaves a parseable prefix, so this is where the fault is.
func (c *checker) firstBadLine() int {
	parses := func(k int) bool {
		var n yaml.Node
		return yaml.Unmarshal([]byte(strings.Join(c.lines[:k], "\n")+"\n"), &n) == nil
	}
	lo, hi := 0, len(c.lines)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if parses(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return max(hi, 1)
}

// checkRunes rejects characters that YAML treats as line breaks but editors
// and `git diff` do not (a lone CR, NEL, U+2028, U+2029), and invisible
// direction overrides that make a line read differently from how it parses.
// Both would let the reviewed text differ from the enforced text.
func (c *checker) checkRunes() error {
	for i, line := range c.lines {
		for _, r := range line {
			if what := badRune(r); what != "" {
				return c.errf(i+1, fmt.Sprintf("frontmatter contains %s (U+%04X)", what, r),
					"delete the character; frontmatter must read exactly as it parses")
			}
		}
	}
	return nil
}

// badRune names a character not allowed in frontmatter text or values, or
// returns "".
func badRune(r rune) string {
	switch {
	case r == '\t':
		return ""
	case r == '\r':
		return "a carriage return not followed by a newline"
	case r == 0x2028 || r == 0x2029 || r == 0x85:
		return "a Unicode line separator"
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return "an invisible text-direction override"
	case unicode.IsControl(r):
		return "a control character"
	}
	return ""
}

// errf builds an *Error at frontmatter line n (0 means the opening `---`).
func (c *checker) errf(n int, msg, hint string) *Error {
	return &Error{File: c.path, Line: n + c.off, Msg: msg, Hint: hint}
}

// node applies the rules every node obeys, whatever its place: no anchors,
// aliases, explicit tags or block scalars, and no scalar spanning lines.
func (c *checker) node(n *yaml.Node) error {
	c.covered[n.Line] = true
	switch {
	case n.Kind == yaml.AliasNode:
		return c.errf(n.Line, fmt.Sprintf("alias *%s is not allowed in a loop file", n.Value),
			"write the value out in full; anchors and aliases are outside the loop file YAML subset")
	case n.Anchor != "":
		return c.errf(n.Line, fmt.Sprintf("anchor &%s is not allowed in a loop file", n.Anchor),
			"remove the anchor; anchors and aliases are outside the loop file YAML subset")
	case n.Style&yaml.TaggedStyle != 0:
		return c.errf(n.Line, fmt.Sprintf("explicit tag %s is not allowed in a loop file", n.Tag),
			"remove the tag; quote the value if it must be read as text")
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return c.errf(n.Line, "multi-line text (`|` or `>` block scalar) is not allowed in frontmatter",
			"keep the value on one line, or move long prose into the Brief or Procedure section")
	case n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle != 0:
		return c.errf(n.Line, "flow maps ({…}) are not allowed in a loop file",
			"write one `key: value` per line, indented under its parent")
	case n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		if !c.quoteClosesOnLine(n) {
			return c.errf(n.Line, "a quoted value continues onto the next line",
				"close the quote on the same line; multi-line values are not allowed in frontmatter")
		}
	}
	return nil
}

// quoteClosesOnLine reports whether the quoted scalar n ends on the line it
// starts on. yaml.v3 gives a node's start only, so the closing quote is
// found by scanning the source line (columns count characters).
func (c *checker) quoteClosesOnLine(n *yaml.Node) bool {
	if n.Line < 1 || n.Line > len(c.lines) {
		return false
	}
	runes, ok := c.runes[n.Line]
	if !ok {
		runes = []rune(c.lines[n.Line-1])
		c.runes[n.Line] = runes
	}
	i := n.Column - 1
	if i < 0 || i >= len(runes) || (runes[i] != '"' && runes[i] != '\'') {
		return false
	}
	q := runes[i]
	for i++; i < len(runes); i++ {
		switch {
		case q == '"' && runes[i] == '\\':
			i++
		case q == '\'' && runes[i] == '\'' && i+1 < len(runes) && runes[i+1] == '\'':
			i++
		case runes[i] == q:
			return true
		}
	}
	return false
}

// checkCoverage rejects any frontmatter line, other than blanks and
// comments, on which no node starts. Such a line continues a plain scalar
// from the line above (`description: a` / `  b`), closes a flow list opened
// earlier, or holds a YAML directive or document marker: all outside the
// subset. It runs after the walk, when every node has been seen.
func (c *checker) checkCoverage() error {
	for i, line := range c.lines {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || c.covered[i+1] {
			continue
		}
		switch {
		case strings.HasPrefix(t, "%"):
			return c.errf(i+1, "YAML directives are not allowed in a loop file", "delete the line")
		case strings.HasPrefix(t, "..."), strings.HasPrefix(t, "---"):
			return c.errf(i+1, "YAML document markers are not allowed inside the frontmatter", "delete the line")
		}
		return c.errf(i+1, "this line continues a value from an earlier line; multi-line values are not allowed in frontmatter",
			"join it onto one line, write a list as `- item` lines, or keep a flow list `[a, b]` on one line")
	}
	return nil
}
