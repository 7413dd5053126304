package cli

import (
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/spf13/cobra"
)

type recordVerifyOptions struct {
	head   string
	git    bool
	replay bool
	json   bool
}

func newRecordVerifyCmd(app *App) *cobra.Command {
	var o recordVerifyOptions
	cmd := &cobra.Command{
		Use:   "verify [--head HASH] [--git] [--replay] [--json]",
		Short: "verify every chain and print each head",
		Long: `Verify the live record: every writer's chain on refs/gitwarrant/<writer>
(seq, prev and hash of each entry), every work-tree copy against its ref
(a copy may be shorter — the next commit brings it up — never different),
every writer this clone recorded as still has its ref, and no committed
record file was changed. Each finding names the file or ref, the line,
the entry and the kind of problem.

  --head HASH  say where a pinned head sits: last (nothing since), present
               (the chain grew since, fine) or missing (likely truncation)
  --git        also check every Warrant-Head pinned in HEAD's history is
               still present in its chain
  --replay     recompute every check's verdict against the loop as it was
               (read from Git by its blob id) and flag any that differ
  --json       print {"chains": [...], "findings": [...]}` + "\n" + recordExitHelp,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runRecordVerify(app, o)
		},
	}
	cmd.Flags().StringVar(&o.head, "head", "", "a pinned head hash to look for")
	cmd.Flags().BoolVar(&o.git, "git", false, "check heads pinned in commit messages")
	cmd.Flags().BoolVar(&o.replay, "replay", false, "recompute past verdicts")
	jsonFlag(cmd, &o.json)
	return cmd
}

// verifyJSON is the stable --json shape of `record verify`.
type verifyJSON struct {
	OK       bool          `json:"ok"`
	Chains   []chainJSON   `json:"chains"`
	Findings []findingJSON `json:"findings"`
}

type chainJSON struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Ref     string `json:"ref,omitempty"`
	Entries int64  `json:"entries"`
	Head    string `json:"head,omitempty"`
	Note    string `json:"note,omitempty"`
}

type findingJSON struct {
	Path   string `json:"path"`
	Line   int64  `json:"line,omitempty"`
	Seq    int64  `json:"seq,omitempty"`
	Kind   string `json:"kind"`
	Detail string `json:"detail,omitempty"`
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
	v, err := r.Verify()
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	var notes []string // --head, --git and --replay summaries
	if o.head != "" {
		note, f := headStatus(r, o.head)
		notes = append(notes, note)
		if f != nil {
			v.Findings = append(v.Findings, *f)
		}
	}
	if o.git {
		note, fs, err := pinFindings(r)
		if err != nil {
			return &ExitError{Code: ExitError1, Err: err}
		}
		notes = append(notes, note)
		v.Findings = append(v.Findings, fs...)
	}
	if o.replay {
		note, fs, err := replayFindings(r)
		if err != nil {
			return &ExitError{Code: ExitError1, Err: err}
		}
		notes = append(notes, note...)
		v.Findings = append(v.Findings, fs...)
	}
	if o.json {
		code := ExitOK
		if !v.OK() {
			code = ExitError1
		}
		return emitJSON(app, toVerifyJSON(v), code)
	}
	printVerification(app.IO.Out, v, notes)
	if !v.OK() {
		return &ExitError{Code: ExitError1, Err: fmt.Errorf("record verification failed (%d problem(s))", len(v.Findings)),
			Hint: "a torn last line is an interrupted write; a work-tree copy that differs from its ref can be brought back with `gitwarrant record restore`; a ref that is gone or broken is lost evidence — restore it from a remote (`gitwarrant record fetch`) or a backup"}
	}
	return nil
}

func toVerifyJSON(v *record.Verification) verifyJSON {
	out := verifyJSON{OK: v.OK(), Chains: []chainJSON{}, Findings: []findingJSON{}}
	for _, c := range v.Chains {
		out.Chains = append(out.Chains, chainJSON{Name: c.Name, Path: c.Path, Ref: c.Ref, Entries: c.Entries, Head: c.Head, Note: c.Note})
	}
	for _, f := range v.Findings {
		out.Findings = append(out.Findings, findingJSON{Path: f.Path, Line: f.Line, Seq: f.Seq, Kind: f.Kind, Detail: f.Detail})
	}
	return out
}

// printVerification prints one line per chain, one per finding, then notes.
func printVerification(w io.Writer, v *record.Verification, notes []string) {
	if len(v.Chains) == 0 {
		fmt.Fprintln(w, "no chains yet: the record is empty")
	}
	for _, c := range v.Chains {
		head := c.Head
		if head == "" {
			head = "(empty)"
		}
		where := c.Path
		if c.Ref != "" {
			where = c.Ref
		}
		fmt.Fprintf(w, "ok    %s  %d entries  head %s\n", where, c.Entries, head)
		if c.Note != "" {
			fmt.Fprintf(w, "      %s\n", c.Note)
		}
	}
	for _, f := range v.Findings {
		fmt.Fprintf(w, "FAIL  %s\n", f)
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
}

// headStatus says where a pinned head sits among the chains' heads.
func headStatus(r *record.Record, head string) (string, *record.Finding) {
	st, chainName, seq, total, err := r.FindHead(head)
	switch {
	case err != nil:
		return "", &record.Finding{Path: head, Kind: record.KindUnreadable, Detail: err.Error()}
	case st == chain.HeadIsLast:
		return fmt.Sprintf("head  %s is the last entry (#%d) of %s", head, seq, chainName), nil
	case st == chain.HeadPresent:
		return fmt.Sprintf("head  %s is entry #%d of %s, which has grown to %d entries since (fine)", head, seq, chainName, total), nil
	}
	return "", &record.Finding{Path: head, Kind: record.KindPinMissing, Detail: "in no chain: the record was likely truncated or rewritten after it was pinned"}
}

// pinFindings checks Warrant-Head trailers in history.
func pinFindings(r *record.Record) (string, []record.Finding, error) {
	pins, err := r.VerifyGit()
	if err != nil {
		return "", nil, err
	}
	var fs []record.Finding
	for _, p := range pins {
		if p.Status == chain.HeadMissing {
			fs = append(fs, record.Finding{Path: p.Path, Kind: record.KindPinMissing,
				Detail: fmt.Sprintf("commit %s pins %s, which is no longer in that chain: it was truncated or rewritten since", p.Commit[:12], p.Hash)})
		}
	}
	line := fmt.Sprintf("git   %d pinned head(s) in history, %d missing", len(pins), len(fs))
	if repo := r.Repo(); repo != nil && repo.IsShallow() {
		// A pin in the commits the clone left out is neither counted nor
		// checked: say so, rather than let the count read as the whole.
		line += "; the clone is shallow, so pins in the history it left out are not checked — " + gitx.FetchHistory
	}
	return line, fs, nil
}

// replayFindings flags check entries whose verdict differs now.
func replayFindings(r *record.Record) ([]string, []record.Finding, error) {
	xs, err := r.Replay()
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	var fs []record.Finding
	skipped := 0
	for _, x := range xs {
		switch {
		case x.Problem != "":
			skipped++
			notes = append(notes, fmt.Sprintf("skip  %s#%d [%s]: %s", x.Chain, x.Seq, x.Loop, x.Problem))
		case x.Differs():
			why := ""
			if x.EngineChanged {
				why = " (decided by another engine version: the matcher changed)"
			}
			fs = append(fs, record.Finding{Path: x.Chain, Seq: x.Seq, Kind: record.KindReplay,
				Detail: fmt.Sprintf("[%s] recorded %s, replay gives %s by %q%s", x.Loop, x.Recorded, x.Now, x.Rule, why)})
		}
	}
	notes = append(notes, fmt.Sprintf("replay %d check(s) recomputed, %d differ, %d could not be replayed", len(xs)-skipped, len(fs), skipped))
	return notes, fs, nil
}

// isEntryHash accepts an entry hash with or without its "sha256:" prefix.
func isEntryHash(s string) bool {
	s = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "sha256:")
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
