package cli

// The steps every signed change shares — amend and signers add/remove:
// find the signers, the key and the signer, show and confirm, sign at the
// entry's chain position, write, and commit the file with the record
// (docs/signing.md#amending-a-loop-file).

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/gitwarrant/gitwarrant/internal/fsx"
	"os"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/amend"
	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/sign"
	"github.com/gitwarrant/gitwarrant/internal/warrantdiff"
)

// completePlan checks the file can be committed and finds the signers, the
// key, the signer and the chain.
func completePlan(r *record.Record, plan *amendPlan, o amendOptions) error {
	p := r.Project()
	plan.rel = plan.path
	var err error
	if plan.signers, err = loadSigners(p.AllowedSigners()); err != nil {
		return err
	}
	repo := r.Repo()
	if repo != nil {
		if plan.rel, err = repo.Rel(plan.path); err != nil {
			return Failf("%v", err)
		}
		if !o.noCommit {
			if dirty, err := repo.Dirty(plan.rel); err != nil || dirty {
				return Usagef("commit or stash your own edits to it first, or pass --no-commit", "%s has uncommitted changes; an amend commits the loop file as the amend changes it", plan.rel)
			}
		}
	} else if !o.noCommit {
		return Usagef("run it in a Git repository, or pass --no-commit", "amend commits the change, but %s is not in a Git repository", p.Dir)
	}
	if plan.key, err = signingKey(r, o.key); err != nil {
		return err
	}
	if plan.a.Signer, err = pickSigner(r, plan, o.signer); err != nil {
		return err
	}
	if plan.a.Chain, err = r.Writer(); err != nil {
		return Failf("%v", err)
	}
	plan.a.Before, plan.a.After = loops.Digest(plan.before), loops.Digest(plan.after)
	return requireInForce(r, plan)
}

// applySigned shows the change, asks, signs and records the amend, writes
// the file and commits both: the steps every signed change shares.
func applySigned(app *App, r *record.Record, plan *amendPlan, o amendOptions) error {
	fmt.Fprintf(app.IO.Out, "%s %s\n", plan.rel, app.IO.Style().Dim("("+plan.a.Op+" "+plan.a.List+")"))
	fmt.Fprint(app.IO.Out, warrantdiff.LineDiff(string(plan.before), string(plan.after)))
	err := confirmAmend(app, o)
	if err != nil {
		return err
	}
	// The file may have been edited while the person read the diff: the
	// signature would then vouch for a change that is not the one made.
	if now, err := os.ReadFile(plan.path); (err != nil && len(plan.before) > 0) || !bytes.Equal(now, plan.before) {
		return Failf("%s changed while the amend was being confirmed; nothing was changed — run the amend again", plan.rel)
	}
	if repo := r.Repo(); repo != nil {
		// The amend names the blob of the file after, so the gate can
		// read this version back while the work tree holds another
		// (docs/signing.md#only-a-signed-warrant-is-in-force).
		if plan.a.Blob, err = repo.WriteBlob(plan.after); err != nil {
			return Failf("not amended, nothing was changed: %v", err)
		}
	}
	e, err := appendSignedAmend(app, r, plan)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(plan.path, plan.after); err != nil {
		return Failf("the amend is recorded (entry %d) but %s could not be written: %v — write the change by hand", e.Seq, plan.rel, err)
	}
	if o.noCommit {
		fmt.Fprintf(app.IO.Out, "amended %s (entry %d, signed by %s); not committed\n", plan.rel, e.Seq, plan.a.Signer)
		return nil
	}
	return commitAmend(app, r, plan, e)
}

// loadSigners reads allowed_signers; a missing or empty file is the
// bootstrap case (docs/signing.md#bootstrap).
func loadSigners(path string) (*sign.AllowedSigners, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, Failf("reading %s: %v", path, err)
	}
	as, err := sign.ParseAllowedSigners(path, data)
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	if len(as.Signers) == 0 {
		return nil, Usagef("add the first signer with `gitwarrant signers add <you@example.com> ~/.ssh/id_ed25519.pub` and land it on the default branch (docs/signing.md#bootstrap)",
			"%s lists no signers, so no amend can be signed", path)
	}
	return as, nil
}

// signingKey is --key, else git's user.signingkey when gpg.format is ssh.
func signingKey(r *record.Record, flag string) (sign.Key, error) {
	if flag != "" {
		return sign.Key(flag), nil
	}
	if repo := r.Repo(); repo != nil && repo.Config("gpg.format") == "ssh" {
		if k := repo.Config("user.signingkey"); k != "" {
			return sign.Key(k), nil
		}
	}
	return "", Usagef("pass --key ~/.ssh/id_ed25519, or set git's: git config gpg.format ssh && git config user.signingkey ~/.ssh/id_ed25519.pub",
		"no SSH signing key")
}

// signerFlagHelp is the help of --signer, on every command that signs.
const signerFlagHelp = "principal to sign as (default: git's user.email when allowed_signers lists it with the key, else the one principal it lists for the key)"

// pickSigner is --signer, else git's user.email when a line lists it with
// the key, else the one literal principal the key is listed under.
func pickSigner(r *record.Record, plan *amendPlan, flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	pub, err := plan.key.PublicKey()
	if err != nil {
		return "", Failf("%v", err)
	}
	names := plan.signers.Principals(pub)
	if len(names) == 0 {
		return "", Usagef("a signer adds your key with `gitwarrant signers add <principal> <key.pub>`, or pass --key with a listed key",
			"%s does not list your key (%s)", plan.signers.Path, sign.Fingerprint(pub))
	}
	if repo := r.Repo(); repo != nil {
		email := repo.Config("user.email")
		for _, n := range names {
			if n == email {
				return n, nil
			}
		}
	}
	return names[0], nil
}

func confirmAmend(app *App, o amendOptions) error {
	if o.yes {
		return nil
	}
	if !app.IO.CanPrompt() {
		return Usagef("run it at a terminal, or pass --yes (the amend is still signed)", "no terminal to confirm the amend on")
	}
	fmt.Fprint(app.IO.Err, "Sign and apply this change? [y/N] ")
	ans, _ := bufio.NewReader(app.IO.In).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(ans)); a != "y" && a != "yes" {
		return Failf("not amended: nothing was changed")
	}
	return nil
}

// signEntry signs e's canonical message with key (prompting on the
// terminal for a passphrase, as ssh-keygen does) and puts the signature in
// e's "sig"; the caller verifies it before anything is written.
func signEntry(app *App, key sign.Key, e chain.Entry) (chain.Entry, error) {
	msg, err := amend.Message(e)
	if err != nil {
		return e, err
	}
	s, err := sign.Sign(msg, key, app.IO.Err)
	if err != nil {
		return e, err
	}
	e.Extra["sig"] = s.Armored
	return e, nil
}

// appendSignedAmend signs the entry at its chain position, under the chain
// lock, and verifies the signature before anything is written: a refused
// signature records nothing.
func appendSignedAmend(app *App, r *record.Record, plan *amendPlan) (chain.Entry, error) {
	e, err := r.AppendPrepared(plan.a.Entry(), func(e chain.Entry) (chain.Entry, error) {
		e, err := signEntry(app, plan.key, e)
		if err != nil {
			return e, err
		}
		if _, err := amend.Verify(e, plan.a.Chain, plan.signers); err != nil {
			return e, fmt.Errorf("the signature is refused: %w", err)
		}
		return e, nil
	})
	switch {
	case err != nil && e.Hash == "": // nothing was written
		return e, Failf("not amended, nothing was changed: %v", err)
	case err != nil: // written, but a follow-up step (the ref's commit) failed
		fmt.Fprintf(app.IO.Err, "warning: %v\n", err)
	}
	return e, nil
}

// commitAmend commits the loop file and the chain together; if the commit
// fails the loop file is restored and a note says the amend did not land.
func commitAmend(app *App, r *record.Record, plan *amendPlan, e chain.Entry) error {
	msg := fmt.Sprintf("warrant: amend %s %s %s %q\n\nSigned amend, entry %d of %s, by %s.\n", plan.a.Loop, plan.a.List, plan.a.Op, plan.a.Pattern, e.Seq, plan.a.Chain, plan.a.Signer)
	// The record's own pre-commit work brings the chain, with the new
	// entry, into the work tree and names its paths: the commit holds
	// those and the file, nothing else.
	staged, err := r.PreCommit()
	var id string
	if err == nil {
		id, err = r.Repo().CommitOnly(append([]string{plan.rel}, staged...), msg, app.IO.Err, app.IO.Err)
	}
	if err != nil {
		restoreErr := writeFileAtomic(plan.path, plan.before)
		_, noteErr := r.Append(chain.Entry{Kind: chain.KindNote, Loop: plan.a.Loop,
			Note: fmt.Sprintf("amend entry %d did not land: the commit failed (%v); %s was restored", e.Seq, firstLine(err.Error()), plan.rel)})
		if restoreErr != nil || noteErr != nil {
			return Failf("the commit failed (%v), and restoring %s or recording the note failed too (%v, %v)", err, plan.rel, restoreErr, noteErr)
		}
		return Failf("the commit failed, so the amend did not land: %s was restored and a note was recorded\n%v", plan.rel, err)
	}
	fmt.Fprintf(app.IO.Out, "amended %s (entry %d, signed by %s) in commit %s\n", plan.rel, e.Seq, plan.a.Signer, id[:12])
	return nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// writeFileAtomic is fsx.WriteAtomic keeping the file's mode, so a crash
// leaves the old or the new file, never half.
func writeFileAtomic(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return fsx.WriteAtomic(path, data, mode)
}
