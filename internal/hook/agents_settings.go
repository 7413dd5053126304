package hook

import "strings"

// AgentPre is the shell command install writes for client's tool-call
// hook. Codex, Gemini CLI and Cursor take a failure of a hook — any exit
// status but 2 (0 with an answer), a crash, a kill — as "go ahead", so the
// command turns every status of `gitwarrant hook <client>` but 0 and 2
// into exit 2 with a reason on stderr: a killed or crashed gitwarrant
// blocks the call (docs/agents.md#failures). A missing gitwarrant blocks
// under a pinned wiring and stays out of the way otherwise, as the Claude
// Code hook does.
func (w Wiring) AgentPre(client string) string {
	// --event pre: the event is the wiring's, not the payload's, so a
	// client that renames its event still gets its calls decided.
	cmd := "gitwarrant hook " + client + " --event pre" + w.args()
	missing := "command -v gitwarrant >/dev/null 2>&1 || exit 0; "
	if w.Pinned() {
		missing = "command -v gitwarrant >/dev/null 2>&1 || { echo 'gitwarrant is not installed, and this repository pins a gitwarrant gate, so the call is blocked: install it with `" + InstallHint + "` and make sure it is on PATH' >&2; exit 2; }; "
	}
	return missing + cmd + `; s=$?; [ $s -eq 0 ] || [ $s -eq 2 ] || { echo "gitwarrant hook ` + client + ` failed (exit $s), so the call is blocked: run it by hand to see why" >&2; exit 2; }; exit $s`
}

// AgentPrompt is the shell command for client's prompt hook, which pins
// the session to a loop. It never blocks the prompt.
func (w Wiring) AgentPrompt(client string) string {
	return "command -v gitwarrant >/dev/null 2>&1 || exit 0; gitwarrant hook " + client + " --event prompt" + w.args() + " || exit 0"
}

// ParseAgentWiring reads back the client, wiring and event ("pre" or
// "prompt") of a command install wrote for Codex, Gemini CLI or Cursor; ok
// is false for anything else.
func ParseAgentWiring(cmd string) (client string, w Wiring, event string, ok bool) {
	for _, c := range Clients {
		if _, rest, found := strings.Cut(cmd, "gitwarrant hook "+c); found && (rest == "" || rest[0] == ' ' || rest[0] == ';') {
			client = c
			break
		}
	}
	if client == "" {
		return "", w, "", false
	}
	w, event, ok = parseWiringArgs(cmd, "gitwarrant hook "+client)
	if !ok {
		return "", w, "", false
	}
	var want string
	switch event {
	case "pre":
		want = w.AgentPre(client)
	case "prompt":
		want = w.AgentPrompt(client)
	}
	return client, w, event, want == cmd
}
