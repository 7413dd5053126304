package ci

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// claudeSettings is the part of .claude/settings.json that holds the
// operating-system sandbox and the client's own deny rules install
// compiles from the warrant (docs/install.md#the-sandbox).
type claudeSettings struct {
	Permissions struct {
		Deny []string `json:"deny"`
	} `json:"permissions"`
	Sandbox *struct {
		Enabled                  *bool    `json:"enabled"`
		AllowUnsandboxedCommands *bool    `json:"allowUnsandboxedCommands"`
		ExcludedCommands         []string `json:"excludedCommands"`
		Filesystem               struct {
			DenyWrite  []string `json:"denyWrite"`
			DenyRead   []string `json:"denyRead"`
			AllowWrite []string `json:"allowWrite"`
		} `json:"filesystem"`
		Network struct {
			AllowedDomains []string `json:"allowedDomains"`
		} `json:"network"`
	} `json:"sandbox"`
}

// sandboxWarnings lists what head does to the sandbox and deny rules the
// merge base's .claude/settings.json holds that weakens them
// (docs/ci.md#the-gate-itself): the sandbox turned off or removed, a
// denyWrite, denyRead or permissions.deny entry dropped, a place made
// writable, a host made reachable, a command let out of the sandbox. A
// base without a sandbox has nothing to weaken but its deny rules.
func sandboxWarnings(repo *gitx.Repo, baseID, headID string) []GateWarning {
	const file = ".claude/settings.json"
	if baseID == "" || baseID == headID {
		return nil
	}
	var base, head claudeSettings
	if b, err := repo.Blob(baseID); err != nil || json.Unmarshal(b, &base) != nil {
		return nil
	}
	if headID != "" {
		if b, err := repo.Blob(headID); err != nil || json.Unmarshal(b, &head) != nil {
			return []GateWarning{{File: file, What: "the settings no longer read as JSON, so Claude Code's sandbox and deny rules may be off"}}
		}
	}
	var out []GateWarning
	warn := func(format string, args ...any) {
		out = append(out, GateWarning{File: file, What: fmt.Sprintf(format, args...)})
	}
	for _, r := range dropped(base.Permissions.Deny, head.Permissions.Deny) {
		warn("removes the deny rule %q from permissions.deny", r)
	}
	bs, hs := base.Sandbox, head.Sandbox
	if bs == nil || bs.Enabled == nil || !*bs.Enabled {
		return out
	}
	if hs == nil || hs.Enabled == nil || !*hs.Enabled {
		warn("turns Claude Code's sandbox off: code the agent runs can then rewrite the loops, the hooks and the record, and reach any host")
		return out
	}
	for _, p := range dropped(bs.Filesystem.DenyWrite, hs.Filesystem.DenyWrite) {
		warn("makes %s writable from inside the sandbox (removed from sandbox.filesystem.denyWrite)", p)
	}
	for _, p := range dropped(bs.Filesystem.DenyRead, hs.Filesystem.DenyRead) {
		warn("makes %s readable from inside the sandbox (removed from sandbox.filesystem.denyRead)", p)
	}
	for _, p := range dropped(hs.Filesystem.AllowWrite, bs.Filesystem.AllowWrite) {
		warn("adds %s to sandbox.filesystem.allowWrite", p)
	}
	for _, h := range dropped(hs.Network.AllowedDomains, bs.Network.AllowedDomains) {
		warn("lets code inside the sandbox reach %s (added to sandbox.network.allowedDomains)", h)
	}
	for _, c := range dropped(hs.ExcludedCommands, bs.ExcludedCommands) {
		warn("runs %q outside the sandbox (added to sandbox.excludedCommands)", c)
	}
	if hs.AllowUnsandboxedCommands != nil && *hs.AllowUnsandboxedCommands && (bs.AllowUnsandboxedCommands == nil || !*bs.AllowUnsandboxedCommands) {
		warn("sets sandbox.allowUnsandboxedCommands, which lets a command ask to run outside the sandbox")
	}
	return out
}

// dropped is what a holds and b does not.
func dropped(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
