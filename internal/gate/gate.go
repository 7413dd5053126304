// Package gate decides a tool call (docs/threat-model.md): payload → typed
// actions → verdict → record. The Claude Code hook and `check` call it, and
// later the MCP server, HTTP and CI; it knows no command-layer type. The
// order of a decision matters: self-protection is decided on the parsed
// call before any lock or I/O that can block, every failure leads to ask,
// and only a typed warrant entry allows a tool call.
package gate

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/vouch"
)

// Env is the outside world of one decision: environment, working
// directory, clock and a stream for diagnostics.
type Env struct {
	Getenv func(string) string
	Cwd    string
	Now    func() time.Time
	Err    io.Writer
	// Self is the path of the running gitwarrant binary, to recognise it
	// under another name ("" = os.Executable).
	Self string
	// Loops is a long-lived process's parse cache (nil: none). It still
	// reads every loop file on every call (docs/mcp.md#parse-cache).
	Loops *loops.Cache
	// ParseStore opens the parses kept across processes in a repository
	// whose common git dir is given (docs/performance.md#the-parse-cache);
	// a hook process, which parses its loops once, is given
	// parsecache.Open. Nil, or a nil Store, parses every time. It is used
	// only when Loops is nil.
	ParseStore func(commonDir string) loops.Store
	// Journal records for a long-lived server: the answer waits for the
	// entry's line in the writer's journal, not for its commit
	// (docs/record.md#the-journal). Nil commits each entry to the ref
	// before answering.
	Journal *record.Journal
	// Allower is the allow side of the decision; every surface passes
	// TypedAllower. Nil allows nothing: a call no loop stops asks, so a
	// surface that forgets it fails closed.
	Allower Allower
	// Vouches is a long-lived process's memo of vouching, reused only for
	// the same allowed_signers bytes and the same record refs at the same
	// commits (vouch.Memo). Nil: worked out on every decision.
	Vouches *vouch.Memo

	// rec is the project's record as this decision opened it, shared by
	// its stages (set by decide).
	rec *decisionRecord
}

// decisionRecord is a project's record opened once for one decision:
// vouching and the append each opened it again, which found the
// repository and read its config for the format check each time
// (docs/performance.md#the-http-hook-in-the-server).
type decisionRecord struct {
	p      *project.Project
	opened bool
	r      *record.Record
	err    error
}

// record opens p's record (without draining the journals: the append
// commits the writer's journal under its lock), once per decision.
func (e Env) record(p *project.Project) (*record.Record, error) {
	d := e.rec
	if d == nil || d.p != p {
		return record.OpenUndrained(p)
	}
	if !d.opened {
		d.opened = true
		d.r, d.err = record.OpenUndrained(p)
	}
	return d.r, d.err
}

// allow asks the Allower whether l allows c; without one nothing is
// allowed.
func (e Env) allow(l *loops.Loop, c *Call) (string, bool) {
	if e.Allower == nil {
		return "", false
	}
	return e.Allower(l, c)
}

func (e Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Options are what the surface asked for.
type Options struct {
	Loop    string
	LoopSet bool // a loop was named, even as "" (an unset variable)
	Strict  bool // no loop covers the call → ask
	// DefaultLoop decides the calls of a session no prompt has pinned
	// (docs/sessions.md#how-a-loop-is-chosen).
	DefaultLoop string
	NoRecord    bool
	Dir         string // --dir
	Via         string // "hook", "mcp", "http", "ci"
	// Credential is recorded with every entry when set: "stdio", or an
	// agent key's label over HTTP (docs/mcp.md#agent-keys).
	Credential string
}

// via is the channel recorded with an entry ("hook" unless told).
func (o Options) via() string {
	if o.Via == "" {
		return "hook"
	}
	return o.Via
}

// Pinned reports a gate the user asked for: every failure then asks.
func (o Options) Pinned() bool {
	return o.LoopSet || o.Loop != "" || o.Strict || o.DefaultLoop != ""
}

// Answer is a decision: nothing (silent pass-through: the agent's own
// permissions decide) or a verdict with its reason.
type Answer struct {
	Silent  bool
	Verdict loops.Verdict
	Reason  string
	// Loop and Rule name what decided, when a loop's warrant did; Seq and
	// Hash the record entry, when one was written.
	Loop, Rule string
	Seq        int64
	Hash       string
	// Context is what the agent should know beyond the reason: the loop
	// that decided is not the version its file holds (docs/signing.md).
	Context string
}

// Asks builds a failed-closed ask.
func Asks(format string, args ...any) Answer {
	return Answer{Verdict: loops.Ask, Reason: hook.Reason("", "failed closed", fmt.Sprintf(format, args...))}
}

// Allower is the allow side: it reports whether a loop's typed entries
// (Bash(...), Edit(...), …) allow every action of a call, and the rule
// that did. Natural-language entries never allow a tool call
// (docs/threat-model.md#natural-language-entries-and-tool-calls).
type Allower func(l *loops.Loop, c *Call) (rule string, ok bool)

// Decide answers one PreToolUse payload within ctx: a deadline or a panic
// answers ask, never allow (docs/hook-protocol.md#claude-code-hooks: a
// timed-out hook does not block).
func Decide(ctx context.Context, env Env, o Options, data []byte, readErr error) Answer {
	ch := make(chan Answer, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- Asks("internal error: %v — please report it at https://github.com/gitwarrant/gitwarrant/issues", r)
			}
		}()
		ch <- decide(env, o, data, readErr)
	}()
	select {
	case a := <-ch:
		return a
	case <-ctx.Done():
		return Asks("the check did not finish in time (%v; is the record locked by a stuck process?)", ctx.Err())
	}
}

func decide(env Env, o Options, data []byte, readErr error) Answer {
	pinned := o.Pinned()
	pl, err := hook.Decode(data)
	if readErr != nil {
		err = readErr
	}
	if err != nil {
		place := FindPlace(env.getenv, o.Dir, env.getenv("CLAUDE_PROJECT_DIR"), env.Cwd)
		if !pinned && place.Project == nil {
			return Answer{Silent: true} // a bare hook outside a project costs nothing
		}
		return Asks("cannot read the hook payload: %v", err)
	}
	place := FindPlace(env.getenv, o.Dir, env.getenv("CLAUDE_PROJECT_DIR"), pl.Cwd, env.Cwd)
	if place.Project != nil {
		env.rec = &decisionRecord{p: place.Project}
	}
	c := Analyse(pl, place, env)
	if c.Denied != "" {
		a := Answer{Verdict: loops.Deny, Reason: hook.Reason("", "self-protection", humanOnlyPrefix+c.Denied), Rule: "self-protection: " + c.Denied}
		if place.Project != nil && !o.NoRecord {
			// Best effort: a deny stands even when it cannot be recorded.
			_ = appendEntry(env, place.Project, entryFor(c, o, validLoopName(o.Loop), "self-protection: "+c.Denied, loops.Deny))
		}
		return a
	}
	if place.Project == nil {
		if !pinned {
			if c.Unreadable != "" {
				return Answer{Verdict: loops.Ask, Reason: hook.Reason("", "unreadable call", c.Unreadable+" — it may touch what only a person may change, so a person decides")}
			}
			return Answer{Silent: true}
		}
		return Asks("no gitwarrant project: %v", place.ProjectErr)
	}
	if c.MapErr != nil {
		return Asks("cannot map the tool call to a check: %v", c.MapErr)
	}
	// The loops are loaded as the record puts them in force: a loop's
	// bytes count only when a signed entry vouches for them
	// (docs/signing.md#only-a-signed-warrant-is-in-force).
	rec, err := env.record(place.Project)
	env.Loops = env.loops(place).WithVoucher(vouch.NewIn(place.Project, rec, err, env.Vouches))
	return decideWarrant(env, o, place, c)
}

// loops is the parse cache a decision in place loads through: the
// long-lived one, else one backed by the repository's kept parses, else
// none. A repository gitwarrant refuses to write into
// (docs/design.md#repositories-gitwarrant-refuses) keeps none.
func (e Env) loops(place Place) *loops.Cache {
	if e.Loops != nil || e.ParseStore == nil || place.Repo == nil || place.Repo.CheckFormat() != nil {
		return e.Loops
	}
	if s := e.ParseStore(place.Repo.CommonDir); s != nil {
		return loops.WithStore(s)
	}
	return nil
}

func validLoopName(s string) string {
	if loops.ValidName(s) {
		return s
	}
	return ""
}

func self(env Env) string {
	if env.Self != "" {
		return env.Self
	}
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	return p
}
