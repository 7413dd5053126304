package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/sign"
	"github.com/gitwarrant/gitwarrant/internal/vouch"
	"github.com/gitwarrant/gitwarrant/internal/warrantdiff"
	"github.com/spf13/cobra"
)

type blessOptions struct {
	key, signer string
	yes         bool
}

func newBlessCmd(app *App) *cobra.Command {
	var o blessOptions
	cmd := &cobra.Command{
		Use:   "bless [<loop>…] [--key PATH] [--signer P] [--yes]",
		Short: "sign loops as they stand, so the gate puts them in force",
		Long: `Once allowed_signers names a signer, the gate puts a loop in force only as
bytes a signed entry of the record vouches for: an amend's result, or a
bless. A loop edited by hand is decided under its last signed version until
a signer blesses it. bless shows what changed since the version in force,
asks, and appends one signed bless entry covering the named loops (default:
every loop, and allowed_signers, whose bytes are not in force as they
stand). The first bless, when the record holds no trust root yet, signs
allowed_signers as well, with a key it lists. Commit the files as usual.
Human only (docs/signing.md#only-a-signed-warrant-is-in-force).

Exit status:
  0  blessed, or nothing to bless
  1  usage error or a refused signature (nothing was recorded)`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runBless(app, o, args) },
	}
	f := cmd.Flags()
	f.StringVar(&o.key, "key", "", "SSH key to sign with (default: git's user.signingkey)")
	f.StringVar(&o.signer, "signer", "", signerFlagHelp)
	f.BoolVar(&o.yes, "yes", false, "do not ask for confirmation (still signed)")
	return cmd
}

// blessFile is one file to bless, with the version in force it replaces.
type blessFile struct {
	vouch.File
	path          string
	before, after []byte
}

func runBless(app *App, o blessOptions, names []string) error {
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	st, err := vouch.New(r.Project()).State()
	if err != nil {
		return Failf("reading the record's signed entries: %v", err)
	}
	files, signers, err := planBless(r, st, names)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		fmt.Fprintln(app.IO.Out, "nothing to bless: every loop is in force as it stands")
		return nil
	}
	return applyBless(app, r, o, files, signers)
}

// planBless lists what to bless and the allowed_signers to verify it
// against: the ones in force, or — for the trust root — the work tree's.
func planBless(r *record.Record, st *vouch.State, names []string) ([]blessFile, *sign.AllowedSigners, error) {
	p := r.Project()
	cur, err := os.ReadFile(p.AllowedSigners())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, Failf("reading %s: %v", p.AllowedSigners(), err)
	}
	root := st.Signers == nil
	signers := st.Signers
	var files []blessFile
	if root {
		if st.Adopted && len(st.Problems) > 0 && strings.Contains(st.Problems[0], "trust roots") {
			return nil, nil, Failf("%s", st.Problems[0])
		}
		if signers, err = loadSigners(p.AllowedSigners()); err != nil {
			return nil, nil, err
		}
		files = append(files, blessFile{File: vouch.File{Loop: vouch.SignersFile, After: loops.Digest(cur)}, path: p.AllowedSigners(), after: cur})
	} else if d := loops.Digest(cur); d != st.SignersDigest {
		files = append(files, blessFile{File: vouch.File{Loop: vouch.SignersFile, Before: st.SignersDigest, After: d}, path: p.AllowedSigners(), before: st.SignersBytes, after: cur})
	}
	paths, err := loops.LoopFiles(p.LoopsDir())
	if err != nil {
		return nil, nil, &ExitError{Code: ExitError1, Err: err}
	}
	wanted := map[string]bool{}
	for _, n := range names {
		if !loops.ValidName(n) {
			return nil, nil, Usagef("run `gitwarrant list` to see the loops", "%q is not a loop name", n)
		}
		wanted[n] = true
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), loops.FileSuffix)
		if len(names) > 0 && !wanted[name] {
			continue
		}
		delete(wanted, name)
		data, err := loops.ReadFile(path)
		if err != nil {
			return nil, nil, &ExitError{Code: ExitError1, Err: err}
		}
		if _, err := loops.Parse(path, data); err != nil {
			return nil, nil, &ExitError{Code: ExitError1, Err: fmt.Errorf("%w — fix the loop before signing it", err)}
		}
		f := blessFile{File: vouch.File{Loop: name, After: loops.Digest(data)}, path: path, after: data}
		if !root {
			if st.Decide(name, data).InForce && len(names) == 0 {
				continue
			}
			if v := st.InForce(name, data); v != nil {
				if v.After == f.After {
					continue // already the version in force
				}
				f.Before = v.After
				f.before, _ = r.Repo().Blob(v.Blob)
			}
		}
		files = append(files, f)
	}
	for n := range wanted {
		return nil, nil, Usagef("run `gitwarrant list` to see the loops", "no loop named %s", n)
	}
	return files, signers, nil
}

// applyBless shows, asks, signs and appends the bless entry.
func applyBless(app *App, r *record.Record, o blessOptions, files []blessFile, signers *sign.AllowedSigners) error {
	repo := r.Repo()
	for i := range files {
		f := &files[i]
		rel := f.path
		if repo != nil {
			if x, err := repo.Rel(f.path); err == nil {
				rel = x
			}
			id, err := repo.WriteBlob(f.after)
			if err != nil {
				return Failf("not blessed, nothing was recorded: %v", err)
			}
			f.Blob = id
		}
		if f.Before == "" {
			// Nothing was in force to compare with: the whole file is
			// what is signed, and the person has it in front of them.
			fmt.Fprintf(app.IO.Out, "%s %s\n", rel, app.IO.Style().Dim(fmt.Sprintf("(no version in force yet: signing it as it stands, %d lines, %s)", strings.Count(string(f.after), "\n"), f.After)))
			continue
		}
		fmt.Fprintf(app.IO.Out, "%s %s\n", rel, app.IO.Style().Dim("(unsigned changes since the version in force)"))
		fmt.Fprint(app.IO.Out, warrantdiff.LineDiff(string(f.before), string(f.after)))
	}
	if err := confirmAmend(app, amendOptions{yes: o.yes}); err != nil {
		return err
	}
	plan := &amendPlan{signers: signers}
	var err error
	if plan.key, err = signingKey(r, o.key); err != nil {
		return err
	}
	signer, err := pickSigner(r, plan, o.signer)
	if err != nil {
		return err
	}
	w, err := r.Writer()
	if err != nil {
		return Failf("%v", err)
	}
	vf := make([]vouch.File, len(files))
	for i, f := range files {
		vf[i] = f.File
	}
	e, err := r.AppendPrepared(vouch.BlessEntry(vf, signer, w), func(e chain.Entry) (chain.Entry, error) {
		e, err := signEntry(app, plan.key, e)
		if err != nil {
			return e, err
		}
		sg := vouch.Signed{Chain: w, Entry: e, Signer: signer}
		if _, err := vouch.Verify(&sg, signers); err != nil {
			return e, fmt.Errorf("the signature is refused: %w", err)
		}
		return e, nil
	})
	switch {
	case err != nil && e.Hash == "":
		return Failf("not blessed, nothing was recorded: %v", err)
	case err != nil:
		fmt.Fprintf(app.IO.Err, "warning: %v\n", err)
	}
	fmt.Fprintf(app.IO.Out, "blessed %d file(s) (entry %d of %s, signed by %s); commit them as usual\n", len(files), e.Seq, w, signer)
	return nil
}

// requireInForce refuses to amend a file whose bytes are not the version
// in force: the amend would vouch for unsigned edits the person never saw
// in its diff (docs/signing.md#only-a-signed-warrant-is-in-force).
func requireInForce(r *record.Record, plan *amendPlan) error {
	st, err := vouch.New(r.Project()).State()
	if err != nil {
		return Failf("reading the record's signed entries: %v", err)
	}
	if !st.Adopted || st.Signers == nil {
		return nil
	}
	if plan.loop == SignersLoop {
		if loops.Digest(plan.before) != st.SignersDigest {
			return Usagef("review the change (git diff), then sign it with `gitwarrant bless`, or restore the signed version",
				"%s", st.SignersNote)
		}
		return nil
	}
	if v := st.Decide(plan.loop, plan.before); !v.InForce {
		return Usagef(fmt.Sprintf("review the unsigned changes, then sign them with `gitwarrant bless %s` (or restore the signed version) and amend again", plan.loop),
			"%s", v.Note)
	}
	return nil
}
