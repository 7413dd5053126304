package compile

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gitwarrant/gitwarrant/internal/features"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Caps that keep the index small enough to stay resident (guide "Routing &
// context scale": rules scale on disk, not in context). With them, 100
// realistic loops render in well under 6,000 tokens (see TestIndexBudget).
const (
	maxIndexLine  = 160 // bytes of one loop's index line, name included
	maxIndexDesc  = 72  // bytes of the description in it, so triggers keep room
	maxNeverEntry = 90  // bytes of one hard stop's text
	maxNeverLoops = 3   // loops named after a hard stop before counting them
)

// mcpOr is " or <alt>" when the MCP server exists, else "".
func mcpOr(alt string) string {
	if !features.MCP {
		return ""
	}
	return " or " + alt
}

// RenderIndex renders the tiered form of the block: the header, the
// always-resident hard stops (every loop's never list, identical entries
// merged across loops), and one line per loop (name, description,
// triggers). Details are fetched on demand with `gitwarrant show <loop>` or
// the MCP tool loop_context once the server exists.
func RenderIndex(ls []*loops.Loop, opts Options) string {
	ls = sorted(ls)
	cmd := opts.command()
	var b strings.Builder
	b.WriteString("# Agent warrant (gitwarrant) — index\n\n")
	fmt.Fprintf(&b, "This repository bounds agent work with %s in `.gitwarrant/loops/`. Only the hard stops and one line per loop are here. Before working in a loop, fetch its brief, procedure and warrant: `%s show <loop>`%s.\n\n", plural(len(ls), "loop"), cmd, mcpOr("MCP `loop_context`"))
	b.WriteString("## Check before you act\n\n")
	fmt.Fprintf(&b, "- Route: `%s match \"<task>\"` (exit 2: no loop covers it — ask the human).\n", cmd)
	fmt.Fprintf(&b, "- Check: `%s check <loop> <read|draft|change|send> \"<target>\"`%s. Exit 0 allow; 2 ask — get a human's approval first; 3 deny; 1 error — treat as ask.\n", cmd, mcpOr("MCP `warrant_check`"))
	if features.MCP {
		fmt.Fprintf(&b, "- MCP tools: %s.\n", codeList(MCPTools))
	}
	fmt.Fprintf(&b, "- Unlisted means ask. `never` means never, even with approval. Do not edit `.gitwarrant/` or widen your own warrant: tell the human what you need%s; only a human amends. Leave the evidence each loop's record list asks for: `%s record add <loop> --did \"…\"`%s.\n", mcpAlt("`propose_amendment`"), cmd, mcpAlt("`record_note`"))
	writeNeverTier(&b, ls)
	b.WriteString("\n## Loops\n\n")
	for _, l := range ls {
		b.WriteString(indexLine(l))
		b.WriteString("\n")
	}
	return b.String()
}

// hardStop is one distinct never entry and the loops that declare it.
type hardStop struct {
	text  string
	loops []string
}

// writeNeverTier writes every never entry once, naming the loops that
// declare it. Entries are merged when they are the same text up to case and
// spacing, which is how shared hard stops are usually copied between loops.
func writeNeverTier(b *strings.Builder, ls []*loops.Loop) {
	byKey := map[string]*hardStop{}
	var stops []*hardStop
	for _, l := range ls {
		for _, it := range l.Warrant.Never {
			text := oneLine(it.Text)
			if text == "" {
				continue
			}
			key := strings.ToLower(text)
			s := byKey[key]
			if s == nil {
				s = &hardStop{text: text}
				byKey[key] = s
				stops = append(stops, s)
			}
			if len(s.loops) == 0 || s.loops[len(s.loops)-1] != l.Name {
				s.loops = append(s.loops, l.Name)
			}
		}
	}
	if len(stops) == 0 {
		return
	}
	sort.SliceStable(stops, func(i, j int) bool { return strings.ToLower(stops[i].text) < strings.ToLower(stops[j].text) })
	b.WriteString("\n## Hard stops — never, not even with approval\n\n")
	for _, s := range stops {
		fmt.Fprintf(b, "- %s (%s)\n", clip(s.text, maxNeverEntry), whose(s.loops, len(ls)))
	}
}

// whose names the loops behind a hard stop, or counts them when many do.
func whose(names []string, total int) string {
	switch {
	case len(names) == total && total > 1:
		return "all loops"
	case len(names) > maxNeverLoops:
		return fmt.Sprintf("%d loops", len(names))
	}
	return strings.Join(names, ", ")
}

// indexLine is one loop's line: "- name: description · for: a; b; c",
// clipped to maxIndexLine bytes. The name is never clipped: it is the key
// the agent fetches details with.
func indexLine(l *loops.Loop) string {
	line := "- " + l.Name
	if l.Abstract {
		line += " (baseline, not a job)"
	}
	if d := oneLine(l.Description); d != "" {
		line += ": " + clip(d, maxIndexDesc)
	}
	if t := itemTexts(l.Triggers); len(t) > 0 {
		line += " · for: " + strings.Join(t, "; ")
	}
	return clip(line, max(maxIndexLine, len(l.Name)+3))
}

// clip shortens s to at most n bytes, at a word boundary when one is near,
// never inside a UTF-8 sequence, and marks the cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ell = "…"
	cut := n - len(ell)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > cut*3/4 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ,;·:") + ell
}
