package hook

import "strings"

// InstallHint says how to install gitwarrant; the pinned hook command
// prints it when the binary is missing.
const InstallHint = "go install github.com/gitwarrant/gitwarrant/cmd/gitwarrant@latest"

// SettingsTimeout is the hook timeout, in seconds, to write next to the
// command in .claude/settings.json. Claude Code lets a timed-out hook's call
// through (docs/hook-protocol.md#claude-code-hooks), so `hook claude` keeps its own, shorter
// deadline (Deadline) and answers ask before Claude Code would give up.
const SettingsTimeout = 30

// Matcher is the PreToolUse matcher to install: every tool, because the
// mapping covers unknown tools too (they check as send) and narrowing the
// matcher would let a renamed tool (Task → Agent) slip past.
const Matcher = "*"

// Wiring is what the hook commands install writes are told: a loop pinned
// for every call, a default loop for sessions no prompt has pinned
// (docs/sessions.md), and strict mode.
type Wiring struct {
	Loop, DefaultLoop string
	Strict            bool
}

// Pinned reports a wiring under which every call has a loop or strict
// mode: a hook that gives no answer must then block.
func (w Wiring) Pinned() bool { return w.Loop != "" || w.DefaultLoop != "" || w.Strict }

// Flags are the wiring as `hook claude` flags.
func (w Wiring) Flags() []string {
	var f []string
	if w.Loop != "" {
		f = append(f, "--loop", w.Loop)
	}
	if w.DefaultLoop != "" {
		f = append(f, "--default-loop", w.DefaultLoop)
	}
	if w.Strict {
		f = append(f, "--strict")
	}
	return f
}

func (w Wiring) args() string {
	s := ""
	if w.Loop != "" {
		s += " --loop " + shellQuote(w.Loop)
	}
	if w.DefaultLoop != "" {
		s += " --default-loop " + shellQuote(w.DefaultLoop)
	}
	if w.Strict {
		s += " --strict"
	}
	return s
}

// Pre is the shell command for the PreToolUse hook in
// .claude/settings.json. Claude Code fails open on any exit status but 2,
// so a pinned gate (a loop, a default loop or strict) is written to exit 2
// — which blocks the call and shows stderr to Claude — when gitwarrant is
// not on PATH or the hook itself fails; `hook claude` always exits 0 when
// it answers, so that branch fires only when no answer came. An unpinned
// hook stays out of the way when gitwarrant is missing, as the guide
// promises ("a bare hook costs nothing").
func (w Wiring) Pre() string {
	cmd := "gitwarrant hook claude" + w.args()
	if !w.Pinned() {
		return "command -v gitwarrant >/dev/null 2>&1 || exit 0; " + cmd
	}
	return "command -v gitwarrant >/dev/null 2>&1 || { echo 'gitwarrant is not installed, and this repository pins a gitwarrant gate, so the call is blocked: install it with `" + InstallHint + "` and make sure it is on PATH' >&2; exit 2; }; " +
		cmd + " || { echo \"gitwarrant hook claude failed (exit $?), so the call is blocked: run it by hand to see why\" >&2; exit 2; }"
}

// Prompt is the shell command for the UserPromptSubmit hook, which pins
// the session to the loop its prompt routes to. It never blocks the
// prompt: the calls it leads to meet PreToolUse, which fails closed.
func (w Wiring) Prompt() string {
	return "command -v gitwarrant >/dev/null 2>&1 || exit 0; gitwarrant hook claude --event prompt" + w.args() + " || exit 0"
}

// SettingsCommand is Wiring{Loop: loop, Strict: strict}.Pre().
func SettingsCommand(loop string, strict bool) string {
	return Wiring{Loop: loop, Strict: strict}.Pre()
}

// SessionEndCommand is the shell command for the SessionEnd hook, which
// forgets the session's pin.
func SessionEndCommand() string {
	return "command -v gitwarrant >/dev/null 2>&1 || exit 0; gitwarrant hook claude --event session-end || exit 0"
}

// PostSettingsCommand is the shell command for the PostToolUse hook that
// pairs each asked call with the fact that it ran. It never blocks: the
// tool has already run, and a missing gitwarrant only loses the evidence.
func PostSettingsCommand() string {
	return "command -v gitwarrant >/dev/null 2>&1 || exit 0; gitwarrant hook claude --post || exit 0"
}

// ParseWiring reads back the wiring and the event of a command install
// wrote; ok is false when cmd is not `gitwarrant hook claude` with flags
// install writes.
func ParseWiring(cmd string) (w Wiring, event string, ok bool) {
	return parseWiringArgs(cmd, "gitwarrant hook claude", false)
}

// parseWiringArgs reads the flags after prefix in cmd, up to the first
// `||`, `;`, `#` or redirection (`<&3 3<&- &` in the other clients'
// commands, AgentPre). agent takes their --stop-after too.
func parseWiringArgs(cmd, prefix string, agent bool) (w Wiring, event string, ok bool) {
	_, args, found := strings.Cut(cmd, prefix)
	if !found {
		return w, "", false
	}
	args, _, _ = strings.Cut(args, "||")
	args, _, _ = strings.Cut(args, ";")
	args, _, _ = strings.Cut(args, "#")
	args, _, _ = strings.Cut(args, "<")
	fields := strings.Fields(args)
	event = "pre"
	for i := 0; i < len(fields); i++ {
		val := func() string {
			if i+1 >= len(fields) {
				ok = false
				return ""
			}
			i++
			return strings.Trim(fields[i], "'")
		}
		ok = true
		switch fields[i] {
		case "--strict":
			w.Strict = true
		case "--post":
			event = "post"
		case "--loop":
			w.Loop = val()
		case "--default-loop":
			w.DefaultLoop = val()
		case "--event":
			event = val()
		case "--stop-after":
			if !agent {
				return w, "", false
			}
			val()
		default:
			return w, "", false
		}
		if !ok {
			return w, "", false
		}
	}
	return w, event, true
}

// IsGitwarrantCommand reports whether a settings command is one of ours, so
// install can replace it and uninstall remove it without touching others.
func IsGitwarrantCommand(cmd string) bool {
	return strings.Contains(cmd, "gitwarrant hook claude")
}

// shellQuote quotes s for POSIX sh when it holds anything but safe
// characters (loop names never do; this is defence in depth).
func shellQuote(s string) string {
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r >= 'A' && r <= 'Z' || r == '_' || r == '.') {
			safe = false
			break
		}
	}
	if safe && s != "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
