package cli

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/review"
	"github.com/gitwarrant/gitwarrant/internal/warrantdiff"
	"github.com/spf13/cobra"
)

type reviewOptions struct {
	min                 int
	loop, key, signer   string
	generalize, yes, ls bool
}

func newReviewCmd(app *App) *cobra.Command {
	var o reviewOptions
	cmd := &cobra.Command{
		Use:   "review [--min N] [--loop L] [--generalize] [--yes]",
		Short: "widen a warrant where it chafes: repeated asks and agents' proposals, each a signed amend",
		Long: `Cluster the asks that repeat in the record (same loop and action; for a
tool call, the same command) and the agents' open proposals, and offer each
as the exact warrant entry that would answer it, with its diff. Targets the
loop's ask or never lists match — and anything the baseline or
self-protection guards — are never offered, however often they recur.

At a terminal, each is applied only on "y" (r rejects it, recorded as a
note); each applied item is a signed amend in its own commit. Without a
terminal nothing changes unless --yes is given, and the amends are still
signed. A proposal whose loop changed since it was made is shown as stale
and never applied. --generalize also shows the wider command prefix
(Bash(go vet *)) and which recorded calls it would admit.

Exit status:
  0  nothing to review, or every offered item was decided
  1  no terminal and no --yes (nothing changed), or an amend failed`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runReview(app, o) },
	}
	f := cmd.Flags()
	f.IntVar(&o.min, "min", 2, "how many times an ask must repeat")
	f.StringVar(&o.loop, "loop", "", "only this loop")
	f.BoolVar(&o.generalize, "generalize", false, "also show the wider command prefix and what else it admits")
	f.BoolVar(&o.yes, "yes", false, "apply every offered item without asking (still signed)")
	f.BoolVar(&o.ls, "list", false, "only list what would be offered")
	f.StringVar(&o.key, "key", "", "SSH key to sign with (default: git's user.signingkey)")
	f.StringVar(&o.signer, "signer", "", signerFlagHelp)
	return cmd
}

func runReview(app *App, o reviewOptions) error {
	if o.min < 1 {
		return Usagef("e.g. --min 3", "--min must be at least 1")
	}
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	// Streamed: only what a review reads is kept — asks, amends,
	// proposals and notes — so an allow-heavy record costs its reading.
	var entries []chain.Entry
	err = r.Log(record.LogFilter{}, 0, func(e record.LoggedEntry) error {
		switch {
		case e.Kind == chain.KindCheck && e.Verdict == "ask", e.Kind == chain.KindAmend, e.Kind == chain.KindProposal, e.Kind == chain.KindNote && len(e.Extra) > 0:
			entries = append(entries, e.Entry)
		}
		return nil
	})
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	dir := r.Project().LoopsDir()
	items := review.Collect(entries, review.Options{Min: o.min, Loop: o.loop}, askMapper, reviewScreen(app, dir), loopDigest(dir))
	out := app.IO.Out
	if len(items) == 0 {
		fmt.Fprintln(out, "nothing to review: no ask repeats and no proposal is open")
		return nil
	}
	fmt.Fprintf(out, "%d proposed amendment(s) — from repeated asks in the record and agents' proposals\n\n", len(items))
	for i, it := range items {
		fmt.Fprintf(out, "  %d. %s\n", i+1, describeItem(it))
		if o.generalize {
			printGeneralized(app, it, entries)
		}
	}
	fmt.Fprintln(out)
	if o.ls {
		return nil
	}
	if !o.yes && !app.IO.CanPrompt() {
		return Usagef("run it at a terminal to decide each one, or pass --yes (every amend is still signed)", "no terminal to confirm on: nothing was changed")
	}
	in := bufio.NewReader(app.IO.In)
	for _, it := range items {
		if err := decideItem(app, r, in, it, o); err != nil {
			return err
		}
	}
	return nil
}

func describeItem(it review.Item) string {
	verb := "allow " + it.List
	switch it.List {
	case "ask", "never", "reserved":
		verb = it.List
	}
	if it.Op == "remove" {
		verb = "remove from " + it.List
	}
	s := fmt.Sprintf("%s — %s: %q", it.Loop, verb, it.Pattern)
	if it.Proposal != "" {
		s += " (proposed"
		if it.Rationale != "" {
			s += ": " + it.Rationale
		}
		s += ")"
		if it.Stale {
			s += " — STALE: the loop changed since; not applied"
		} else if it.Held != "" {
			s += " — HELD: " + it.Held + "; not applied"
		}
	} else {
		s += fmt.Sprintf(" (asked %d×)", it.Count)
	}
	return s
}

// decideItem shows one item's diff and applies it on y, records a
// rejection on r, and leaves it on anything else.
func decideItem(app *App, r *record.Record, in *bufio.Reader, it review.Item, o reviewOptions) error {
	out := app.IO.Out
	if it.Stale {
		fmt.Fprintf(out, "%s: stale, not applied\n", describeItem(it))
		return nil
	}
	if it.Held != "" {
		fmt.Fprintln(out, describeItem(it))
		return nil
	}
	if !o.yes {
		fmt.Fprintf(app.IO.Err, "%s? [y/N/r] ", describeItem(it))
		ans, _ := in.ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(ans)) {
		case "y", "yes":
		case "r", "reject":
			return rejectItem(app, r, it)
		default:
			fmt.Fprintln(out, "  skipped")
			return nil
		}
	}
	ao := amendOptions{remove: it.Op == "remove", yes: true, key: o.key, signer: o.signer, prop: it.Proposal}
	plan, err := planAmend(app, r, ao, []string{it.Loop, it.List, it.Pattern})
	if err != nil {
		return err
	}
	return applySigned(app, r, plan, ao)
}

func rejectItem(app *App, r *record.Record, it review.Item) error {
	extra := map[string]any{review.RejectedKey: it.Key()}
	if it.Proposal != "" {
		extra["rejects"] = it.Proposal
	}
	e, err := r.Append(chain.Entry{Kind: chain.KindNote, Loop: it.Loop, Via: "cli",
		Note: fmt.Sprintf("review: rejected %s %s %q", it.List, it.Op, it.Pattern), Extra: extra})
	if err != nil {
		return &ExitError{Code: ExitError1, Err: fmt.Errorf("recording the rejection: %w", err)}
	}
	fmt.Fprintf(app.IO.Out, "  rejected (entry %d)\n", e.Seq)
	return nil
}

func printGeneralized(app *App, it review.Item, entries []chain.Entry) {
	g, ok := review.Generalize(it.Pattern)
	if !ok {
		return
	}
	fmt.Fprintf(app.IO.Out, "     wider: %s\n", g)
	others := admitted(g, it, entries)
	if len(others) == 0 {
		fmt.Fprintln(app.IO.Out, "       would also admit: nothing else the record has seen")
		return
	}
	fmt.Fprintln(app.IO.Out, "       would also admit, from the record:")
	for _, c := range others {
		fmt.Fprintf(app.IO.Out, "         %s\n", c)
	}
}

// loopDigest gives a loop file's current SHA-256, "" when it is gone.
func loopDigest(dir string) func(string) string {
	load := loopCache(dir)
	return func(name string) string {
		l, err := load(name)
		if err != nil {
			return ""
		}
		return l.Digest
	}
}

var _ = warrantdiff.LineDiff
