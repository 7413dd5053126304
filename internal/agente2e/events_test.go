package agente2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
)

// dumpHook is a throwaway hook: it saves its stdin as <dir>/<event>-<n>.json
// and, for the events that may add context, answers with a marker the test
// looks for in the model's requests.
const dumpHook = `#!/bin/sh
dir=$(dirname "$0")/dumps
mkdir -p "$dir"
cat > "$dir/$1-$(date +%s%N).json"
case "$1" in
UserPromptSubmit|SessionStart)
  printf '{"hookSpecificOutput":{"hookEventName":"%s","additionalContext":"e2e-context-from-%s"}}\n' "$1" "$1" ;;
esac
`

// dumpedEvents are the events the dump hook is wired to.
var dumpedEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"}

// TestClaudeHookEvents establishes what the client sends to SessionStart,
// UserPromptSubmit and the tool hooks, that additionalContext from
// SessionStart and UserPromptSubmit reaches the model, and how a resumed
// session is seen — the facts docs/agents-e2e.md#events states. The dump
// hook sits in .claude/settings.local.json beside install's wiring, which
// stays as install wrote it.
func TestClaudeHookEvents(t *testing.T) {
	t.Parallel()
	p := newProject(t, agente2e.Setup{Install: pinned})
	hook := p.AddTool("dump-hook", dumpHook)
	settings := map[string]any{}
	for _, ev := range dumpedEvents {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hook + " " + ev}}}
		if ev == "PreToolUse" || ev == "PostToolUse" {
			group["matcher"] = "*"
		}
		settings[ev] = []any{group}
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": settings}, "", "  ")
	p.WriteFile(".claude/settings.local.json", string(b))

	const prompt = "fix the flaky test in add.go"
	first := p.Claude(agente2e.Session{Prompt: prompt, Calls: []agente2e.ToolCall{agente2e.Bash("git status")}})
	dumps := readDumps(t, filepath.Join(p.BinDir, "dumps"))
	for _, ev := range dumpedEvents {
		if len(dumps[ev]) != 1 {
			t.Fatalf("%s ran %d times in one -p session with one tool call, want 1", ev, len(dumps[ev]))
		}
		t.Logf("%s payload keys: %s", ev, strings.Join(keys(dumps[ev][0]), " "))
	}
	sid := first.Result.SessionID
	want := map[string]map[string]any{
		"SessionStart":     {"session_id": sid, "cwd": p.Dir, "hook_event_name": "SessionStart", "source": "startup"},
		"UserPromptSubmit": {"session_id": sid, "cwd": p.Dir, "hook_event_name": "UserPromptSubmit", "prompt": prompt, "permission_mode": "default"},
		"PreToolUse":       {"session_id": sid, "cwd": p.Dir, "tool_name": "Bash", "tool_use_id": first.ToolUseID(0), "permission_mode": "default"},
		"PostToolUse":      {"session_id": sid, "tool_name": "Bash", "tool_use_id": first.ToolUseID(0)},
		"Stop":             {"session_id": sid, "hook_event_name": "Stop"},
		"SessionEnd":       {"session_id": sid, "hook_event_name": "SessionEnd"},
	}
	for ev, fields := range want {
		for k, v := range fields {
			if len(dumps[ev]) > 0 && dumps[ev][0][k] != v {
				t.Errorf("%s %s = %#v, want %#v", ev, k, dumps[ev][0][k], v)
			}
		}
		if len(dumps[ev]) > 0 {
			if tp, _ := dumps[ev][0]["transcript_path"].(string); !strings.HasSuffix(tp, sid+".jsonl") {
				t.Errorf("%s transcript_path = %q, want …/%s.jsonl", ev, tp, sid)
			}
		}
	}
	// prompt_id ties a tool call to the prompt that led to it.
	if pid := dumps["UserPromptSubmit"][0]["prompt_id"]; pid == nil || dumps["PreToolUse"][0]["prompt_id"] != pid {
		t.Errorf("prompt_id: UserPromptSubmit %v, PreToolUse %v, want the same id", pid, dumps["PreToolUse"][0]["prompt_id"])
	}
	if in, _ := dumps["PreToolUse"][0]["tool_input"].(map[string]any); in["command"] != "git status" {
		t.Errorf("PreToolUse tool_input = %#v", dumps["PreToolUse"][0]["tool_input"])
	}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit"} {
		where := contextIn(first.Requests, "e2e-context-from-"+ev)
		if where == "" {
			t.Errorf("%s additionalContext is not in every request of the session", ev)
		}
		t.Logf("%s additionalContext reaches the model %s", ev, where)
		// As a system message of the conversation, not the system prompt.
		if !strings.Contains(where, "(system)") || strings.Contains(first.Requests[0].Parsed.System.Text(), "e2e-context-from-") {
			t.Errorf("%s additionalContext is not a system message of the conversation", ev)
		}
	}
	// gitwarrant's pinned hook ran beside the dump hook and judged the call.
	if c := p.Checks(sid, first.ToolUseID(0)); len(c) != 1 || c[0].Entry.Verdict != "allow" {
		t.Errorf("gitwarrant's check of the call: %+v", c)
	}

	// A resumed session keeps its session_id; SessionStart says so.
	os.RemoveAll(filepath.Join(p.BinDir, "dumps"))
	again := p.Claude(agente2e.Session{Prompt: "and now the docs", Args: []string{"--resume", sid},
		Calls: []agente2e.ToolCall{agente2e.Bash("git status")}})
	dumps = readDumps(t, filepath.Join(p.BinDir, "dumps"))
	if len(dumps["SessionStart"]) != 1 || len(dumps["UserPromptSubmit"]) != 1 {
		t.Fatalf("resumed session: SessionStart %d, UserPromptSubmit %d, want 1 each", len(dumps["SessionStart"]), len(dumps["UserPromptSubmit"]))
	}
	start, ups := dumps["SessionStart"][0], dumps["UserPromptSubmit"][0]
	t.Logf("resumed: result session_id %s (first %s), SessionStart source %v session_id %v, UserPromptSubmit session_id %v",
		again.Result.SessionID, sid, start["source"], start["session_id"], ups["session_id"])
	if start["source"] != "resume" || ups["prompt"] != "and now the docs" {
		t.Errorf("resumed session: SessionStart source %v, UserPromptSubmit prompt %v", start["source"], ups["prompt"])
	}
	if start["session_id"] != again.Result.SessionID || ups["session_id"] != again.Result.SessionID {
		t.Errorf("resumed session: hooks saw %v/%v, the result says %s", start["session_id"], ups["session_id"], again.Result.SessionID)
	}
}

// readDumps reads the dump hook's files by event, in the order they ran.
func readDumps(t *testing.T, dir string) map[string][]map[string]any {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(names)
	out := map[string][]map[string]any{}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b)
		}
		ev := strings.SplitN(filepath.Base(name), "-", 2)[0]
		out[ev] = append(out[ev], m)
	}
	return out
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// contextIn says where marker appears in the main requests: the message's
// role and index and the text around it in the first, "" when one of
// them lacks it.
func contextIn(reqs []agente2e.Request, marker string) string {
	where := ""
	for _, r := range reqs {
		if r.Kind != agente2e.KindMain {
			continue
		}
		found := ""
		for mi, m := range r.Parsed.Messages {
			for _, b := range m.Content {
				if j := strings.Index(b.Text, marker); j >= 0 && found == "" {
					lo := max(0, j-80)
					found = fmt.Sprintf("in message %d (%s): …%s…", mi, m.Role, b.Text[lo:min(len(b.Text), j+len(marker)+20)])
				}
			}
		}
		if found == "" {
			return ""
		}
		if where == "" {
			where = found
		}
	}
	return where
}
