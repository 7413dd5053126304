package ci

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/warrantdiff"
)

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Verdict is the one-line outcome.
func (r *Report) Verdict() string {
	if r.OK() {
		return "passed"
	}
	var why []string
	if n := len(r.Uncovered()); n > 0 {
		why = append(why, fmt.Sprintf("%d unsigned widening(s)", n))
	}
	if n := len(r.Findings); n > 0 {
		why = append(why, fmt.Sprintf("%d chain finding(s)", n))
	}
	if n := len(r.Lint); n > 0 {
		why = append(why, fmt.Sprintf("%d lint error(s)", n))
	}
	if n := len(r.Unreviewed); n > 0 {
		why = append(why, fmt.Sprintf("%d path(s) this gate does not compare", n))
	}
	if r.Strict && len(r.Gate) > 0 {
		why = append(why, fmt.Sprintf("%d change(s) to the gate itself (--strict)", len(r.Gate)))
	}
	return "failed: " + strings.Join(why, ", ")
}

// FileOf is the file a change is on: its loop file (the parent's, when
// inherited) or allowed_signers.
func FileOf(projRel string, c warrantdiff.Change) string {
	if c.List == warrantdiff.SignersList {
		return path.Join(projRel, "allowed_signers")
	}
	l := c.Loop
	if c.Via != "" {
		l = c.Via
	}
	return path.Join(projRel, "loops", l+loops.FileSuffix)
}

// Text writes the report for a terminal.
func (r *Report) Text(w io.Writer) {
	fmt.Fprintf(w, "gitwarrant ci: merge base %s → %s (%s)\n\n", short(r.MergeBase), r.Head, short(r.HeadCommit))
	warrantdiff.Text(w, "merge base", r.Head, r.Changes)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "record chains")
	if len(r.Chains) == 0 {
		fmt.Fprintln(w, "  no chains")
	}
	for _, c := range r.Chains {
		state := "ok"
		if !c.OK {
			state = "BROKEN"
		}
		if c.Unchanged {
			fmt.Fprintf(w, "  %s: unchanged\n", c.Chain)
			continue
		}
		fmt.Fprintf(w, "  %s: %s (merge base %d entries, head %d, %d new)\n", c.Chain, state, c.BaseLast, c.HeadLast, c.New)
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "  ✗ %s seq %d at commit %s: %s — %s\n", orDash(f.Chain), f.Seq, short(f.Commit), f.Reason, f.Detail)
	}
	if len(r.Lint) > 0 {
		fmt.Fprintln(w, "\nlint errors in head's loops")
		for _, f := range r.Lint {
			fmt.Fprintf(w, "  %s:%d: %s\n", f.File, f.Line, f.Msg)
		}
	}
	if len(r.Unreviewed) > 0 {
		fmt.Fprintln(w, "\nwarrant paths this gate does not compare")
		for _, u := range r.Unreviewed {
			fmt.Fprintf(w, "  ✗ %s: %s\n", u.Path, u.Why)
		}
	}
	if len(r.Gate) > 0 {
		fmt.Fprintln(w, "\nchanges to the gate itself")
		for _, g := range r.Gate {
			fmt.Fprintf(w, "  warning: %s:%d: %s\n", g.File, g.Line, g.What)
		}
	}
	fmt.Fprintf(w, "\n%s\n", r.Verdict())
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Markdown writes the report for a job summary or pull-request comment;
// when maxAnnotated > 0, that many unsigned widenings are annotated
// elsewhere and the rest are listed here with file:line.
func (r *Report) Markdown(w io.Writer, projRel string, maxAnnotated int) {
	mark := "✅"
	if !r.OK() {
		mark = "❌"
	}
	fmt.Fprintf(w, "## %s gitwarrant: %s\n\nMerge base `%s` → `%s` (`%s`).\n\n", mark, r.Verdict(), short(r.MergeBase), r.Head, short(r.HeadCommit))
	warrantdiff.Markdown(w, "merge base", r.Head, r.Changes)
	if un := r.Uncovered(); maxAnnotated > 0 && len(un) > maxAnnotated {
		fmt.Fprintf(w, "\nUnsigned widenings beyond the %d annotated:\n\n", maxAnnotated)
		for _, c := range un[maxAnnotated:] {
			fmt.Fprintf(w, "- `%s:%d` %s %s %q\n", FileOf(projRel, c), c.Line, c.Op, c.List, c.Entry)
		}
	}
	fmt.Fprintln(w, "\n### Record chains")
	fmt.Fprintln(w)
	if len(r.Chains) > 0 {
		fmt.Fprintln(w, "| Chain | Merge base | Head | New | State |")
		fmt.Fprintln(w, "|---|---|---|---|---|")
		for _, c := range r.Chains {
			state := "ok"
			if !c.OK {
				state = "**broken**"
			}
			if c.Unchanged {
				fmt.Fprintf(w, "| `%s` | | | 0 | unchanged |\n", c.Chain)
				continue
			}
			fmt.Fprintf(w, "| `%s` | %d | %d | %d | %s |\n", c.Chain, c.BaseLast, c.HeadLast, c.New, state)
		}
	} else {
		fmt.Fprintln(w, "No chains.")
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "- ❌ `%s` seq %d, commit `%s`: %s — %s\n", orDash(f.Chain), f.Seq, short(f.Commit), f.Reason, f.Detail)
	}
	if len(r.Lint) > 0 {
		fmt.Fprintln(w, "\n### Lint errors in head's loops")
		fmt.Fprintln(w)
		for _, f := range r.Lint {
			fmt.Fprintf(w, "- `%s:%d` %s\n", f.File, f.Line, f.Msg)
		}
	}
	if len(r.Unreviewed) > 0 {
		fmt.Fprintln(w, "\n### Warrant paths this gate does not compare")
		fmt.Fprintln(w)
		for _, u := range r.Unreviewed {
			fmt.Fprintf(w, "- ❌ `%s` %s\n", u.Path, u.Why)
		}
	}
	if len(r.Gate) > 0 {
		fmt.Fprintln(w, "\n### Changes to the gate itself")
		fmt.Fprintln(w)
		for _, g := range r.Gate {
			fmt.Fprintf(w, "- ⚠️ `%s:%d` %s\n", g.File, g.Line, g.What)
		}
	}
}

// JSONReport is the stable JSON form of a report.
type JSONReport struct {
	OK         bool                     `json:"ok"`
	Verdict    string                   `json:"verdict"`
	Base       string                   `json:"base"`
	Head       string                   `json:"head"`
	MergeBase  string                   `json:"merge_base"`
	HeadCommit string                   `json:"head_commit"`
	Warrants   warrantdiff.JSONDiff     `json:"warrants"`
	Uncovered  int                      `json:"uncovered"`
	ChainOK    bool                     `json:"chain_ok"`
	Chains     []ChainResult            `json:"chains"`
	Findings   []ChainFinding           `json:"chain_findings"`
	Lint       []map[string]interface{} `json:"lint_errors"`
	Gate       []GateWarning            `json:"gate_warnings"`
	Unreviewed []Unreviewed             `json:"unreviewed"`
	Strict     bool                     `json:"strict"`
}

// JSON writes the report as one JSON document.
func (r *Report) JSON(w io.Writer) error {
	var buf bytes.Buffer
	if err := warrantdiff.JSON(&buf, "merge base", r.Head, r.Changes); err != nil {
		return err
	}
	j := JSONReport{OK: r.OK(), Verdict: r.Verdict(), Base: r.Base, Head: r.Head, MergeBase: r.MergeBase, HeadCommit: r.HeadCommit,
		Uncovered: len(r.Uncovered()), ChainOK: r.ChainOK(), Chains: r.Chains, Findings: r.Findings, Gate: r.Gate, Unreviewed: r.Unreviewed, Strict: r.Strict,
		Lint: []map[string]interface{}{}}
	if err := json.Unmarshal(buf.Bytes(), &j.Warrants); err != nil {
		return err
	}
	if j.Chains == nil {
		j.Chains = []ChainResult{}
	}
	if j.Findings == nil {
		j.Findings = []ChainFinding{}
	}
	if j.Gate == nil {
		j.Gate = []GateWarning{}
	}
	if j.Unreviewed == nil {
		j.Unreviewed = []Unreviewed{}
	}
	for _, f := range r.Lint {
		j.Lint = append(j.Lint, map[string]interface{}{"file": f.File, "line": f.Line, "check": f.Check, "message": f.Msg})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}
