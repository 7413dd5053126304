package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/route"
)

// Session warrants (docs/sessions.md). The person's prompt says what the
// agent's task is, so the prompt hook routes it like `gitwarrant match` and
// pins the session to the loop it routes to; every tool call of the session
// is then decided under that loop. The pins are local state under the git
// dir (.git/gitwarrant/sessions/), which self-protection and the sandbox
// keep the agent from writing.

// How a decision's loop was chosen, as recorded under hook.ExtraLoopVia.
const (
	ViaPinned  = "pinned"         // --loop in the hook wiring
	ViaRouted  = "session:routed" // the session's prompt routed to it
	ViaNamed   = "session:named"  // the prompt named it ("use loop release")
	ViaSet     = "session:set"    // `gitwarrant session set`
	ViaDefault = "default"        // --default-loop in the hook wiring
	ViaCall    = "routed-by-call" // unpinned: the call's own words routed it
	ViaScreen  = "screen"         // unpinned: every loop's never and ask entries
	ViaStrict  = "strict"         // unpinned and strict: no loop covers the call
)

// sessionMaxAge is how long a pin outlives its last prompt; SessionEnd
// removes it sooner. A session resumed after that starts from the default
// loop again, which is never wider than a pin the person chose.
const sessionMaxAge = 7 * 24 * time.Hour

// SessionPin is one session's loop, as stored and as `gitwarrant session`
// shows it.
type SessionPin struct {
	Session string    `json:"session"`
	Loop    string    `json:"loop"`
	Via     string    `json:"via"`
	Why     string    `json:"why,omitempty"`
	At      time.Time `json:"at"`
}

// SessionDir is where the pins of place's project live: under the git
// dir's gitwarrant/ in a repository, else in the temporary directory keyed
// by the project.
func SessionDir(place Place) string {
	if place.Repo != nil {
		return filepath.Join(place.Repo.CommonDir, "gitwarrant", "sessions")
	}
	sum := sha256.Sum256([]byte(place.Project.Dir))
	return filepath.Join(os.TempDir(), "gitwarrant-sessions-"+hex.EncodeToString(sum[:6]))
}

// sessionFile names a session's pin: the id itself when it holds only the
// characters Claude Code uses, else a hash of it, so no id can name a path.
func sessionFile(dir, id string) string {
	name := markerName(id)
	if name == "" {
		sum := sha256.Sum256([]byte(id))
		name = "h-" + hex.EncodeToString(sum[:16])
	}
	return filepath.Join(dir, name+".json")
}

// ReadPin returns the session's pin; ok is false when there is none (or it
// is older than sessionMaxAge). A pin file that cannot be read or parsed
// is an error, never a silent fall back to a wider loop.
func ReadPin(place Place, id string, now time.Time) (SessionPin, bool, error) {
	var pin SessionPin
	if id == "" {
		return pin, false, nil
	}
	raw, err := os.ReadFile(sessionFile(SessionDir(place), id))
	if errors.Is(err, fs.ErrNotExist) {
		return pin, false, nil
	}
	if err != nil {
		return pin, false, fmt.Errorf("reading the session's loop pin: %v", err)
	}
	if err := json.Unmarshal(raw, &pin); err != nil || pin.Session != id || !loops.ValidName(pin.Loop) {
		return pin, false, fmt.Errorf("the session's loop pin %s is damaged: remove it with `gitwarrant session clear %s`", sessionFile(SessionDir(place), id), id)
	}
	if now.Sub(pin.At) > sessionMaxAge {
		return pin, false, nil
	}
	return pin, true, nil
}

// WritePin stores a session's pin atomically (a temporary file renamed
// over the old one), so a concurrent PreToolUse reads the old pin or the
// new one, never half of one.
func WritePin(place Place, pin SessionPin) error {
	dir := SessionDir(place)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(pin)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".pin-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(append(b, '\n'))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), sessionFile(dir, pin.Session))
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

// ClearPin removes a session's pin; removing none is not an error.
func ClearPin(place Place, id string) error {
	err := os.Remove(sessionFile(SessionDir(place), id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// ListPins returns every live pin of the project, oldest first, and prunes
// the expired ones.
func ListPins(place Place, now time.Time) ([]SessionPin, error) {
	dir := SessionDir(place)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []SessionPin
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var pin SessionPin
		if json.Unmarshal(raw, &pin) != nil || now.Sub(pin.At) > sessionMaxAge {
			os.Remove(p)
			continue
		}
		out = append(out, pin)
	}
	slices.SortFunc(out, func(a, b SessionPin) int { return a.At.Compare(b.At) })
	return out, nil
}

// namedLoop finds "use loop <name>" (or "use the <name> loop", "loop:
// <name>") in a prompt: the way a person names a loop outright.
// Compiled on first use: only the prompt hook needs it, and compiling it
// at start-up was a share of every PreToolUse decision.
var namedLoop = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:use\s+(?:the\s+)?loop\s+([a-z0-9][a-z0-9-]*)|use\s+the\s+([a-z0-9][a-z0-9-]*)\s+loop|loop:\s*([a-z0-9][a-z0-9-]*))`)
})

// NamedLoop returns the loop a prompt names outright, or "".
func NamedLoop(prompt string) string {
	m := namedLoop().FindStringSubmatch(prompt)
	if m == nil {
		return ""
	}
	for _, g := range m[1:] {
		if g != "" {
			return strings.ToLower(g)
		}
	}
	return ""
}

// PromptAnswer is the prompt hook's answer: context for the agent and a
// line for the person.
type PromptAnswer struct {
	Context string
	Message string
	Pin     *SessionPin // the session's loop after this prompt, if any
}

// RoutePrompt handles a UserPromptSubmit payload: it routes the prompt to a
// loop and moves the session's pin there (docs/sessions.md). A prompt that
// routes nowhere keeps the pin. It never blocks the prompt: a failure is
// said in the context, and the tool calls still meet the default loop or
// the screen.
func RoutePrompt(env Env, o Options, data []byte, readErr error) PromptAnswer {
	pl, err := hook.DecodeSession(data)
	if readErr != nil {
		err = readErr
	}
	if err != nil {
		return PromptAnswer{Context: "gitwarrant could not read this prompt's hook payload (" + err.Error() + "); tool calls are decided under the default loop, if any."}
	}
	place := FindPlace(env.getenv, o.Dir, env.getenv("CLAUDE_PROJECT_DIR"), pl.Cwd, env.Cwd)
	if place.Project == nil {
		return PromptAnswer{}
	}
	if o.Loop != "" {
		return PromptAnswer{Context: fmt.Sprintf("gitwarrant: every tool call in this repository is checked under the loop %q (pinned in the hook wiring); its warrant is in the context files.", o.Loop)}
	}
	now := env.now()
	ListPins(place, now) // prunes expired pins; a failure costs nothing here
	old, had, oldErr := ReadPin(place, pl.SessionID, now)
	lc := env.loops(place)
	if lc == nil {
		lc = loops.NewCache() // parses a parent every loop extends once, not once per child
	}
	ls, errs := lc.LoadDir(place.Project.LoopsDir())
	var pin *SessionPin
	var moved bool
	var note string
	if name := NamedLoop(pl.Prompt); name != "" {
		if l := findJob(ls, name); l != nil {
			pin, moved = &SessionPin{Session: pl.SessionID, Loop: l.Name, Via: ViaNamed, Why: "the prompt names it", At: now}, true
		} else {
			note = fmt.Sprintf("The prompt names the loop %q, but there is no job loop by that name (run `gitwarrant list`); ", name)
		}
	}
	if pin == nil {
		for _, cand := range route.Match(ls, pl.Prompt) {
			if !cand.Loop.Abstract {
				pin, moved = &SessionPin{Session: pl.SessionID, Loop: cand.Loop.Name, Via: ViaRouted, Why: strings.Join(cand.Why[:min(2, len(cand.Why))], "; "), At: now}, true
				break
			}
		}
	}
	if pin == nil && had && oldErr == nil {
		old.At = now // a prompt keeps the session's pin alive
		pin = &old
	}
	if pin != nil {
		if err := WritePin(place, *pin); err != nil {
			return PromptAnswer{Context: note + fmt.Sprintf("gitwarrant could not store this session's loop (%v); tool calls are decided under the default loop, if any.", err)}
		}
	}
	return promptContext(o, pin, moved && !(had && old.Loop == pin.Loop), note, len(errs) > 0)
}

// promptContext words the prompt hook's answer.
func promptContext(o Options, pin *SessionPin, changed bool, note string, broken bool) PromptAnswer {
	a := PromptAnswer{Pin: pin}
	how := " To work under another loop, the person names it in a prompt: `use loop <name>` (`gitwarrant list` shows them)."
	switch {
	case pin != nil:
		why := map[string]string{ViaRouted: "the prompt routes to it", ViaNamed: "the prompt names it", ViaSet: "set with `gitwarrant session set`"}[pin.Via]
		if pin.Via == ViaRouted && pin.Why != "" {
			why += " (" + pin.Why + ")"
		}
		if !changed {
			why = "kept from an earlier prompt: " + why
		}
		a.Context = note + fmt.Sprintf("gitwarrant: this session works under the loop %q — %s. Every tool call is checked against that loop's warrant; what it does not allow waits for a person.", pin.Loop, why) + how
		if changed {
			a.Message = fmt.Sprintf("gitwarrant: this session now works under loop %q — %s. Name another with `use loop <name>`.", pin.Loop, why)
		}
	case o.DefaultLoop != "":
		a.Context = note + fmt.Sprintf("gitwarrant: no loop matches this prompt, so this session works under the default loop %q. Every tool call is checked against its warrant; what it does not allow waits for a person.", o.DefaultLoop) + how
	default:
		a.Context = note + "gitwarrant: no loop matches this prompt and none is the default, so every loop's never and ask entries screen the tool calls and Claude Code's own permissions decide the rest." + how
	}
	if broken {
		a.Context += " Some loop files do not load (`gitwarrant lint` says why); calls they might cover ask."
	}
	return a
}

// findJob returns the job (non-abstract) loop named name among ls.
func findJob(ls []*loops.Loop, name string) *loops.Loop {
	for _, l := range ls {
		if l.Name == name && !l.Abstract {
			return l
		}
	}
	return nil
}

// EndSession handles a SessionEnd payload: the session's pin goes.
func EndSession(env Env, o Options, data []byte, readErr error) error {
	if readErr != nil {
		return readErr
	}
	pl, err := hook.DecodeSession(data)
	if err != nil {
		return err
	}
	place := FindPlace(env.getenv, o.Dir, env.getenv("CLAUDE_PROJECT_DIR"), pl.Cwd, env.Cwd)
	if place.Project == nil {
		return nil
	}
	return ClearPin(place, pl.SessionID)
}

// chosen is the loop a tool call is decided under and how it was chosen;
// Name "" means none was: the unpinned screen and routing decide.
type chosen struct {
	Name, Via, Why string
	Err            error
}

// chooseLoop picks the loop for a call: the wiring's --loop, then the
// session's pin, then the wiring's --default-loop.
func chooseLoop(env Env, o Options, place Place, session string) chosen {
	if o.LoopSet || o.Loop != "" {
		return chosen{Name: o.Loop, Via: ViaPinned}
	}
	if pin, ok, err := ReadPin(place, session, env.now()); err != nil {
		return chosen{Via: "session", Err: err}
	} else if ok {
		return chosen{Name: pin.Loop, Via: pin.Via, Why: pin.Why}
	}
	if o.DefaultLoop != "" {
		return chosen{Name: o.DefaultLoop, Via: ViaDefault}
	}
	return chosen{}
}
