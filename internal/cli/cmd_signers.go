package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/amend"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/sign"
	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh"
)

// SignersLoop is the loop field of an amend to allowed_signers. Loop names
// cannot hold `_`, so it never names a loop.
const SignersLoop = "allowed_signers"

func newSignersCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "signers <add|list|remove>",
		Short: "manage .gitwarrant/allowed_signers: the people who may sign amends",
		Long: `allowed_signers (OpenSSH format) lists who may sign amends. Adding a signer
widens every warrant, so it is itself a signed amend by an existing signer;
removing one narrows. Rotate a key by adding the new one, then removing the
old. Human only (docs/signing.md).`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newSignersAddCmd(app), newSignersListCmd(app), newSignersRemoveCmd(app))
	return cmd
}

func signerFlags(cmd *cobra.Command, o *amendOptions) {
	f := cmd.Flags()
	f.StringVar(&o.key, "key", "", "SSH key of an existing signer to sign with (default: git's user.signingkey)")
	f.StringVar(&o.signer, "signer", "", signerFlagHelp)
	f.BoolVar(&o.noCommit, "no-commit", false, "edit and record, but do not commit")
	f.BoolVar(&o.yes, "yes", false, "do not ask for confirmation (still signed)")
}

func newSignersAddCmd(app *App) *cobra.Command {
	var o amendOptions
	cmd := &cobra.Command{
		Use:   "add <principal> <pubkey-file>",
		Short: "add a signer (a signed widening; the first signer is the bootstrap)",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return Usagef("example: gitwarrant signers add ada@example.com ~/.ssh/id_ed25519_sk.pub", "signers add needs <principal> <pubkey-file>")
			}
			return runSignersAdd(app, o, args[0], args[1])
		},
	}
	signerFlags(cmd, &o)
	return cmd
}

func runSignersAdd(app *App, o amendOptions, principal, pubFile string) error {
	pubBytes, err := os.ReadFile(pubFile)
	if err != nil {
		return Usagef("give the .pub file of the key", "reading %s: %v", pubFile, err)
	}
	key, comment, err := sign.ReadPublicKey(pubBytes)
	if err != nil {
		return Usagef("", "%s: %v", pubFile, err)
	}
	line, err := sign.SignerLine(principal, key, comment)
	if err != nil {
		return Usagef("", "%v", err)
	}
	if !sign.IsSecurityKey(key) {
		fmt.Fprintf(app.IO.Err, "warning: %s is a %s key, not a FIDO (sk-) key: any process that can use it (an agent holding the ssh-agent socket) can sign as %s. Only a touch proves a person signed; prefer ssh-keygen -t ed25519-sk.\n", pubFile, key.Type(), principal)
	}
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	path := r.Project().AllowedSigners()
	before, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Failf("reading %s: %v", path, err)
	}
	as, err := sign.ParseAllowedSigners(path, before)
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	for _, s := range as.Signers {
		if s.Principals == principal && string(s.Key.Marshal()) == string(key.Marshal()) {
			return Usagef("nothing to add", "%s:%d already lists this key for %s", path, s.Line, principal)
		}
	}
	after := sign.AddLine(before, line)
	if len(as.Signers) == 0 {
		if err := bootstrapSigners(app, path, after, principal); err != nil {
			return err
		}
		return blessAtBootstrap(app, r, o, principal)
	}
	plan := &amendPlan{loop: SignersLoop, path: path, before: before, after: after,
		a: amend.Amend{Loop: SignersLoop, List: SignersLoop, Op: amend.OpAdd, Pattern: line}}
	if err := completePlan(r, plan, o); err != nil {
		return err
	}
	return applySigned(app, r, plan, o)
}

// bootstrapSigners writes the first signer: there is nobody to sign it, so
// it is written unsigned and says how it must land (docs/signing.md#bootstrap).
func bootstrapSigners(app *App, path string, data []byte, principal string) error {
	if err := os.MkdirAll(strings.TrimSuffix(path, "allowed_signers"), 0o755); err != nil {
		return Failf("%v", err)
	}
	if err := writeFileAtomic(path, data); err != nil {
		return Failf("writing %s: %v", path, err)
	}
	fmt.Fprintf(app.IO.Out, "added %s as the first signer in %s\n", principal, path)
	fmt.Fprintf(app.IO.Err, `bootstrap: the file had no signer, so no existing signer could sign this addition.
No pull request can add the first signer by itself: the CI gate checks amends
against the base branch's allowed_signers, which is empty. Commit this file and
land it on the default branch by a direct push, or have a maintainer override
the check once. Every later signer is added with a signed amend.
`)
	return nil
}

// blessAtBootstrap signs the first allowed_signers and every loop as they
// stand, with the new signer's key, so the warrant in force does not
// change when signing is adopted (docs/signing.md#adopting-signing). With
// no key to sign with, it says how to do it later.
func blessAtBootstrap(app *App, r *record.Record, o amendOptions, principal string) error {
	if _, err := signingKey(r, o.key); err != nil {
		fmt.Fprintf(app.IO.Err, "Until a signer runs `gitwarrant bless --key <key>`, the gate puts no loop in force: every loop allows nothing.\n")
		return nil
	}
	return runBless(app, blessOptions{key: o.key, signer: principal, yes: true}, nil)
}

func newSignersRemoveCmd(app *App) *cobra.Command {
	var o amendOptions
	cmd := &cobra.Command{
		Use:   "remove <principal> [<pubkey-file>]",
		Short: "remove a signer, or one of their keys (a narrowing, still signed)",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return Usagef("example: gitwarrant signers remove ada@example.com old_key.pub", "signers remove needs <principal> [<pubkey-file>]")
			}
			return runSignersRemove(app, o, args)
		},
	}
	signerFlags(cmd, &o)
	return cmd
}

func runSignersRemove(app *App, o amendOptions, args []string) error {
	r, err := openRecord(app)
	if err != nil {
		return err
	}
	var key ssh.PublicKey
	if len(args) == 2 {
		b, err := os.ReadFile(args[1])
		if err != nil {
			return Usagef("give the .pub file of the key to remove", "reading %s: %v", args[1], err)
		}
		if key, _, err = sign.ReadPublicKey(b); err != nil {
			return Usagef("", "%s: %v", args[1], err)
		}
	}
	path := r.Project().AllowedSigners()
	before, err := os.ReadFile(path)
	if err != nil {
		return Failf("reading %s: %v", path, err)
	}
	after, removed, err := sign.RemoveSigner(path, before, args[0], key)
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	left, err := sign.ParseAllowedSigners(path, after)
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	if len(left.Signers) == 0 {
		return Usagef("add another signer first (rotation is add, then remove)", "removing %s would leave %s with no signer, and no amend could ever be signed again", args[0], path)
	}
	plan := &amendPlan{loop: SignersLoop, path: path, before: before, after: after,
		a: amend.Amend{Loop: SignersLoop, List: SignersLoop, Op: amend.OpRemove, Pattern: strings.Join(removed, "\n")}}
	if err := completePlan(r, plan, o); err != nil {
		return err
	}
	return applySigned(app, r, plan, o)
}

func newSignersListCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "list the signers in allowed_signers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := app.Project()
			if err != nil {
				return err
			}
			data, err := os.ReadFile(p.AllowedSigners())
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return Failf("reading %s: %v", p.AllowedSigners(), err)
			}
			as, err := sign.ParseAllowedSigners(p.AllowedSigners(), data)
			if err != nil {
				return &ExitError{Code: ExitError1, Err: err}
			}
			if len(as.Signers) == 0 {
				fmt.Fprintf(app.IO.Out, "no signers in %s (add the first with `gitwarrant signers add`)\n", p.AllowedSigners())
				return nil
			}
			for _, s := range as.Signers {
				fido := "not FIDO"
				if sign.IsSecurityKey(s.Key) {
					fido = "FIDO"
				}
				var opts []string
				if s.HasNS {
					opts = append(opts, "namespaces="+s.Namespaces)
				}
				if !s.ValidAfter.IsZero() {
					opts = append(opts, "valid-after="+s.ValidAfter.UTC().Format("2006-01-02T15:04Z"))
				}
				if !s.ValidBefore.IsZero() {
					opts = append(opts, "valid-before="+s.ValidBefore.UTC().Format("2006-01-02T15:04Z"))
				}
				fmt.Fprintf(app.IO.Out, "%s\t%s\t%s\t%s\t%s\n", s.Principals, s.Key.Type(), sign.Fingerprint(s.Key), fido, strings.Join(opts, " "))
			}
			return nil
		},
	}
}
