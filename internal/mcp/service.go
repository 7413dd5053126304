package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/compile"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/route"
)

// Caller is who makes a call: the channel ("mcp" for stdio, "http" for
// the server) and the credential recorded with every entry ("stdio", or
// the key's label).
type Caller struct {
	Via        string
	Credential string
	// KeyID identifies the key for limits (empty over stdio).
	KeyID string
	Scope string
}

// CheckRequest is one check as a tool asks it: either a self-reported
// action and target (judged as `gitwarrant check` judges it) or a tool call
// (judged as the Claude Code hook judges it).
type CheckRequest struct {
	Loop      string
	Action    string
	Target    string
	Tool      string
	ToolInput map[string]any
	Caller    Caller
	// Loaded is the loop named by Loop, already parsed by the tool (so a
	// check parses its loop once).
	Loaded *loops.Loop
	// Loops is the service's parse cache, for the loops the check loads
	// itself: it reads every file on every call and reuses a parse only
	// for identical bytes (docs/mcp.md#parse-cache).
	Loops *loops.Cache
}

// CheckResult is a recorded verdict.
type CheckResult struct {
	Verdict string `json:"verdict" jsonschema:"allow, ask or deny"`
	Reason  string `json:"reason" jsonschema:"why, in one line"`
	Rule    string `json:"rule,omitempty" jsonschema:"the warrant entry or rule that decided"`
	Loop    string `json:"loop,omitempty" jsonschema:"the loop that decided, when one did"`
	Seq     int64  `json:"seq,omitempty" jsonschema:"the record entry's seq"`
	Hash    string `json:"hash,omitempty" jsonschema:"the record entry's hash"`
}

// Backend is what the tools need from the rest of gitwarrant. Check is the
// same check-and-record path the CLI and the hook use (never a copy): the
// command layer passes it in, so this package needs no command type.
type Backend struct {
	Project func() (*project.Project, error)
	Check   func(ctx context.Context, p *project.Project, req CheckRequest) (CheckResult, error)
	Now     func() time.Time
	// Loops is the parse cache the tools share with Check through
	// CheckRequest.Loops (nil: NewService makes one).
	Loops *loops.Cache
}

// Service implements every tool once; both transports call it.
type Service struct {
	b     Backend
	guard Guard
}

// NewService returns the tools over b.
func NewService(b Backend) *Service {
	if b.Now == nil {
		b.Now = time.Now
	}
	if b.Loops == nil {
		b.Loops = loops.NewCache()
	}
	return &Service{b: b}
}

func (s *Service) project() (*project.Project, *Error) {
	p, err := s.b.Project()
	if err != nil {
		return nil, errorf("project_missing", "run `gitwarrant init` in the repository, or start the server with --dir pointing at it", "%v", err)
	}
	return p, nil
}

// ListLoopsIn takes no arguments.
type ListLoopsIn struct{}

// LoopSummary is one loop in list_loops.
type LoopSummary struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Error       string `json:"error,omitempty" jsonschema:"why the loop does not load, when it does not"`
}

// ListLoopsOut is list_loops' result.
type ListLoopsOut struct {
	Loops []LoopSummary `json:"loops"`
}

// ListLoops lists the loops, and those that fail to load with why.
func (s *Service) ListLoops(ctx context.Context, _ Caller, _ ListLoopsIn) (ListLoopsOut, error) {
	p, e := s.project()
	if e != nil {
		return ListLoopsOut{}, e
	}
	ls, errs := s.b.Loops.LoadDir(p.LoopsDir())
	out := ListLoopsOut{Loops: []LoopSummary{}}
	for _, l := range ls {
		out.Loops = append(out.Loops, LoopSummary{Name: l.Name, Description: l.Description})
	}
	for _, err := range errs {
		name := "?"
		var le *loops.Error
		if errors.As(err, &le) {
			name = strings.TrimSuffix(baseName(le.File), ".loop.md")
		}
		out.Loops = append(out.Loops, LoopSummary{Name: name, Error: err.Error()})
	}
	sort.Slice(out.Loops, func(i, j int) bool { return out.Loops[i].Name < out.Loops[j].Name })
	return out, nil
}

// LoopIn names one loop.
type LoopIn struct {
	Loop string `json:"loop" jsonschema:"the loop's name, as list_loops gives it"`
}

// maxContextBytes is loop_context's budget: 6,000 tokens at 4 bytes each.
const maxContextBytes = 24000

// ContextOut is loop_context's result.
type ContextOut struct {
	Loop    string   `json:"loop"`
	Context string   `json:"context" jsonschema:"the loop's five layers and contract, as Markdown"`
	Tokens  int      `json:"tokens"`
	Bytes   int      `json:"bytes"`
	Trimmed []string `json:"trimmed" jsonschema:"the parts left out to fit 6,000 tokens, least essential first"`
}

// LoopContext renders one loop as one pack, trimmed deterministically to
// the budget from the least essential parts: the preamble, then the
// procedure, then the brief. The warrant, reserved list and record contract
// are never trimmed; a pack that is still too large is cut at a line.
func (s *Service) LoopContext(ctx context.Context, _ Caller, in LoopIn) (ContextOut, error) {
	p, e := s.project()
	if e != nil {
		return ContextOut{}, e
	}
	l, e := s.loadLoop(p, in.Loop)
	if e != nil {
		return ContextOut{}, e
	}
	c := *l
	out := ContextOut{Loop: l.Name, Trimmed: []string{}}
	text := compile.Render([]*loops.Loop{&c}, compile.Options{})
	for _, part := range []string{"preamble", "procedure", "brief"} {
		if len(text) <= maxContextBytes {
			break
		}
		switch part {
		case "preamble":
			c.Preamble = ""
		case "procedure":
			c.Procedure = ""
		case "brief":
			c.Brief = ""
		}
		out.Trimmed = append(out.Trimmed, part)
		text = compile.Render([]*loops.Loop{&c}, compile.Options{})
	}
	if len(text) > maxContextBytes {
		cut := strings.LastIndexByte(text[:maxContextBytes], '\n')
		if cut < 0 {
			cut = maxContextBytes
		}
		text = text[:cut+1]
		out.Trimmed = append(out.Trimmed, "tail")
	}
	out.Context, out.Bytes, out.Tokens = text, len(text), compile.Tokens(text)
	return out, nil
}

// CheckIn is warrant_check's input: action and target, or tool and
// tool_input.
type CheckIn struct {
	Loop      string         `json:"loop,omitempty" jsonschema:"the loop to check against; required with action/target, optional with a tool call (then the call is routed as the hook routes it)"`
	Action    string         `json:"action,omitempty" jsonschema:"read, draft, change or send (self-reported)"`
	Target    string         `json:"target,omitempty" jsonschema:"what the action is on, in plain words (self-reported)"`
	Tool      string         `json:"tool,omitempty" jsonschema:"a tool name as the agent calls it (Bash, Edit, Read, WebFetch, mcp__server__tool)"`
	ToolInput map[string]any `json:"tool_input,omitempty" jsonschema:"the tool call's input, exactly as it will be sent"`
}

// WarrantCheck judges and records one check.
func (s *Service) WarrantCheck(ctx context.Context, c Caller, in CheckIn) (CheckResult, error) {
	selfReported := in.Action != "" || in.Target != ""
	switch {
	case selfReported && in.Tool != "":
		return CheckResult{}, errorf("argument_invalid", "send either action and target, or tool and tool_input", "both a self-reported action and a tool call were given")
	case selfReported && (in.Action == "" || strings.TrimSpace(in.Target) == "" || in.Loop == ""):
		return CheckResult{}, errorf("argument_invalid", "a self-reported check needs loop, action (read, draft, change, send) and target", "loop, action and target are all required")
	case selfReported && !validVerb(in.Action):
		return CheckResult{}, errorf("argument_invalid", "use read, draft, change or send", "unknown action %q", in.Action)
	case !selfReported && in.Tool == "":
		return CheckResult{}, errorf("argument_invalid", "send loop, action and target, or tool and tool_input", "nothing to check")
	}
	p, e := s.project()
	if e != nil {
		return CheckResult{}, e
	}
	var l *loops.Loop
	if in.Loop != "" {
		var e *Error
		if l, e = s.loadLoop(p, in.Loop); e != nil {
			return CheckResult{}, e
		}
	}
	res, err := s.b.Check(ctx, p, CheckRequest{Loop: in.Loop, Action: in.Action, Target: in.Target, Tool: in.Tool, ToolInput: in.ToolInput, Caller: c, Loaded: l, Loops: s.b.Loops})
	if err != nil {
		var me *Error
		if errors.As(err, &me) {
			return CheckResult{}, me
		}
		return CheckResult{}, errorf("record_failed", "run `gitwarrant record verify` in the repository; until the record can be written, treat the action as ask", "the check could not be recorded: %v", err)
	}
	return res, nil
}

// NoteIn is record_note's input.
type NoteIn struct {
	Loop    string `json:"loop" jsonschema:"the loop the work belongs to"`
	Note    string `json:"note,omitempty" jsonschema:"free text"`
	Saw     string `json:"saw,omitempty" jsonschema:"what the agent saw"`
	Did     string `json:"did,omitempty" jsonschema:"what it did"`
	Skipped string `json:"skipped,omitempty" jsonschema:"what it skipped and why"`
	Stopped string `json:"stopped,omitempty" jsonschema:"why it stopped"`
}

// EntryOut names a record entry that was written.
type EntryOut struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// RecordNote appends a note: the evidence a loop's record layer asks for.
func (s *Service) RecordNote(ctx context.Context, c Caller, in NoteIn) (EntryOut, error) {
	if strings.TrimSpace(in.Note+in.Saw+in.Did+in.Skipped+in.Stopped) == "" {
		return EntryOut{}, errorf("argument_invalid", "say what happened in note, saw, did, skipped or stopped", "the note is empty")
	}
	p, e := s.project()
	if e != nil {
		return EntryOut{}, e
	}
	if _, e := s.loadLoop(p, in.Loop); e != nil {
		return EntryOut{}, e
	}
	return s.append(p, chain.Entry{Loop: in.Loop, Kind: chain.KindNote, Note: in.Note, Saw: in.Saw, Did: in.Did, Skipped: in.Skipped, Stopped: in.Stopped, Via: c.Via,
		Extra: map[string]any{"credential": c.Credential}})
}

func (s *Service) append(p *project.Project, e chain.Entry) (EntryOut, error) {
	rec, err := record.Open(p)
	if err != nil {
		return EntryOut{}, errorf("record_failed", "run `gitwarrant record verify` in the repository", "%v", err)
	}
	got, err := rec.Append(e)
	if err != nil {
		return EntryOut{}, errorf("record_failed", "run `gitwarrant record verify` in the repository", "the entry could not be recorded: %v", err)
	}
	return EntryOut{Seq: got.Seq, Hash: got.Hash}, nil
}

// MatchIn is match_loop's input.
type MatchIn struct {
	Task string `json:"task" jsonschema:"the task in plain words"`
}

// MatchOut is match_loop's result; Loop is empty when no loop covers the task.
type MatchOut struct {
	Loop       string      `json:"loop"`
	Candidates []Candidate `json:"candidates"`
}

// Candidate is one loop that scored.
type Candidate struct {
	Loop  string   `json:"loop"`
	Score int      `json:"score"`
	Why   []string `json:"why"`
}

// MatchLoop routes a task to the loop that covers it, as `gitwarrant match`.
func (s *Service) MatchLoop(ctx context.Context, _ Caller, in MatchIn) (MatchOut, error) {
	if strings.TrimSpace(in.Task) == "" {
		return MatchOut{}, errorf("argument_invalid", "describe the task in plain words", "the task is empty")
	}
	p, e := s.project()
	if e != nil {
		return MatchOut{}, e
	}
	ls, _ := s.b.Loops.LoadDir(p.LoopsDir())
	out := MatchOut{Candidates: []Candidate{}}
	for _, c := range route.Match(ls, in.Task) {
		out.Candidates = append(out.Candidates, Candidate{Loop: c.Loop.Name, Score: c.Score, Why: append([]string{}, c.Why...)})
	}
	if len(out.Candidates) > 0 {
		out.Loop = out.Candidates[0].Loop
	}
	return out, nil
}

// loadLoop loads one loop by name through the parse cache. The loop is
// shared with other calls: copy it before changing it.
func (s *Service) loadLoop(p *project.Project, name string) (*loops.Loop, *Error) {
	if !loops.ValidName(name) {
		return nil, errorf("loop_unknown", "call list_loops for the names", "%q is not a loop name", name)
	}
	l, err := s.b.Loops.LoadByName(p.LoopsDir(), name)
	if err != nil {
		if _, statErr := os.Stat(p.LoopsDir() + "/" + name + ".loop.md"); statErr != nil {
			return nil, errorf("loop_unknown", "call list_loops for the names", "no loop named %q", name)
		}
		return nil, errorf("loop_invalid", "a person must fix the loop file; until then, treat every action as ask", "%v", err)
	}
	return l, nil
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

func validVerb(s string) bool { _, err := loops.ParseVerb(s); return err == nil }

var _ = fmt.Sprintf
