package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/fsx"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
)

// CheckRequest is one warrant check as every surface (cli, hook, mcp)
// records it.
type CheckRequest struct {
	Loop   *loops.Loop
	Verb   loops.Verb
	Target string
	Via    string // "cli", "hook", "mcp", "http"
	Record bool
	Extra  map[string]any
}

// Check decides a check on a self-reported target (`gitwarrant check`)
// with the loop's warrant and, unless told not to, records it. A verdict
// is returned even when recording fails, with the error, so callers can
// fail toward the human.
func Check(p *project.Project, req CheckRequest) (loops.Result, *chain.Entry, error) {
	res := loops.Check(&req.Loop.Warrant, req.Verb, req.Target)
	e, err := Record(p, req, res)
	return res, e, err
}

// Record appends a decided check to the record (nothing when req.Record is
// false).
func Record(p *project.Project, req CheckRequest, res loops.Result) (*chain.Entry, error) {
	return recordCheck(Env{}, p, req, res)
}

// recordCheck is Record in env: through its journal when it has one (a
// server's), in the record its decision opened.
func recordCheck(env Env, p *project.Project, req CheckRequest, res loops.Result) (*chain.Entry, error) {
	// Opened even when not recording: a repository gitwarrant refuses
	// (gitx.ErrUnsupported) gets no verdict from any surface. The append
	// commits the writer's journal itself, under the writer's lock.
	rec, err := env.record(p)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	if !req.Record {
		return nil, nil
	}
	// The loop as it was is named by its Git blob id, which `record verify
	// --replay` reads back from Git; outside Git there is no object store,
	// so the SHA-256 of its bytes names it instead.
	blob := req.Loop.BlobID
	if rec.Repo() == nil {
		blob = req.Loop.Digest
	}
	e, err := appendTo(env.Journal, rec, chain.Entry{
		Loop: req.Loop.Name, Kind: chain.KindCheck, Action: string(req.Verb), Target: req.Target,
		Verdict: string(res.Verdict), Rule: res.Rule, Via: req.Via, LoopBlob: blob,
		Engine: loops.EngineVersion, Extra: req.Extra,
	})
	if err != nil {
		return nil, fmt.Errorf("recording the check: %w", err)
	}
	return &e, nil
}

// extraFor is what a hook entry adds to a check: which tool call it was,
// so a PostToolUse note can be paired with it (hook.AskOutcomes).
func extraFor(c *Call, o Options) map[string]any {
	pl := c.Payload
	m := map[string]any{hook.ExtraTool: pl.ToolName}
	if c.loopVia != "" {
		m[hook.ExtraLoopVia] = c.loopVia
	}
	if o.Credential != "" {
		m["credential"] = o.Credential
	}
	if pl.ToolUseID != "" {
		m[hook.ExtraToolUseID] = pl.ToolUseID
	}
	if pl.SessionID != "" {
		m[hook.ExtraSession] = pl.SessionID
	}
	return m
}

// entryFor builds a check entry for an answer no loop's warrant gave
// (self-protection, strict no-coverage).
func entryFor(c *Call, o Options, loop, rule string, v loops.Verdict) chain.Entry {
	verb, target := c.Verb, c.Target
	if c.MapErr != nil || verb == "" {
		verb, target = loops.Send, c.Payload.ToolName
	}
	return chain.Entry{
		Loop: loop, Kind: chain.KindCheck, Action: string(verb), Target: target,
		Verdict: string(v), Rule: rule, Via: o.via(), Engine: loops.EngineVersion, Extra: extraFor(c, o),
	}
}

func appendEntry(env Env, p *project.Project, e chain.Entry) error {
	rec, err := env.record(p)
	if err != nil {
		return err
	}
	_, err = appendTo(env.Journal, rec, e)
	return err
}

// appendTo appends e to rec's record, through j when it is set.
func appendTo(j *record.Journal, rec *record.Record, e chain.Entry) (chain.Entry, error) {
	if j != nil {
		return j.Append(rec, e)
	}
	return rec.Append(e)
}

// Approval evidence: the PreToolUse check leaves a small marker per
// recorded call, named by its tool_use_id and holding the loop; the
// PostToolUse hook, which Claude Code runs only when the tool actually ran,
// turns a marker into a note on the record. An ask with a matching note was
// approved by a person; one without was refused (hook.AskOutcomes). The
// markers are local state (docs/design.md#repository-layout:
// .git/gitwarrant/, never committed).

const pendingMaxAge = 7 * 24 * time.Hour

// pendingDir is where the markers live: under .git/gitwarrant/ in a Git
// repository, else in the temporary directory, keyed by the project.
func pendingDir(place Place) string {
	if place.Repo != nil {
		return filepath.Join(place.Repo.CommonDir, "gitwarrant", "hook-pending")
	}
	sum := sha256.Sum256([]byte(place.Project.Dir))
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
func rememberPending(place Place, toolUseID, loop string) {
	name := markerName(toolUseID)
	if name == "" {
		return
	}
	dir := pendingDir(place)
	path := filepath.Join(dir, name)
	if err := fsx.WriteSmall(path, []byte(loop+"\n"), 0o644); errors.Is(err, fs.ErrNotExist) && os.MkdirAll(dir, 0o755) == nil {
		_ = fsx.WriteSmall(path, []byte(loop+"\n"), 0o644)
	}
}

// Post handles a PostToolUse payload: it notes on the record that a
// checked call ran. It never blocks the call; the error is for stderr.
func Post(env Env, o Options, data []byte, readErr error) error {
	if readErr != nil {
		return readErr
	}
	pl, err := hook.Decode(data)
	if err != nil {
		return err
	}
	name := markerName(pl.ToolUseID)
	if name == "" || o.NoRecord {
		return nil
	}
	place := FindPlace(env.getenv, o.Dir, env.getenv("CLAUDE_PROJECT_DIR"), pl.Cwd, env.Cwd)
	if place.Project == nil {
		return nil
	}
	dir := pendingDir(place)
	marker := filepath.Join(dir, name)
	raw, err := os.ReadFile(marker)
	if err != nil {
		return nil // no recorded check for this call: nothing to pair
	}
	loop := strings.TrimSpace(string(raw))
	verb, target, err := hook.MapIn(pl, place.Root)
	if err != nil {
		verb, target = loops.Send, pl.ToolName
	}
	extra := extraFor(&Call{Payload: pl}, Options{})
	extra[hook.ExtraEvent] = hook.EventPostToolUse
	extra[hook.ExtraRan] = true
	e := chain.Entry{Loop: validLoopName(loop), Kind: chain.KindNote, Via: "hook",
		Note: fmt.Sprintf("ran: %s %s", verb, target), Extra: extra}
	if err := appendEntry(env, place.Project, e); err != nil {
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
