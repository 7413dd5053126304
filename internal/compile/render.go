package compile

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/features"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Options shape a render. The zero value is ready to use.
type Options struct {
	// Command is how the agent invokes the CLI; "gitwarrant" when empty.
	Command string
}

func (o Options) command() string {
	if o.Command == "" {
		return "gitwarrant"
	}
	return o.Command
}

// MCPTools are the tools of the `gitwarrant` MCP server (docs/mcp.md#tools);
// internal/mcp's tests hold this list to the server's own.
var MCPTools = []string{
	"list_loops",
	"loop_context",
	"warrant_check",
	"record_note",
	"match_loop",
	"propose_amendment",
	"get_proposal",
	"get_metrics",
}

// mcpAlt is " (or <alt>)" when the MCP server exists, else "": the
// context names no tool that is not there (features.MCP).
func mcpAlt(alt string) string {
	if !features.MCP {
		return ""
	}
	return " (or " + alt + ")"
}

// Compile renders loops and wraps them in the markers: the full render, or
// the tiered index when index is true. It is what every target receives.
func Compile(ls []*loops.Loop, opts Options, index bool) string {
	if index {
		return Block(RenderIndex(ls, opts))
	}
	return Block(Render(ls, opts))
}

// Render is the full render of the managed block's content: a header that
// tells the agent how to check before acting, then every loop's five layers
// (brief, procedure, warrant, reserved, record) with its description,
// triggers, goal, stop and budget. The output does not depend on the target,
// so CLAUDE.md and AGENTS.md may be the same file (a symlink) without the
// two compiles fighting. Nothing the human wrote is dropped: the preamble
// before the first Brief/Procedure heading is kept (spec "Body sections").
func Render(ls []*loops.Loop, opts Options) string {
	var b strings.Builder
	writeHeader(&b, opts, len(ls))
	ls = sorted(ls)
	for _, l := range ls {
		if l.Abstract {
			writeLoop(&b, l)
		}
	}
	for _, l := range ls {
		if !l.Abstract {
			writeLoop(&b, l)
		}
	}
	return b.String()
}

// sorted returns the loops ordered by name, so the block never changes
// because of directory order.
func sorted(ls []*loops.Loop) []*loops.Loop {
	out := append([]*loops.Loop(nil), ls...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// writeHeader writes the instructions every render starts with: how to
// check, what the exit codes mean, and what the agent must never do to the
// warrant itself (docs/design.md#what-gitwarrant-is: agents propose, only a human amends).
func writeHeader(b *strings.Builder, opts Options, n int) {
	cmd := opts.command()
	fmt.Fprintf(b, "# Agent warrant (gitwarrant)\n\n")
	fmt.Fprintf(b, "This repository bounds agent work with %s in `.gitwarrant/loops/`. Each loop says what to know (brief), how the work is done (procedure), what you may do without asking (warrant), what stays with the human (reserved) and what evidence you owe (record).\n\n", plural(n, "loop"))
	b.WriteString("## Check before you act\n\n")
	fmt.Fprintf(b, "- Which loop covers a task: `%s match \"<task>\"` (exit 2: no loop covers it — ask the human).\n", cmd)
	fmt.Fprintf(b, "- Before an action: `%s check <loop> <read|draft|change|send> \"<target>\"`. Exit 0 allow; 2 ask — stop and get a human's approval first; 3 deny — do not do it; 1 error — treat as ask.\n", cmd)
	b.WriteString("- Verbs: read = look at it; draft = produce it, it goes nowhere on its own; change = mutate state inside the sandbox; send = consequences leave the sandbox (email, publish, push, deploy, pay).\n")
	if features.MCP {
		fmt.Fprintf(b, "- MCP tools, where the `gitwarrant` MCP server is configured: %s.\n", codeList(MCPTools))
	}
	b.WriteString("- Unlisted means ask: anything no list covers needs a human. `never` means never — not even with approval.\n")
	fmt.Fprintf(b, "- Do not edit `.gitwarrant/` (loops, record, signers), git hooks or hook settings, and do not widen your own warrant: tell the human what change you need%s; only a human amends.\n", mcpAlt("propose it with the MCP tool `propose_amendment`"))
	fmt.Fprintf(b, "- When you finish or stop, leave the evidence the loop's record list asks for: `%s record add <loop> --did \"…\" --saw \"…\" --skipped \"…\" --stopped \"…\"`%s.\n", cmd, mcpAlt("the MCP tool `record_note`"))
}

// writeLoop writes one loop's section. An abstract loop is a baseline
// section (docs/loop-format.md#extends-and-abstract), written before the loops:
// rules the loops extending it carry, never a job of its own.
func writeLoop(b *strings.Builder, l *loops.Loop) {
	if l.Abstract {
		fmt.Fprintf(b, "\n## Baseline: %s\n\n", l.Name)
		fmt.Fprintf(b, "Not a job: no task is routed to it and it is never checked directly. Every loop with `extends: %s` carries these lists.\n\n", l.Name)
	} else {
		fmt.Fprintf(b, "\n## Loop: %s\n\n", l.Name)
	}
	if len(l.Inherits) > 0 {
		fmt.Fprintf(b, "Extends %s: its lists are included below.\n\n", strings.Join(l.Inherits, " → "))
	}
	if d := oneLine(l.Description); d != "" {
		fmt.Fprintf(b, "%s\n\n", d)
	}
	if len(l.Triggers) > 0 {
		fmt.Fprintf(b, "Use this loop for: %s\n\n", strings.Join(itemTexts(l.Triggers), "; "))
	}
	for _, f := range []struct{ label, text string }{{"Goal", l.Goal}, {"Stop when", l.Stop}, {"Budget", l.Budget}} {
		if t := oneLine(f.text); t != "" {
			fmt.Fprintf(b, "- %s: %s\n", f.label, t)
		}
	}
	if l.Goal != "" || l.Stop != "" || l.Budget != "" {
		b.WriteString("\n")
	}
	writeProse(b, "Notes", l.Preamble)
	writeProse(b, "Brief", l.Brief)
	writeProse(b, "Procedure", l.Procedure)
	writeWarrant(b, l)
	writeItems(b, "Reserved — stays with the human, always", l.Reserved)
	writeItems(b, "Record — evidence you owe when you finish or stop", l.Record)
}

// writeProse writes a prose layer verbatim under its heading.
func writeProse(b *strings.Builder, heading, text string) {
	text = strings.Trim(text, "\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	fmt.Fprintf(b, "### %s\n\n%s\n\n", heading, text)
}

// verbLabels explains each warrant list in the agent's terms.
var verbLabels = []struct{ list, label string }{
	{"read", "read — allowed without asking"},
	{"draft", "draft — allowed without asking"},
	{"change", "change — allowed without asking"},
	{"send", "send — allowed without asking"},
	{"ask", "ask — always a human first, whatever the verb"},
	{"never", "never — hard stop, not even with approval"},
}

// writeWarrant writes the six lists; an empty allow list is spelled out so
// the agent does not read silence as permission.
func writeWarrant(b *strings.Builder, l *loops.Loop) {
	b.WriteString("### Warrant\n\n")
	for _, v := range verbLabels {
		prose, calls := splitTyped(l.Warrant.List(v.list))
		text := "nothing listed"
		if len(prose) > 0 {
			text = quoteList(prose)
		}
		if len(calls) > 0 {
			if len(prose) == 0 {
				text = "no words"
			}
			text += "; tool calls: " + codeList(itemTexts(calls))
		}
		fmt.Fprintf(b, "- %s: %s\n", v.label, text)
	}
	b.WriteString("- anything else: ask\n\n")
	b.WriteString("Only the tool calls listed (docs/typed-entries.md) are allowed without asking; the words say what the work is for.\n\n")
}

// splitTyped separates natural-language entries from typed ones.
func splitTyped(items []loops.Item) (prose, calls []loops.Item) {
	for _, it := range items {
		if loops.LooksTyped(it.Text) {
			calls = append(calls, it)
		} else {
			prose = append(prose, it)
		}
	}
	return prose, calls
}

// writeItems writes a list layer as bullets.
func writeItems(b *strings.Builder, heading string, items []loops.Item) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "### %s\n\n", heading)
	for _, it := range items {
		fmt.Fprintf(b, "- %s\n", oneLine(it.Text))
	}
	b.WriteString("\n")
}

func itemTexts(items []loops.Item) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		if t := oneLine(it.Text); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// quoteList renders entries as "a", "b" so commas inside an entry (which
// split alternatives) stay visibly inside it.
func quoteList(items []loops.Item) string {
	q := itemTexts(items)
	for i, t := range q {
		q[i] = `"` + t + `"`
	}
	return strings.Join(q, ", ")
}

func codeList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// oneLine collapses whitespace, including newlines, so a scalar can never
// spill onto a line of its own.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
