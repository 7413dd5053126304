package gate

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/chain"
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
	loop, take, ok := findPending(place, name)
	if !ok {
		return nil // no recorded check for this call: nothing to pair
	}
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
	take()
	return nil
}
