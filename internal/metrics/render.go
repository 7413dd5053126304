package metrics

import (
	"fmt"
	"io"
	"strings"
)

// Text writes the report for a terminal, docket's layout.
func Text(w io.Writer, r Report) {
	fmt.Fprintf(w, "Warrant checks  %d\n", r.Checks)
	for _, row := range []struct {
		name string
		n    int
		what string
	}{{"allow", r.Allow, "ran on its own"}, {"ask", r.Ask, "stopped for a person"}, {"deny", r.Deny, "hard stop"}} {
		fmt.Fprintf(w, "  %-6s %5d  %s  %3d%%  %s\n", row.name, row.n, Bar(row.n, r.Checks, 18), r.Pct(row.n), row.what)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Autonomy")
	fmt.Fprintf(w, "  actions per intervention  %6.1f   proxy — checks ÷ (asks + denies)\n", r.ActionsPerIntervention)
	fmt.Fprintf(w, "  longest unattended run    %6d   consecutive allows, no human stop\n", r.LongestUnattended)
	fmt.Fprintf(w, "  warrant amendments        %6d   signed by a person\n", r.Amendments)
	fmt.Fprintf(w, "  proposals                 %6d   made by agents\n", r.Proposals)
	if r.HookAsks > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Hook asks")
		fmt.Fprintf(w, "  approved and ran          %6d   PostToolUse evidence\n", r.AsksRan)
		fmt.Fprintf(w, "  no evidence of running    %6d   refused or abandoned (inferred: PostToolUse fires only when a tool runs)\n", r.AsksNotRan)
	}
	kinds(w, r)
	table(w, "Per loop", r.ByLoop)
	table(w, "Per channel", r.ByChannel)
}

// kinds writes each kind's share of the checks, read first.
func kinds(w io.Writer, r Report) {
	if len(r.ByKind) == 0 {
		return
	}
	fmt.Fprintln(w, "\nPer kind of work")
	for _, k := range KindOrder(r.ByKind) {
		s := r.ByKind[k]
		fmt.Fprintf(w, "  %-8s %5d checks  %3d%% of all  allow %3d%%  ask %3d%%  deny %3d%%\n", k, s.Checks, r.Pct(s.Checks),
			s.Pct(s.Allow), s.Pct(s.Ask), s.Pct(s.Deny))
	}
}

// KindOrder returns the kinds present, narrowest first (read, draft,
// change, send), then any other action sorted.
func KindOrder(m map[string]Split) []string {
	var out []string
	for _, k := range []string{"read", "draft", "change", "send"} {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	for _, k := range Keys(m) {
		switch k {
		case "read", "draft", "change", "send":
		default:
			out = append(out, k)
		}
	}
	return out
}

func table(w io.Writer, title string, m map[string]Split) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", title)
	for _, k := range Keys(m) {
		s := m[k]
		name := k
		if name == "" {
			name = "(no loop)"
		}
		fmt.Fprintf(w, "  %-24s %5d checks  allow %3d%%  ask %3d%%  deny %3d%%\n", name, s.Checks, s.Pct(s.Allow), s.Pct(s.Ask), s.Pct(s.Deny))
	}
}

// Markdown writes the report for a pull request or a job summary, with a
// Mermaid pie chart of the split.
func Markdown(w io.Writer, r Report) {
	fmt.Fprintf(w, "### Warrant checks: %d\n\n", r.Checks)
	if r.Checks > 0 {
		fmt.Fprintln(w, "```mermaid")
		fmt.Fprintln(w, "pie title Verdicts")
		fmt.Fprintf(w, "    \"allow\" : %d\n    \"ask\" : %d\n    \"deny\" : %d\n", r.Allow, r.Ask, r.Deny)
		fmt.Fprintln(w, "```")
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "| verdict | checks | share | meaning |")
	fmt.Fprintln(w, "|---|---:|---:|---|")
	fmt.Fprintf(w, "| allow | %d | %d%% | ran on its own |\n| ask | %d | %d%% | stopped for a person |\n| deny | %d | %d%% | hard stop |\n\n",
		r.Allow, r.Pct(r.Allow), r.Ask, r.Pct(r.Ask), r.Deny, r.Pct(r.Deny))
	fmt.Fprintln(w, "| autonomy | value | |")
	fmt.Fprintln(w, "|---|---:|---|")
	fmt.Fprintf(w, "| actions per intervention | %.1f | proxy: checks ÷ (asks + denies) |\n", r.ActionsPerIntervention)
	fmt.Fprintf(w, "| longest unattended run | %d | consecutive allows |\n", r.LongestUnattended)
	fmt.Fprintf(w, "| warrant amendments | %d | signed by a person |\n", r.Amendments)
	fmt.Fprintf(w, "| hook asks that ran | %d | PostToolUse evidence |\n", r.AsksRan)
	fmt.Fprintf(w, "| hook asks with no evidence of running | %d | inferred: refused or abandoned |\n", r.AsksNotRan)
	for _, t := range []struct {
		title string
		m     map[string]Split
	}{{"kind", r.ByKind}, {"loop", r.ByLoop}, {"channel", r.ByChannel}} {
		if len(t.m) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n| %s | checks | allow | ask | deny |\n|---|---:|---:|---:|---:|\n", t.title)
		keys := Keys(t.m)
		if t.title == "kind" {
			keys = KindOrder(t.m)
		}
		for _, k := range keys {
			s := t.m[k]
			fmt.Fprintf(w, "| %s | %d | %d | %d | %d |\n", strings.ReplaceAll(k, "|", "\\|"), s.Checks, s.Allow, s.Ask, s.Deny)
		}
	}
}
