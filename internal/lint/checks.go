package lint

import (
	"fmt"
	"slices"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

func init() {
	Register(Check{Name: "parse", Doc: "the file is not a loop file gitwarrant can read", Run: parseErrors})
	Register(Check{Name: "extends", Doc: "an `extends` parent is unknown, does not load, or closes a cycle", Run: extendsErrors})
	Register(Check{Name: "unquoted-colon", Doc: "an unquoted `: ` in a top-level text field, read leniently as the rest of the line", Run: parseWarnings})
	Register(Check{Name: "tool-unusable", Doc: "an allow entry no tool call can ever be allowed by", Run: toolUnusable})
	Register(Check{Name: "shadowed-allow", Doc: "an allow entry that its own loop's ask or never list always catches first", Run: shadowedAllow})
}

func parseErrors(files []*File, _ Options) []Finding {
	var out []Finding
	for _, f := range files {
		if f.ParseErr != nil {
			out = append(out, fromError(f.Path, f.ParseErr))
		}
	}
	return out
}

func extendsErrors(files []*File, _ Options) []Finding {
	var out []Finding
	for _, f := range files {
		if f.LoadErr != nil {
			out = append(out, fromError(f.Path, f.LoadErr))
		}
	}
	return out
}

func parseWarnings(files []*File, _ Options) []Finding {
	var out []Finding
	for _, f := range files {
		if f.Raw == nil {
			continue
		}
		for _, w := range f.Raw.Warnings {
			out = append(out, Finding{File: f.Path, Line: w.Line, Severity: Warning, Msg: w.Msg, Hint: w.Hint})
		}
	}
	return out
}

// ToolVerbs are the verbs a tool call is checked as: read-shaped tools as
// read, file-writing tools as change, everything else as send
// (docs/design.md#enforcement-surfaces). No tool call is checked as draft.
var ToolVerbs = []loops.Verb{loops.Read, loops.Change, loops.Send}

// UnusableRules decide whether a tool call can ever be allowed by an allow
// entry of a list a tool call uses (ToolVerbs): each returns why not, or
// "". Rules for entry kinds other than natural language (typed entries
// such as `Bash(...)`) are appended here.
var UnusableRules = []func(verb loops.Verb, it loops.Item) string{proseOnly}

// proseWords are words an allow entry must keep (they are limits,
// docs/loop-format.md#strict-filler-words) but that a shell command or a file
// path does not say.
var proseWords = []string{"to", "into", "onto", "toward", "towards", "cc", "bcc", "me", "us", "him",
	"her", "them", "my", "our", "your", "their", "his"}

// proseOnly reports a change or send entry whose every alternative holds a
// prose word: the shell command or file path of the calls it means never
// says it. (A read target can be a web search, which may.)
func proseOnly(verb loops.Verb, it loops.Item) string {
	if verb == loops.Read {
		return ""
	}
	var said string
	for _, alt := range loops.Alternatives(it.Text) {
		found := ""
		for _, w := range loops.StrictContentWords(alt) {
			if slices.Contains(proseWords, w) {
				found = w
				break
			}
		}
		if found == "" {
			return ""
		}
		said = found
	}
	if said == "" {
		return ""
	}
	return fmt.Sprintf("the entry needs %q, which a shell command or a file path does not say: a Bash call or file write it means asks (a `gitwarrant check` or MCP call that spells it out can still be allowed)", said)
}

// toolUnusable warns about natural-language allow entries a tool call can
// never use, in each file's own lists (inherited entries are the parent's
// to fix): one warning for a draft list (no tool call is checked as
// draft), one per entry an UnusableRule finds.
func toolUnusable(files []*File, _ Options) []Finding {
	var out []Finding
	for _, f := range files {
		if f.Raw == nil {
			continue
		}
		for _, v := range loops.Verbs {
			items := f.Raw.Warrant.List(string(v))
			if len(items) == 0 {
				continue
			}
			if !slices.Contains(ToolVerbs, v) {
				out = append(out, Finding{File: f.Path, Line: items[0].Line, Severity: Warning,
					Msg: fmt.Sprintf("%s: %s for people and MCP only: no tool call is checked as %s — an agent writing the %s to a file is checked as change",
						v, pluralWord(len(items), "entry is", "entries are"), v, v),
					Hint: "to let the hook allow the write, list the file's path under change"})
				continue
			}
			if hasTypedEntry(items) {
				continue // migrated: its prose is for people and check (typed.go)
			}
			for _, it := range items {
				for _, rule := range UnusableRules {
					if why := rule(v, it); why != "" {
						out = append(out, Finding{File: f.Path, Line: it.Line, Severity: Warning,
							Msg:  fmt.Sprintf("%s: %q: %s", v, it.Text, why),
							Hint: "keep it for `gitwarrant check` and MCP; for the hook, write the entry as the call reads (a path, a command)"})
					}
				}
			}
		}
	}
	return out
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// shadowedAllow warns about an allow entry that never allows even its own
// words, because an ask or never entry of the loop (inherited ones
// included) matches them first.
func shadowedAllow(files []*File, _ Options) []Finding {
	var out []Finding
	for _, f := range files {
		if f.Raw == nil || f.Loop == nil {
			continue
		}
		for _, v := range loops.Verbs {
			for _, it := range f.Raw.Warrant.List(string(v)) {
				if loops.LooksTyped(it.Text) {
					continue
				}
				for _, alt := range loops.Alternatives(it.Text) {
					res := f.Loop.Check(v, alt)
					if res.Verdict == loops.Allow || (res.List != "ask" && res.List != "never") {
						continue
					}
					where := fmt.Sprintf("line %d", res.Line)
					if res.From != "" {
						where = fmt.Sprintf("%s, line %d", res.From, res.Line)
					}
					out = append(out, Finding{File: f.Path, Line: it.Line, Severity: Warning,
						Msg:  fmt.Sprintf("%s: %q is never allowed: `%s: %s` (%s) catches it first", v, alt, res.List, res.Pattern, where),
						Hint: "narrow the ask/never entry, or drop the allow entry: ask and never are checked before any allow list"})
					break
				}
			}
		}
	}
	return out
}

func hasTypedEntry(items []loops.Item) bool {
	for _, it := range items {
		if loops.LooksTyped(it.Text) {
			return true
		}
	}
	return false
}
