package templates

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Answers holds the five interview answers (spec "Why a spec"). List
// answers (MayDo, Stop, Evidence) are split on newlines, commas and
// semicolons into one entry each.
type Answers struct {
	Know     string // What must the agent know before it starts? → Brief
	HowDone  string // How is this work supposed to be done? → Procedure
	MayDo    string // What may it do without asking? → read / draft / ask
	Stop     string // Where does it have to stop? → ask and reserved
	Evidence string // What evidence must it leave behind? → record
}

// Leading verbs that sort a "may do" answer into a warrant list. The
// interview cannot tell a reviewed change or send from a careless one, so
// only reading and drafting are granted; anything naming a consequential
// verb goes to ask for the human to widen by hand. Unknown phrasing goes to
// draft, which by definition goes nowhere on its own.
var (
	readVerbs  = []string{"read", "look at", "view", "review", "inspect", "browse", "search", "check", "study"}
	draftVerbs = []string{"draft", "write", "prepare", "compose", "outline", "summarize", "summarise", "propose", "plan"}
	askVerbs   = []string{"send", "email", "e-mail", "post", "publish", "deploy", "push", "pay", "change", "edit", "update",
		"modify", "delete", "remove", "merge", "commit", "move", "rename", "install", "run", "execute", "book", "schedule",
		"order", "buy", "submit", "file", "sign", "accept", "approve", "reject", "call", "message", "contact", "share",
		"upload", "release", "tag", "create", "open", "close", "cancel", "transfer", "wire", "sent", "paid"}
)

// FromAnswers builds a loop file called name from interview answers. Every
// frontmatter value is double-quoted with escapes, so any answer text
// (colons, quotes, `#`, leading dashes) parses back as written; the result
// is checked with loops.Parse before it is returned.
func FromAnswers(name string, a Answers) ([]byte, error) {
	if !loops.ValidName(name) {
		return nil, fmt.Errorf("%q is not a loop name: use lowercase letters, digits and dashes (e.g. weekly-report)", name)
	}
	w := sortMayDo(splitList(a.MayDo))
	stops := splitList(a.Stop)
	w.ask = append(w.ask, stops...)

	var b strings.Builder
	b.WriteString("---\nname: " + name + "\n")
	if d := describe(a); d != "" {
		b.WriteString("description: " + quote(d) + "\n")
	}
	b.WriteString("version: 1\n")
	b.WriteString("# Written from the interview. Only reading and drafting were granted; entries that\n")
	b.WriteString("# name a change or a send were put under ask. Move them to change or send by hand.\n")
	b.WriteString("warrant:\n")
	writeList(&b, "  ", "read", w.read)
	writeList(&b, "  ", "draft", w.draft)
	writeList(&b, "  ", "change", nil)
	writeList(&b, "  ", "send", nil)
	writeList(&b, "  ", "ask", w.ask)
	writeList(&b, "  ", "never", nil)
	writeList(&b, "", "reserved", stops)
	writeList(&b, "", "record", splitList(a.Evidence))
	b.WriteString("---\n\n# Brief\n\n" + prose(a.Know) + "\n\n# Procedure\n\n" + prose(a.HowDone) + "\n")

	out := []byte(b.String())
	if _, err := loops.Parse(name+loops.FileSuffix, out); err != nil {
		return nil, fmt.Errorf("the interview answers do not make a valid loop: %w", err)
	}
	return out, nil
}

type mayDo struct{ read, draft, ask []string }

// sortMayDo files each "may do" entry under read, draft or ask by its
// leading verb. The verb is dropped for read and draft so the entry is the
// object (`read the denial letter` → `the denial letter`), which is what a
// check target names.
func sortMayDo(items []string) mayDo {
	var m mayDo
	for _, it := range items {
		if rest, ok := cutVerb(it, readVerbs); ok {
			m.read = append(m.read, dropArticle(rest))
		} else if rest, ok := cutVerb(it, draftVerbs); ok {
			m.draft = append(m.draft, dropArticle(rest))
		} else if _, ok := cutVerb(it, askVerbs); ok {
			m.ask = append(m.ask, it)
		} else {
			m.draft = append(m.draft, it)
		}
	}
	return m
}

// cutVerb reports whether s starts with one of verbs as a whole word, in a
// regular inflection, and returns the rest of s, or s itself when nothing
// follows the verb.
func cutVerb(s string, verbs []string) (string, bool) {
	for _, v := range verbs {
		for _, form := range inflections(v) {
			n := len(form)
			if len(s) < n || !strings.EqualFold(s[:n], form) || (len(s) > n && s[n] != ' ') {
				continue
			}
			if r := strings.TrimSpace(s[n:]); r != "" {
				return r, true
			}
			return s, true
		}
	}
	return "", false
}

// dropArticle removes a leading "the", "a" or "an" (`the denial letter` →
// `denial letter`), keeping the entry as a concrete noun phrase.
func dropArticle(s string) string {
	for _, a := range []string{"the ", "a ", "an "} {
		if len(s) > len(a) && strings.EqualFold(s[:len(a)], a) {
			return strings.TrimSpace(s[len(a):])
		}
	}
	return s
}

// inflections returns v with its regular English endings.
func inflections(v string) []string {
	forms := []string{v, v + "s", v + "es", v + "ing", v + "ed"}
	if strings.HasSuffix(v, "e") {
		forms = append(forms, v+"d", v[:len(v)-1]+"ing")
	}
	return forms
}

// bulletRE matches a Markdown list marker that people type out of habit.
var bulletRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[-*+•]|\d{1,3}[.)])\s+`) })

// splitList turns a free-text answer into clean list entries.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ',' || r == ';' }) {
		part = bulletRE().ReplaceAllString(clean(part), "")
		if part != "" {
			out = append(out, part)
		}
	}
	return out
}

// clean makes s one line of plain text: invalid UTF-8, control characters,
// line separators and direction overrides become spaces (loops.Parse
// rejects them in frontmatter), and runs of spaces collapse.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == 0x2028 || r == 0x2029 || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// quote renders s as a YAML double-quoted scalar. clean has removed every
// character that would need more than the two escapes below.
func quote(s string) string {
	s = strings.ReplaceAll(clean(s), `\`, `\\`)
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

func writeList(b *strings.Builder, indent, key string, items []string) {
	if len(items) == 0 {
		b.WriteString(indent + key + ": []\n")
		return
	}
	b.WriteString(indent + key + ":\n")
	for _, it := range items {
		b.WriteString(indent + "  - " + quote(it) + "\n")
	}
}

// describe takes the first sentence of the procedure (else the brief) as a
// one-line description, cut to 100 characters.
func describe(a Answers) string {
	s := clean(a.HowDone)
	if s == "" {
		s = clean(a.Know)
	}
	if i := strings.IndexAny(s, ".!?"); i > 0 {
		s = s[:i+1]
	}
	if r := []rune(s); len(r) > 100 {
		s = strings.TrimSpace(string(r[:99])) + "…"
	}
	return s
}

// prose prepares a free-text answer for the body: valid UTF-8, LF line
// endings, and no line that would open another section.
func prose(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Trim(s, "\n")
	if strings.TrimSpace(s) == "" {
		return "(Not written yet.)"
	}
	return loops.SafeSectionText(s)
}
