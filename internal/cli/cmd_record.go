package cli

import (
	"bufio"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/install"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/spf13/cobra"
)

// recordExitHelp is the exit table of the record subcommands that only
// read the record.
const recordExitHelp = `
Exit status:
  0  success
  1  usage error, or the record failed to verify`

// recordExit is the exit table of a record subcommand whose status 1 has
// causes of its own, named in why.
func recordExit(why string) string {
	return "\nExit status:\n  0  success\n  1  " + why
}

func newRecordCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "record <add|log|verify|export|restore|push|fetch>",
		Short: "read, add to, verify, export, restore, push and fetch the hash-chained record",
		Long: `The record is one SHA-256 hash chain per writer. In Git the live record is
refs/gitwarrant/<writer>: every check and note is a commit there, and the
work tree is never touched. Each commit brings the branch's copy,
.gitwarrant/record/<writer>/ (a folder of segments), up to the ref. A docket
record.jsonl is read as one more chain.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newRecordAddCmd(app), newRecordLogCmd(app), newRecordVerifyCmd(app), newRecordExportCmd(app),
		newRecordRestoreCmd(app), newRecordPushCmd(app), newRecordFetchCmd(app))
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
		Long: "Append a note entry to this writer's chain. At least one field is required; the loop must exist." + "\n" +
			recordExit("usage error, a loop that does not exist, or a record that fails to verify or cannot be appended to"),
		Args: cobra.ArbitraryArgs,
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
	l, err := loadLoop(app, r.Project(), args[0])
	if err != nil {
		return err
	}
	e, err := r.Append(chain.Entry{Loop: l.Name, Kind: chain.KindNote, Via: "cli",
		Did: o.did, Saw: o.saw, Skipped: o.skipped, Stopped: o.stopped, Note: o.note})
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	fmt.Fprintf(app.IO.Out, "recorded #%d %s\n", e.Seq, e.Hash)
	return nil
}

type recordLogOptions struct {
	n    int
	json bool
	f    record.LogFilter
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
		Use:   "log [loop] [-n N] [--since T] [--loop L] [--verdict V] [--via S] [--json]",
		Short: "show the record, all chains merged by time",
		Long: `Show entries from every chain merged by timestamp, each with its chain named,
read from the live record (the refs in Git). Streams: -n N reads only the
chains' tails.

  --since T    entries at or after T (RFC 3339, e.g. 2026-07-01 or
               2026-07-01T10:00:00Z)
  --loop L     entries of loop L (also the positional argument)
  --verdict V  check entries with verdict allow, ask or deny
  --via S      entries made through cli, hook (every agent's hook; "hook codex"
               for one client's), mcp or http

With --json, one object per line (JSON Lines): {"chain": …, "entry": …},
the entry exactly as hashed, with its hash.` + "\n" + recordExitHelp,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRecordLog(app, o, args)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&o.n, "n", "n", 0, "show only the last N entries")
	jsonFlag(cmd, &o.json)
	f.StringVar(&o.f.Since, "since", "", "entries at or after this time")
	f.StringVar(&o.f.Loop, "loop", "", "entries of this loop")
	f.StringVar(&o.f.Verdict, "verdict", "", "check entries with this verdict")
	f.StringVar(&o.f.Via, "via", "", "entries made through this surface")
	return cmd
}

func runRecordLog(app *App, o recordLogOptions, args []string) error {
	if len(args) == 1 {
		if o.f.Loop != "" && o.f.Loop != args[0] {
			return Usagef("give the loop once", "record log: loop %q and --loop %q disagree", args[0], o.f.Loop)
		}
		o.f.Loop = args[0]
	}
	since, err := parseSince(o.f.Since)
	if err != nil {
		return err
	}
	o.f.Since = since
	if o.n < 0 {
		return Usagef("example: -n 20", "record log -n must be positive (got %d)", o.n)
	}
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	// A full log allocates a few strings per entry and keeps almost
	// nothing: with Go's default target the collector runs every few MB.
	// A larger target halves the CPU at a million entries and keeps peak
	// memory near 50 MB (bench/record_1m.sh; docs/record.md#reading-the-record).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	out := bufio.NewWriterSize(app.IO.Out, 64<<10)
	defer out.Flush()
	lines := newJSONLines(out)
	count := 0
	err = r.Log(o.f, o.n, func(e record.LoggedEntry) error {
		count++
		if o.json {
			fields := e.Fields()
			fields["hash"] = e.Hash
			return lines.Write(logEntryJSON{Chain: e.Chain, Entry: fields})
		}
		_, err := fmt.Fprintf(out, "%s  %s#%d  %s\n", e.TS, e.Chain, e.Seq, describeEntry(e.Entry))
		return err
	})
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	if count == 0 && !o.json {
		fmt.Fprintln(app.IO.Err, "no entries")
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
	// Which loop a hook call ran under, and why (docs/sessions.md#the-record).
	if via, _ := e.Extra[hook.ExtraLoopVia].(string); via != "" {
		s += "  (loop by " + via
		if sess, _ := e.Extra[hook.ExtraSession].(string); sess != "" {
			s += ", session " + shortID(sess)
		}
		s += ")"
	}
	return s
}

// shortID is the first 8 characters of a session id, enough to tell
// sessions apart in a log line.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func newRecordPushCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "push [remote]",
		Short: "push the refs/gitwarrant/* record refs (default remote: origin)",
		Long: `Push every refs/gitwarrant/* ref with an explicit refspec. Your push
configuration is not changed. A ref the remote refuses as non-fast-forward
is never forced: the message says why and what to do.` + "\n" +
			recordExit("usage error, or a push that failed or that the remote refused for a ref (the message names\n     the ref and why)"),
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

func newRecordFetchCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "fetch [remote]",
		Short: "fetch the refs/gitwarrant/* record refs (default remote: origin)",
		Long: `Fetch every refs/gitwarrant/* ref with an explicit refspec, the counterpart
of ` + "`record push`" + `. A local ref is only ever fast-forwarded, never replaced.` + "\n" +
			recordExit("usage error, a fetch that failed (the remote's name, or your access), or a fetched ref\n     that does not extend the local one (the message names it)"),
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRecordRemote(app, args, (*record.Record).Fetch)
		},
	}
}

func runRecordRemote(app *App, args []string, op func(*record.Record, string) (string, error)) error {
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	remote := ""
	if len(args) == 1 {
		remote = args[0]
	}
	out, err := op(r, remote)
	fmt.Fprint(app.IO.Out, out)
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	return nil
}

func newRecordExportCmd(app *App) *cobra.Command {
	var writer string
	cmd := &cobra.Command{
		Use:   "export [--writer W]",
		Short: "write one writer's whole chain as a single spec-valid chain file",
		Long: `Write one writer's chain, read from its ref, to stdout as one JSONL chain
file that verifies under the Loop File Spec (for docket and other tools).
The default writer is this work tree's for the current branch.` + "\n" +
			recordExit("usage error, a writer with no chain here, or a chain that cannot be read"),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := openRecord(app)
			if err != nil {
				return err
			}
			w, err := pickWriter(r, writer)
			if err != nil {
				return err
			}
			out := bufio.NewWriterSize(app.IO.Out, 256<<10)
			if err := r.Export(w, out); err != nil {
				return &ExitError{Code: ExitError1, Err: err}
			}
			return out.Flush()
		},
	}
	writerFlag(cmd, &writer)
	return cmd
}

func newRecordRestoreCmd(app *App) *cobra.Command {
	var writer string
	cmd := &cobra.Command{
		Use:   "restore [--writer W]",
		Short: "bring a writer's work-tree chain back to its ref, saving the old copy aside",
		Long: `Move a writer's work-tree chain aside (under .git/gitwarrant/saved/) and write
again, from its ref, every file the last commit holds for it. Use it when
` + "`record verify`" + ` or a commit hook says a work-tree chain differs from its ref.
It says what it wrote, or that there was nothing to restore (no work-tree
copy, and none in the last commit); either way the next commit on the
writer's branch carries the ref's later entries — through gitwarrant's
pre-commit hook, so where that hook is not live it says so instead.
The default writer is this work tree's for the current branch.` + "\n" +
			recordExit("usage error, a writer with no chain here, or a file that cannot be moved aside or written"),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := openRecord(app)
			if err != nil {
				return err
			}
			w, err := pickWriter(r, writer)
			if err != nil {
				return err
			}
			done, err := r.Restore(w)
			if err != nil {
				return &ExitError{Code: ExitError1, Err: err}
			}
			hook := install.GitHook(install.DoctorEnv{Root: r.Project().Root, Getenv: app.Getenv}, "pre-commit")
			fmt.Fprintln(app.IO.Out, restoreReport(w, done, hook.Status == install.Live))
			return nil
		},
	}
	writerFlag(cmd, &writer)
	return cmd
}

// restoreReport says what record restore did: the files it wrote, where
// the old copy went, or that there was nothing to restore — and what the
// next commit will carry (docs/record.md#restore). That promise rests on
// gitwarrant's pre-commit hook, so where the hook is not live it says so
// and how to make it live instead.
func restoreReport(w string, d record.Restored, hookLive bool) string {
	ref := gitx.RecordRef(w)
	rest := fmt.Sprintf("the next commit on its branch carries %s's %s into it (gitwarrant's pre-commit hook)", ref, entries(d.RefEntries))
	if !hookLive {
		rest = fmt.Sprintf("gitwarrant's pre-commit hook, which carries %s's %s into the next commit on its branch, is not live in this clone — run `gitwarrant install` (`gitwarrant doctor` says why)", ref, entries(d.RefEntries))
	}
	switch {
	case d.Files == 0 && d.Saved == "":
		return fmt.Sprintf("nothing to restore: %s has no work-tree copy, and the last commit holds none of its files; %s", w, rest)
	case d.Files == 0:
		return fmt.Sprintf("moved %s's work-tree copy aside to %s; the last commit holds none of its files, so none was written back: %s", w, d.Saved, rest)
	}
	msg := fmt.Sprintf("restored %s from %s: wrote %s holding entries 1–%d, as the last commit has them", w, ref, pluralize(d.Files, "file"), d.Entries)
	if d.Saved != "" {
		msg += "; the old copy is in " + d.Saved
	}
	switch {
	case d.RefEntries > d.Entries && hookLive:
		msg += fmt.Sprintf("; the next commit on its branch carries entries %d–%d from the ref (gitwarrant's pre-commit hook)", d.Entries+1, d.RefEntries)
	case d.RefEntries > d.Entries:
		msg += fmt.Sprintf("; entries %d–%d are on the ref only, and gitwarrant's pre-commit hook, which carries them into the next commit, is not live in this clone — run `gitwarrant install` (`gitwarrant doctor` says why)", d.Entries+1, d.RefEntries)
	}
	return msg
}

// entries is "1 entry" or "n entries".
func entries(n int64) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

// writerFlag adds --writer W to export and restore.
func writerFlag(cmd *cobra.Command, writer *string) {
	cmd.Flags().StringVar(writer, "writer", "", "the writer `W` (default: this work tree's for the current branch; record verify names every writer)")
}

// pickWriter is --writer, else this work tree's writer.
func pickWriter(r *record.Record, w string) (string, error) {
	if w != "" {
		return w, nil
	}
	w, err := r.DefaultWriter()
	if err != nil {
		return "", &ExitError{Code: ExitError1, Err: err}
	}
	if w == "" {
		return "", Usagef("name one with --writer (`gitwarrant record verify` lists them)", "this branch has no writer here yet")
	}
	return w, nil
}
