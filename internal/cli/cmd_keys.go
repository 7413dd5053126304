package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/agentkeys"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/spf13/cobra"
)

func newKeysCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "manage the agent keys of `gitwarrant serve` (a person's command)",
		Long: `Agent keys authenticate agents to ` + "`gitwarrant serve`" + `. Only a key's SHA-256 and a
visible prefix are stored, in .git/gitwarrant/keys.json (never committed).
A read key may call every tool except propose_amendment; a propose key may
also propose; a hook key reaches only Claude Code's http hook (POST
/hooks/claude), and no other key reaches it (` + "`install --hook http`" + ` makes one).
Agents cannot run this command: the hook denies it.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newKeysCreateCmd(app), newKeysListCmd(app), newKeysRevokeCmd(app))
	return cmd
}

func newKeysCreateCmd(app *App) *cobra.Command {
	var label, scope string
	cmd := &cobra.Command{
		Use:   "create --label L [--scope read|propose|hook]",
		Short: "make a key and print its secret once",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if label == "" {
				return Usagef("e.g. gitwarrant keys create --label ci-bot --scope read", "--label is required")
			}
			s, err := KeyStore(app)
			if err != nil {
				return err
			}
			secret, k, err := s.Create(label, scope)
			if err != nil {
				return &ExitError{Code: ExitError1, Err: err}
			}
			fmt.Fprintln(app.IO.Out, secret)
			fmt.Fprintf(app.IO.Err, "key %q (%s, scope %s) created: the secret above is shown only once\n", k.Label, k.Visible, k.Scope)
			return nil
		},
	}
	cmd.Flags().StringVar(&label, "label", "", "a name for the key, recorded with every entry it makes")
	cmd.Flags().StringVar(&scope, "scope", "read", "read (the tools but propose_amendment), propose (every tool) or hook (only Claude Code's http hook, POST /hooks/claude)")
	return cmd
}

type keyJSON struct {
	Label     string `json:"label"`
	Scope     string `json:"scope"`
	Prefix    string `json:"prefix"`
	Created   string `json:"created"`
	LastUsed  string `json:"last_used,omitempty"`
	Revoked   string `json:"revoked,omitempty"`
	Proposals int    `json:"proposals"`
}

func newKeysListCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "list keys: label, scope, prefix, last used, proposals, revoked",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := KeyStore(app)
			if err != nil {
				return err
			}
			ks, err := s.List()
			if err != nil {
				return &ExitError{Code: ExitError1, Err: err}
			}
			counts := proposalCounts(app)
			out := make([]keyJSON, 0, len(ks))
			for _, k := range ks {
				j := keyJSON{Label: k.Label, Scope: k.Scope, Prefix: k.Visible, Created: k.Created.Format(time.RFC3339), Proposals: counts[k.Label]}
				if k.LastUsed != nil {
					j.LastUsed = k.LastUsed.Format(time.RFC3339)
				}
				if k.Revoked != nil {
					j.Revoked = k.Revoked.Format(time.RFC3339)
				}
				out = append(out, j)
			}
			if asJSON {
				return writeJSON(app.IO.Out, map[string]any{"keys": out})
			}
			if len(out) == 0 {
				fmt.Fprintln(app.IO.Out, "no keys yet — make one with `gitwarrant keys create --label NAME`")
				return nil
			}
			fmt.Fprintf(app.IO.Out, "%-20s %-8s %-11s %-21s %-9s %s\n", "LABEL", "SCOPE", "PREFIX", "LAST USED", "PROPOSALS", "REVOKED")
			for _, j := range out {
				fmt.Fprintf(app.IO.Out, "%-20s %-8s %-11s %-21s %-9d %s\n", j.Label, j.Scope, j.Prefix, orDash(j.LastUsed), j.Proposals, orDash(j.Revoked))
			}
			return nil
		},
	}
	jsonFlag(cmd, &asJSON)
	return cmd
}

func newKeysRevokeCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke <label|prefix>",
		Short: "revoke a key; it is refused from its next call",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := KeyStore(app)
			if err != nil {
				return err
			}
			k, err := s.Revoke(args[0])
			if err != nil {
				return &ExitError{Code: ExitError1, Err: err}
			}
			fmt.Fprintf(app.IO.Out, "revoked %q (%s)\n", k.Label, k.Visible)
			return nil
		},
	}
}

// proposalCounts counts proposals per credential in the record (best
// effort: a record that does not read leaves the counts at zero).
func proposalCounts(app *App) map[string]int {
	out := map[string]int{}
	p, err := app.Project()
	if err != nil {
		return out
	}
	_ = p
	rec, err := openRecord(app)
	if err != nil {
		return out
	}
	es, err := rec.Entries()
	if err != nil {
		return out
	}
	for _, e := range es {
		if e.Kind == "proposal" {
			if c, ok := e.Extra["credential"].(string); ok {
				out[c]++
			}
		}
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// KeyStore is the clone's agent key store: .git/gitwarrant/keys.json, local
// state that is never committed (docs/mcp.md#agent-keys).
func KeyStore(app *App) (*agentkeys.Store, error) {
	dir, err := StateDir(app)
	if err != nil {
		return nil, err
	}
	return agentkeys.Open(filepath.Join(dir, "keys.json"), app.Now), nil
}

// StateDir is the clone's local state directory, .git/gitwarrant/ in the
// common git dir (shared by linked worktrees, never committed): agent keys
// and the address of the server the SessionStart hook starts live there.
func StateDir(app *App) (string, error) {
	p, err := app.Project()
	if err != nil {
		return "", err
	}
	repo, err := gitx.Discover(p.Root)
	if err != nil {
		return "", Usagef("agent keys and the hook server's state live in the clone's .git/gitwarrant/; run this inside a Git repository", "%s is not in a Git repository: %v", p.Root, err)
	}
	return filepath.Join(repo.CommonDir, "gitwarrant"), nil
}
