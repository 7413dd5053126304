package mcpcmd

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/cli"
	"github.com/gitwarrant/gitwarrant/internal/mcp"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/term"
)

// hookRepo is a git repository with a gitwarrant project and the fix loop
// `new` writes, and the App a server in it runs with.
func hookRepo(t testing.TB) (*cli.App, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	home := t.TempDir()
	env := map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "CLAUDE_PROJECT_DIR": dir}
	app := &cli.App{IO: &term.Streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}, NoColor: true},
		Getenv: func(k string) string { return env[k] }, Cwd: dir, Now: time.Now}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "root"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "HOME="+home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	for _, args := range [][]string{{"init"}, {"new", "fix", "--template", "fix-bug-on-branch"}} {
		if code := cli.Main(context.Background(), app, args); code != 0 {
			t.Fatalf("gitwarrant %v: exit %d: %s", args, code, app.IO.Err)
		}
	}
	return app, dir
}

func bashPayload(dir, command string) []byte {
	return []byte(`{"session_id":"s","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"},"tool_use_id":"t"}`)
}

// TestHookSeesLoopEditsAtOnce: the server's parsed loops never decide
// after the file changed — an edit on disk decides the very next request,
// even one that keeps the file's modification time
// (docs/hook-protocol.md#the-http-hook).
func TestHookSeesLoopEditsAtOnce(t *testing.T) {
	app, dir := hookRepo(t)
	hook := claudeHook(app, &bytes.Buffer{}, record.NewJournal(nil))
	q := url.Values{"loop": {"fix"}, "no-record": {"1"}}
	decide := func() string {
		return string(hook(context.Background(), mcp.Caller{Credential: "test"}, q, bashPayload(dir, "git status"), nil))
	}
	if got := decide(); !strings.Contains(got, `"permissionDecision":"allow"`) {
		t.Fatalf("before the edit: %s", got)
	}
	path := filepath.Join(dir, ".gitwarrant", "loops", "fix.loop.md")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(path)
	// The same modification time: "git status" moves from allowed to never.
	m := regexp.MustCompile(`(?m)^(\s*)never:\n(\s*)- `).FindSubmatchIndex(old)
	if m == nil {
		t.Fatalf("the fix loop has no never list:\n%s", old)
	}
	item := old[m[4]:m[5]] // the list's indentation
	edited := append(append(append([]byte{}, old[:m[4]]...), append(append([]byte{}, item...), "- Bash(git status)\n"...)...), old[m[4]:]...)
	if bytes.Equal(edited, old) {
		t.Fatalf("the fix loop has no never list to edit:\n%s", old)
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := decide(); !strings.Contains(got, `"permissionDecision":"deny"`) {
		t.Errorf("the request right after the edit: %s", got)
	}
}

// BenchmarkClaudeHook is one http hook decision in the server, without the
// transport: a pinned, allowed git status, recorded and not.
func BenchmarkClaudeHook(b *testing.B) {
	app, dir := hookRepo(b)
	hook := claudeHook(app, &bytes.Buffer{}, record.NewJournal(nil))
	body := bashPayload(dir, "git status")
	for _, rec := range []bool{false, true} {
		name := map[bool]string{false: "no-record", true: "recorded"}[rec]
		q := url.Values{"loop": {"fix"}}
		if !rec {
			q.Set("no-record", "1")
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if out := hook(context.Background(), mcp.Caller{Credential: "bench"}, q, body, nil); !bytes.Contains(out, []byte("allow")) {
					b.Fatalf("%s", out)
				}
			}
		})
	}
}
