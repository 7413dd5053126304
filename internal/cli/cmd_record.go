package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/spf13/cobra"
)

// recordExitHelp is the exit table of the record subcommands.
const recordExitHelp = `
Exit status:
  0  success
  1  usage error, or the record failed to verify`

func newRecordCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "record <add|log|verify|push>",
		Short: "read, add to, verify and push the hash-chained record",
		Long: `The record is one SHA-256 hash chain per writer (.gitwarrant/record/<branch>-<clone>.jsonl),
each entry also committed to refs/gitwarrant/<writer>, and a docket
record.jsonl read as one more chain.`,
	}
	cmd.AddCommand(newRecordAddCmd(app), newRecordLogCmd(app), newRecordVerifyCmd(app), newRecordPushCmd(app))
	return cmd
}

// openRecord finds the project and opens its record.
func openRecord(app *App) (*record.Record, error) {
	p, err := app.Project()
	if err != nil {
		return nil, err
	}
	r, err := record.Open(p)
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	if app.Now != nil {
		r.Now = app.Now
	}
	return r, nil
}

type recordAddOptions struct{ did, saw, skipped, stopped, note string }

func newRecordAddCmd(app *App) *cobra.Command {
	var o recordAddOptions
	cmd := &cobra.Command{
		Use:   "add <loop> [--did …] [--saw …] [--skipped …] [--stopped …] [--note …]",
		Short: "append a note entry: what was done, seen, skipped or stopped",
		Long:  "Append a note entry to this writer's chain. At least one field is required; the loop must exist." + "\n" + recordExitHelp,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRecordAdd(app, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.did, "did", "", "what was done")
	f.StringVar(&o.saw, "saw", "", "what was observed")
	f.StringVar(&o.skipped, "skipped", "", "what was deliberately not done")
	f.StringVar(&o.stopped, "stopped", "", "where and why the work stopped")
	f.StringVar(&o.note, "note", "", "anything else")
	return cmd
}

func runRecordAdd(app *App, o recordAddOptions, args []string) error {
	if len(args) != 1 {
		return Usagef("example: gitwarrant record add appeal --did \"drafted the appeal letter\"", "record add needs exactly one loop name (got %d argument(s))", len(args))
	}
	if o.did == "" && o.saw == "" && o.skipped == "" && o.stopped == "" && o.note == "" {
		return Usagef("say what happened with --did, --saw, --skipped, --stopped or --note", "record add needs at least one field")
	}
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	l, err := loadLoop(r.Project(), args[0])
	if err != nil {
		return err
	}
	e, err := r.Append(chain.Entry{Loop: l.Name, Kind: chain.KindNote, Via: "cli",
		Did: o.did, Saw: o.saw, Skipped: o.skipped, Stopped: o.stopped, Note: o.note})
	var refErr *record.RefError
	if errors.As(err, &refErr) {
		fmt.Fprintf(app.IO.Out, "recorded #%d %s\n", e.Seq, e.Hash)
		return &ExitError{Code: ExitError1, Err: err, Hint: "run `gitwarrant record verify` to see the state of the record"}
	}
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	fmt.Fprintf(app.IO.Out, "recorded #%d %s\n", e.Seq, e.Hash)
	return nil
}

type recordLogOptions struct {
	n    int
	json bool
}

// logEntryJSON is the stable --json shape of one log line: the chain it
// came from and the entry exactly as hashed.
type logEntryJSON struct {
	Chain string         `json:"chain"`
	Entry map[string]any `json:"entry"`
}

func newRecordLogCmd(app *App) *cobra.Command {
	var o recordLogOptions
	cmd := &cobra.Command{
		Use:   "log [loop]",
		Short: "show the record, all chains merged by time",
		Long: `Show entries from every chain merged by timestamp, each with its chain named.
With --json, one object per line (JSON Lines): {"chain": …, "entry": …},
the entry exactly as hashed, with its hash.` + "\n" + recordExitHelp,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRecordLog(app, o, args)
		},
	}
	cmd.Flags().IntVarP(&o.n, "n", "n", 0, "show only the last N entries")
	jsonFlag(cmd, &o.json)
	return cmd
}

func runRecordLog(app *App, o recordLogOptions, args []string) error {
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	all, err := r.Entries()
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	var es []record.LoggedEntry
	for _, e := range all {
		if len(args) == 0 || e.Loop == args[0] {
			es = append(es, e)
		}
	}
	if o.n > 0 && len(es) > o.n {
		es = es[len(es)-o.n:]
	}
	lines := newJSONLines(app.IO.Out)
	for _, e := range es {
		if o.json {
			fields := e.Fields()
			fields["hash"] = e.Hash
			if err := lines.Write(logEntryJSON{Chain: e.Chain, Entry: fields}); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(app.IO.Out, "%s  %s#%d  %s\n", e.TS, e.Chain, e.Seq, describeEntry(e.Entry))
	}
	if len(es) == 0 && !o.json {
		fmt.Fprintln(app.IO.Err, "the record is empty")
	}
	return nil
}

// describeEntry is one human line for an entry.
func describeEntry(e chain.Entry) string {
	s := strings.TrimPrefix(record.Subject(e), "warrant: ")
	if i := strings.LastIndex(s, " #"); i >= 0 {
		s = s[:i]
	}
	if e.Kind == chain.KindCheck && e.Rule != "" {
		s += "  — " + e.Rule
	}
	return s
}

func newRecordPushCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "push [remote]",
		Short: "push the refs/gitwarrant/* record refs (default remote: origin)",
		Long: `Push every refs/gitwarrant/* ref with an explicit refspec. Your push
configuration is not changed.` + "\n" + recordExitHelp,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := openRecord(app)
			if err != nil {
				return err
			}
			remote := ""
			if len(args) == 1 {
				remote = args[0]
			}
			out, err := r.Push(remote)
			if err != nil {
				fmt.Fprint(app.IO.Err, out)
				return &ExitError{Code: ExitError1, Err: err}
			}
			if remote == "" {
				remote = "origin"
			}
			fmt.Fprint(app.IO.Out, pushSummary(remote, out))
			return nil
		},
	}
}

// pushSummary turns `git push --porcelain` output into one readable line
// per record ref: what happened to it on the remote.
func pushSummary(remote, porcelain string) string {
	words := map[byte]string{' ': "updated", '+': "forced", '-': "deleted", '*': "new", '!': "rejected", '=': "up to date"}
	var b strings.Builder
	n := 0
	for _, l := range strings.Split(porcelain, "\n") {
		if len(l) < 2 || l[1] != '\t' {
			continue
		}
		fields := strings.Split(l[2:], "\t")
		ref, _, _ := strings.Cut(fields[0], ":")
		what, ok := words[l[0]]
		if !ok {
			what = "?"
		}
		if len(fields) > 1 && l[0] == '!' {
			what += " " + fields[1]
		}
		fmt.Fprintf(&b, "  %-10s  %s\n", what, ref)
		n++
	}
	if n == 0 {
		return "record push: no record refs to push to " + remote + "\n"
	}
	return fmt.Sprintf("record push: %d record ref(s) to %s\n", n, remote) + b.String()
}
