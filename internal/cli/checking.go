package cli

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
)

// checkRequest is one warrant check as every surface (cli, hook, mcp)
// makes it, so they all decide and record the same way.
type checkRequest struct {
	Loop   *loops.Loop
	Verb   loops.Verb
	Target string
	Via    string // "cli", "hook", "mcp", "http"
	Record bool
	// Extra fields for the entry (e.g. the hook's tool name).
	Extra map[string]any
}

// runCheck decides a check and, unless told not to, appends it to the
// record. A verdict is returned even when recording fails, together with
// the error, so callers can fail toward the human.
func runCheck(p *project.Project, req checkRequest) (loops.Result, *chain.Entry, error) {
	res := loops.Check(&req.Loop.Warrant, req.Verb, req.Target)
	// Opened even when not recording: a repository gitwarrant refuses
	// (gitx.ErrUnsupported) gets no verdict from any surface.
	rec, err := record.Open(p)
	if err != nil {
		return res, nil, fmt.Errorf("record: %w", err)
	}
	if !req.Record {
		return res, nil, nil
	}
	// The loop as it was is named by its Git blob id, which `record verify
	// --replay` reads back from Git; outside Git there is no object store,
	// so the SHA-256 of its bytes names it instead.
	blob := req.Loop.BlobID
	if rec.Repo() == nil {
		blob = req.Loop.Digest
	}
	e, err := rec.Append(chain.Entry{
		Loop:     req.Loop.Name,
		Kind:     chain.KindCheck,
		Action:   string(req.Verb),
		Target:   req.Target,
		Verdict:  string(res.Verdict),
		Rule:     res.Rule,
		Via:      req.Via,
		LoopBlob: blob,
		Engine:   loops.EngineVersion,
		Extra:    req.Extra,
	})
	if err != nil {
		return res, nil, fmt.Errorf("recording the check: %w", err)
	}
	return res, &e, nil
}

// loadJobLoop is loadLoop for commands that act under a loop (check, a
// pinned install): an abstract loop is a baseline to extend, never checked
// directly (docs/loop-format.md#extends-and-abstract), so it is refused.
func loadJobLoop(p *project.Project, name string) (*loops.Loop, error) {
	l, err := loadLoop(p, name)
	if err == nil && l.Abstract {
		return nil, &ExitError{Code: ExitError1,
			Err:  fmt.Errorf("%s: loop %s is abstract: a baseline other loops extend, not a job to check", l.Path, l.Name),
			Hint: fmt.Sprintf("check a loop that says `extends: %s`; `gitwarrant list` marks the abstract ones", l.Name)}
	}
	return l, err
}

// loadLoop loads one loop by name from the project, mapping failures to
// exit 1 with the parser's file:line message.
func loadLoop(p *project.Project, name string) (*loops.Loop, error) {
	l, err := loops.LoadByName(p.LoopsDir(), name)
	if err != nil {
		return nil, &ExitError{Code: ExitError1, Err: err}
	}
	return l, nil
}
