package hook

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

func TestDecisionIsClaudeCodeJSON(t *testing.T) {
	for _, v := range []string{"allow", "ask", "deny", "bogus", ""} {
		var got struct {
			HookSpecificOutput struct {
				HookEventName            string `json:"hookEventName"`
				PermissionDecision       string `json:"permissionDecision"`
				PermissionDecisionReason string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
		}
		out := Decision(v, "gitwarrant: fix: never: push — <tag> & \xff")
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: %v: %s", v, err, out)
		}
		want := v
		if v != "allow" && v != "deny" {
			want = "ask"
		}
		h := got.HookSpecificOutput
		if h.HookEventName != "PreToolUse" || h.PermissionDecision != want || !strings.Contains(h.PermissionDecisionReason, "<tag> &") {
			t.Errorf("%s: got %+v", v, h)
		}
	}
}

func TestReasonNamesLoopAndRule(t *testing.T) {
	if got := Reason("fix", "never: push to main", "matches a hard stop"); got != "gitwarrant: fix: never: push to main — matches a hard stop" {
		t.Errorf("Reason = %q", got)
	}
	if got := Reason("", "self-protection", "a human must do this: x"); got != "gitwarrant: self-protection — a human must do this: x" {
		t.Errorf("Reason = %q", got)
	}
}

// runSettings runs a settings command with sh, with PATH holding only a
// directory of our choosing, and returns its exit status and stderr.
func runSettings(t *testing.T, command, pathDir string) (int, string) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, "-c", command)
	cmd.Env = []string{"PATH=" + pathDir}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

func fakeGitwarrant(t *testing.T, status string) string {
	dir := t.TempDir()
	script := "#!/bin/sh\ncat >/dev/null\nexit " + status + "\n"
	if err := os.WriteFile(filepath.Join(dir, "gitwarrant"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// The settings command needs `cat` and `sh` from the system too.
	for _, tool := range []string{"cat"} {
		if p, err := exec.LookPath(tool); err == nil {
			_ = os.Symlink(p, filepath.Join(dir, tool))
		}
	}
	return dir
}

func TestPinnedSettingsCommandBlocksWhenGitwarrantIsMissingOrCrashes(t *testing.T) {
	empty := t.TempDir()
	code, stderr := runSettings(t, SettingsCommand("fix-bug", false), empty)
	if code != 2 || !strings.Contains(stderr, InstallHint) {
		t.Errorf("missing binary, pinned: exit %d, stderr %q; want exit 2 naming the install command", code, stderr)
	}
	if code, _ := runSettings(t, SettingsCommand("", true), empty); code != 2 {
		t.Errorf("missing binary, strict: exit %d, want 2", code)
	}
	if code, stderr := runSettings(t, SettingsCommand("fix-bug", false), fakeGitwarrant(t, "1")); code != 2 || !strings.Contains(stderr, "failed (exit 1)") {
		t.Errorf("crashing binary, pinned: exit %d, stderr %q; want exit 2", code, stderr)
	}
	if code, _ := runSettings(t, SettingsCommand("fix-bug", false), fakeGitwarrant(t, "0")); code != 0 {
		t.Errorf("working binary, pinned: exit %d, want 0", code)
	}
}

func TestUnpinnedSettingsCommandsStayOutOfTheWay(t *testing.T) {
	empty := t.TempDir()
	for _, c := range []string{SettingsCommand("", false), PostSettingsCommand()} {
		if code, _ := runSettings(t, c, empty); code != 0 {
			t.Errorf("%q with gitwarrant missing: exit %d, want 0", c, code)
		}
	}
	if code, _ := runSettings(t, PostSettingsCommand(), fakeGitwarrant(t, "1")); code != 0 {
		t.Errorf("post hook with a failing binary: exit %d, want 0", code)
	}
	if !IsGitwarrantCommand(SettingsCommand("x", true)) || IsGitwarrantCommand("npx prettier --check") {
		t.Error("IsGitwarrantCommand misclassifies")
	}
	if got := SettingsCommand("it's", false); !strings.Contains(got, `--loop 'it'\''s'`) {
		t.Errorf("loop name not quoted: %s", got)
	}
}

func TestAskOutcomesPairsByToolUseID(t *testing.T) {
	check := func(id, verdict string) chain.Entry {
		return chain.Entry{Kind: chain.KindCheck, Via: "hook", Verdict: verdict, Extra: map[string]any{ExtraToolUseID: id}}
	}
	post := chain.Entry{Kind: chain.KindNote, Via: "hook", Extra: map[string]any{ExtraEvent: EventPostToolUse, ExtraToolUseID: "a"}}
	entries := []chain.Entry{check("a", "ask"), check("b", "ask"), check("c", "allow"), post,
		{Kind: chain.KindCheck, Via: "cli", Verdict: "ask"}}
	got := AskOutcomes(entries)
	if len(got) != 2 {
		t.Fatalf("got %d outcomes, want the 2 hook asks", len(got))
	}
	if !got[0].Ran || got[0].Post == nil || got[1].Ran {
		t.Errorf("outcomes = %+v; want a ran, b not", got)
	}
}
