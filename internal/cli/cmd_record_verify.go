package cli

import (
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/spf13/cobra"
)

type recordVerifyOptions struct {
	head   string
	git    bool
	replay bool
}

func newRecordVerifyCmd(app *App) *cobra.Command {
	var o recordVerifyOptions
	cmd := &cobra.Command{
		Use:   "verify [--head HASH] [--git] [--replay]",
		Short: "verify every chain and print each head",
		Long: `Verify every chain: seq, prev and hash of each entry. The first broken entry
is named with why (bad hash, bad prev, seq gap, unparsable line, torn last
line). Each chain's head is printed; pin it, or let the commit-msg hook pin
it in a Warrant-Head trailer.

  --head HASH  say where a pinned head sits: last (nothing since), present
               (the chain grew since, fine) or missing (likely truncation)
  --git        also check every Warrant-Head pinned in HEAD's history is
               still present in its chain
  --replay     recompute every check's verdict against the loop as it was
               (read from Git by its blob id) and flag any that differ` + "\n" + recordExitHelp,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runRecordVerify(app, o)
		},
	}
	cmd.Flags().StringVar(&o.head, "head", "", "a pinned head hash to look for")
	cmd.Flags().BoolVar(&o.git, "git", false, "check heads pinned in commit messages")
	cmd.Flags().BoolVar(&o.replay, "replay", false, "recompute past verdicts")
	return cmd
}

func runRecordVerify(app *App, o recordVerifyOptions) error {
	if o.head != "" && !isEntryHash(o.head) {
		return Usagef("pass a head as `gitwarrant record verify` prints it: sha256:<64 hex digits>",
			"--head %q is not an entry hash", o.head)
	}
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	reports, err := r.VerifyAll()
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	refs, err := r.VerifyRefs()
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	out := app.IO.Out
	if len(reports) == 0 && len(refs) == 0 {
		fmt.Fprintln(out, "no chains yet: the record is empty")
	}
	failed := printReports(out, r, reports) + printRefs(out, r, refs)
	if o.head != "" && !printHead(out, r, reports, o.head) {
		failed++
	}
	if o.git {
		n, err := printPins(out, r)
		if err != nil {
			return &ExitError{Code: ExitError1, Err: err}
		}
		failed += n
	}
	if o.replay {
		n, err := printReplay(out, r)
		if err != nil {
			return &ExitError{Code: ExitError1, Err: err}
		}
		failed += n
	}
	if failed > 0 {
		return &ExitError{Code: ExitError1, Err: fmt.Errorf("record verification failed (%d problem(s))", failed),
			Hint: "a torn last line is an interrupted write; any other break means the file was edited — restore it from Git or from its refs/gitwarrant ref"}
	}
	return nil
}

func relTo(r *record.Record, path string) string {
	if rel, err := filepath.Rel(r.Project().Root, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}

// printReports prints one line per chain and returns how many failed.
func printReports(w io.Writer, r *record.Record, reports []*chain.Report) int {
	failed := 0
	for _, rep := range reports {
		name := relTo(r, rep.Path)
		if rep.OK() {
			head := rep.Head
			if head == "" {
				head = "(empty)"
			}
			fmt.Fprintf(w, "ok    %s  %d entries  head %s\n", name, rep.Entries, head)
			continue
		}
		failed++
		b := rep.Break
		fmt.Fprintf(w, "FAIL  %s:%d: %s at entry %d", name, b.Line, b.Reason, b.Seq)
		if b.Detail != "" {
			fmt.Fprintf(w, " (%s)", b.Detail)
		}
		if rep.Entries > 0 {
			fmt.Fprintf(w, "; %d entries verified before it, last good head %s", rep.Entries, rep.Head)
		}
		fmt.Fprintln(w)
	}
	return failed
}

// printRefs prints each refs/gitwarrant/* ref that disagrees with its
// chain file (an ok ref is quiet: the chain's own line already shows it)
// and returns how many failed.
func printRefs(w io.Writer, r *record.Record, refs []record.RefCheck) int {
	failed := 0
	for _, c := range refs {
		if c.Problem == "" {
			continue
		}
		failed++
		fmt.Fprintf(w, "FAIL  %s (%d committed entries): %s\n", c.Ref, c.Entries, c.Problem)
	}
	return failed
}

// printHead says where a pinned head sits; false when it is missing.
// isEntryHash accepts an entry hash with or without its "sha256:" prefix,
// as chain.Report.HeadStatus does.
func isEntryHash(s string) bool {
	s = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "sha256:")
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

func printHead(w io.Writer, r *record.Record, reports []*chain.Report, head string) bool {
	for _, rep := range reports {
		switch st, seq := rep.HeadStatus(head); st {
		case chain.HeadIsLast:
			fmt.Fprintf(w, "head  %s is the last entry (#%d) of %s\n", head, seq, relTo(r, rep.Path))
			return true
		case chain.HeadPresent:
			fmt.Fprintf(w, "head  %s is entry #%d of %s, which has grown to %d entries since (fine)\n", head, seq, relTo(r, rep.Path), rep.Entries)
			return true
		}
	}
	fmt.Fprintf(w, "FAIL  head %s is in no chain: the record was likely truncated or rewritten after it was pinned\n", head)
	return false
}

// printPins checks Warrant-Head trailers in history; returns failures.
func printPins(w io.Writer, r *record.Record) (int, error) {
	pins, err := r.VerifyGit()
	if err != nil {
		return 0, err
	}
	failed := 0
	for _, p := range pins {
		if p.Status == chain.HeadMissing {
			failed++
			fmt.Fprintf(w, "FAIL  commit %s pins %s %s, which is no longer in that chain: it was truncated or rewritten since\n", p.Commit[:12], p.Path, p.Hash)
		}
	}
	fmt.Fprintf(w, "git   %d pinned head(s) in history, %d missing\n", len(pins), failed)
	return failed, nil
}

// printReplay flags check entries whose verdict differs now; returns failures.
func printReplay(w io.Writer, r *record.Record) (int, error) {
	xs, err := r.Replay()
	if err != nil {
		return 0, err
	}
	failed, skipped := 0, 0
	for _, x := range xs {
		switch {
		case x.Problem != "":
			skipped++
			fmt.Fprintf(w, "skip  %s#%d [%s]: %s\n", x.Chain, x.Seq, x.Loop, x.Problem)
		case x.Differs():
			failed++
			why := ""
			if x.EngineChanged {
				why = " (decided by another engine version: the matcher changed)"
			}
			fmt.Fprintf(w, "FAIL  %s#%d [%s]: recorded %s, replay gives %s by %q%s\n", x.Chain, x.Seq, x.Loop, x.Recorded, x.Now, x.Rule, why)
		}
	}
	fmt.Fprintf(w, "replay %d check(s) recomputed, %d differ, %d could not be replayed\n", len(xs)-skipped, failed, skipped)
	return failed, nil
}
