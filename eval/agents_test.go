package eval

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// TestCorpusAgents replays the tool-call corpora (eval/corpus) through
// `hook codex`, `hook gemini` and `hook cursor`, each call translated into
// the payload that client sends for the same work (docs/agents.md), and
// holds each client to `hook claude`'s decision on the same call: never an
// allow where Claude Code's answer is ask or deny, and — where the client
// has the tool — the same allow. A client without the tool (Codex has no
// Read, Grep, Glob, LS or WebFetch: it reads through the shell) skips the
// call.
func TestCorpusAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the corpora four times")
	}
	honest, err := readCorpus("honest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dangerous, err := readCorpus("dangerous.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	replays := map[string]*replay{}
	type tally struct{ same, looser, stricter, skipped int }
	got := map[string]*tally{"codex": {}, "gemini": {}, "cursor": {}}
	for _, c := range append(honest, dangerous...) {
		r := replays[c.Fixture]
		if r == nil {
			if r, err = newReplay(base, c.Fixture); err != nil {
				t.Fatal(err)
			}
			replays[c.Fixture] = r
		}
		claude, _ := r.decide(c)
		for client, tl := range got {
			payload := r.clientPayload(client, c)
			if payload == nil {
				tl.skipped++
				continue
			}
			code, out, errs := r.cliRun(payload, "hook", client, "--loop", "fix", "--no-record")
			allowed := clientAllows(client, code, out)
			switch {
			case allowed == (claude == loops.Allow):
				tl.same++
			case allowed:
				tl.looser++
				t.Errorf("%s allows %s %s (%s), which hook claude answers %s: %s%s", client, c.ID, callText(c), c.Tool, claude, out, errs)
			default:
				tl.stricter++
				t.Errorf("%s blocks %s %s (%s), which hook claude allows: %s%s", client, c.ID, callText(c), c.Tool, out, errs)
			}
		}
	}
	for client, tl := range got {
		t.Logf("%s: %d calls decided as hook claude decides them, %d looser, %d stricter, %d without the tool", client, tl.same, tl.looser, tl.stricter, tl.skipped)
		if tl.same == 0 {
			t.Errorf("%s: no call replayed", client)
		}
	}
}

// clientAllows reads a client hook's answer: Codex allows by saying
// nothing, Gemini CLI with "decision": "allow", Cursor with "permission":
// "allow". A block exits 2.
func clientAllows(client string, code int, out string) bool {
	if code != 0 {
		return false
	}
	switch client {
	case "codex":
		return strings.TrimSpace(out) == ""
	case "gemini":
		return strings.Contains(out, `"decision":"allow"`)
	}
	return strings.Contains(out, `"permission":"allow"`)
}

// clientPayload is the payload client sends for the corpus call c, or nil
// when the client has no such tool.
func (r *replay) clientPayload(client string, c corpusCall) []byte {
	in := map[string]any{}
	for k, v := range c.Input {
		if s, ok := v.(string); ok && (k == "file_path" || k == "path") && !filepath.IsAbs(s) {
			v = filepath.Join(r.root, s)
		}
		in[k] = v
	}
	str := func(k string) string { s, _ := in[k].(string); return s }
	var p map[string]any
	switch client {
	case "codex":
		p = map[string]any{"session_id": "eval", "cwd": r.root, "hook_event_name": "PreToolUse", "tool_use_id": c.ID}
		switch c.Tool {
		case "Bash":
			p["tool_name"], p["tool_input"] = "Bash", map[string]any{"command": str("command")}
		case "Write":
			p["tool_name"], p["tool_input"] = "apply_patch", map[string]any{"command": "*** Begin Patch\n*** Add File: " + str("file_path") + "\n" + patchLines("+", str("content")) + "*** End Patch\n"}
		case "Edit":
			p["tool_name"], p["tool_input"] = "apply_patch", map[string]any{"command": "*** Begin Patch\n*** Update File: " + str("file_path") + "\n@@\n" + patchLines("-", str("old_string")) + patchLines("+", str("new_string")) + "*** End Patch\n"}
		default:
			return nil
		}
	case "gemini":
		p = map[string]any{"session_id": "eval", "cwd": r.root, "hook_event_name": "BeforeTool"}
		tool, input := map[string]string{"Bash": "run_shell_command", "Read": "read_file", "Write": "write_file", "Edit": "replace",
			"Grep": "grep_search", "Glob": "glob", "LS": "list_directory", "WebFetch": "web_fetch", "WebSearch": "google_web_search"}[c.Tool], map[string]any{}
		switch c.Tool {
		case "Bash":
			input["command"] = str("command")
		case "Read", "Write", "Edit":
			input = in
		case "Grep", "Glob":
			input["pattern"] = str("pattern")
			if d := str("path"); d != "" {
				input["dir_path"] = d
			}
			if g := str("glob"); g != "" {
				input["include_pattern"] = g
			}
		case "LS":
			input["dir_path"] = str("path")
		case "WebFetch":
			input["prompt"] = "Summarize " + str("url")
		case "WebSearch":
			input["query"] = str("query")
		}
		if tool == "" {
			return nil
		}
		p["tool_name"], p["tool_input"] = tool, input
	case "cursor":
		p = map[string]any{"conversation_id": "eval", "workspace_roots": []string{r.root}}
		switch c.Tool {
		case "Bash":
			p["hook_event_name"], p["command"], p["cwd"] = "beforeShellExecution", str("command"), r.root
		case "Read":
			p["hook_event_name"], p["file_path"] = "beforeReadFile", str("file_path")
		default:
			p["hook_event_name"], p["tool_name"], p["tool_input"], p["cwd"] = "preToolUse", c.Tool, in, r.root
		}
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil
	}
	return b
}

// patchLines prefixes each line of s with mark, as apply_patch's body.
func patchLines(mark, s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString(mark + strings.TrimSuffix(l, "\n") + "\n")
		}
	}
	return b.String()
}
