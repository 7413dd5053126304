package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Approval evidence (issue 4): the PreToolUse check leaves a small marker
// per recorded call, named by its tool_use_id and holding the loop; the
// PostToolUse hook, which Claude Code runs only when the tool actually ran,
// turns a marker into a note on the record. An ask with a matching note was
// approved by a person; one without was refused (hook.AskOutcomes). The
// markers are local state (docs/design.md#repository-layout: .git/gitwarrant/, never committed),
// so the post hook needs neither the pre hook's flags nor a record scan.

const pendingMaxAge = 7 * 24 * time.Hour

// pendingDir is where the markers live: under .git/gitwarrant/ in a Git
// repository, else in the temporary directory, keyed by the project.
func pendingDir(env hookEnv) string {
	if env.repo != nil {
		return filepath.Join(env.repo.CommonDir, "gitwarrant", "hook-pending")
	}
	sum := sha256.Sum256([]byte(env.project.Dir))
	return filepath.Join(os.TempDir(), "gitwarrant-hook-pending-"+hex.EncodeToString(sum[:6]))
}

// markerName turns a tool_use_id into a file name, or "" when it holds
// anything but the characters Claude Code uses (toolu_…).
func markerName(id string) string {
	if id == "" || len(id) > 128 {
		return ""
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return ""
		}
	}
	return id
}

// rememberPending writes the marker for a recorded check. Failing to write
// it loses only the approval evidence, never the check, so it is silent.
func rememberPending(env hookEnv, toolUseID, loop string) {
	name := markerName(toolUseID)
	if name == "" {
		return
	}
	dir := pendingDir(env)
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	_ = os.WriteFile(filepath.Join(dir, name), []byte(loop+"\n"), 0o644)
}

// runHookPost handles `hook claude --post`. It never prints to stdout and
// never fails the call; problems go to stderr, which Claude Code keeps in
// its transcript.
func runHookPost(app *App, o hookClaudeOptions, data []byte, readErr error) {
	if err := hookPost(app, o, data, readErr); err != nil {
		fmt.Fprintf(app.IO.Err, "gitwarrant: hook claude --post: %v\n", err)
	}
}

func hookPost(app *App, o hookClaudeOptions, data []byte, readErr error) error {
	if readErr != nil {
		return readErr
	}
	pl, err := hook.Decode(data)
	if err != nil {
		return err
	}
	name := markerName(pl.ToolUseID)
	if name == "" || o.noRecord {
		return nil
	}
	env := findHookEnv(app, o.dir, app.Getenv("CLAUDE_PROJECT_DIR"), pl.Cwd, app.Cwd)
	if env.project == nil {
		return nil
	}
	dir := pendingDir(env)
	marker := filepath.Join(dir, name)
	raw, err := os.ReadFile(marker)
	if err != nil {
		return nil // no recorded check for this call: nothing to pair
	}
	loop := strings.TrimSpace(string(raw))
	verb, target, err := hook.MapIn(pl, env.root)
	if err != nil {
		verb, target = loops.Send, pl.ToolName
	}
	extra := hookExtra(pl)
	extra[hook.ExtraEvent] = hook.EventPostToolUse
	extra[hook.ExtraRan] = true
	e := chain.Entry{Loop: validLoopName(loop), Kind: chain.KindNote, Via: "hook",
		Note: fmt.Sprintf("ran: %s %s", verb, target), Extra: extra}
	if err := appendHookEntry(env.project, e); err != nil {
		return fmt.Errorf("recording that %s ran: %w", pl.ToolUseID, err)
	}
	_ = os.Remove(marker)
	prunePending(dir)
	return nil
}

// prunePending drops markers of calls that never ran (refused asks) once
// they are old: the record already holds the ask; the marker only waited.
func prunePending(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > pendingMaxAge {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
