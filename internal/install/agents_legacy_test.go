package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/hook"
)

// TestAgentHooksBeforeTheWatchdog: a .codex/hooks.json written by an
// install from before the watchdog (hook.Wiring.LegacyAgentPre), from
// before its trap killed the sleep by $! with SIGKILL, or from before the
// kill timer (the watchdog alone), is brought up to date by install, and
// uninstall then deletes it, since install created it.
func TestAgentHooksBeforeTheWatchdog(t *testing.T) {
	for _, before := range []string{"watchdog", "racy watchdog", "kill timer"} {
		agentHooksBefore(t, before)
	}
}

// agentHooksBefore is TestAgentHooksBeforeTheWatchdog for the commands
// from before the change named.
func agentHooksBefore(t *testing.T, before string) {
	root := newProject(t)
	install := func() {
		t.Helper()
		if out, errs, code := gw(t, root, "install", "--no-git-hooks", "--no-mcp", "--agents", "claude,codex"); code != 0 {
			t.Fatalf("install: exit %d\n%s%s", code, out, errs)
		}
	}
	install()
	path := filepath.Join(root, ".codex/hooks.json")
	now := read(t, path)
	w := hook.Wiring{DefaultLoop: "release"}
	q := func(s string) string {
		var b strings.Builder
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		_ = e.Encode(s)
		return strings.Trim(strings.TrimSpace(b.String()), `"`)
	}
	var old string
	switch before {
	case "watchdog":
		old = strings.Replace(now, q(w.AgentPre(hook.ClientCodex)), q(w.LegacyAgentPre(hook.ClientCodex)), 1)
		old = strings.Replace(old, q(w.AgentPrompt(hook.ClientCodex)), q("command -v gitwarrant >/dev/null 2>&1 || exit 0; gitwarrant hook codex --event prompt --default-loop release || exit 0"), 1)
		if strings.Contains(old, "sleep") {
			t.Fatalf("the test did not write the old commands:\n%s", old)
		}
	case "racy watchdog":
		old = strings.Replace(now, q(w.AgentPre(hook.ClientCodex)), q(w.WatchdogAgentPre(hook.ClientCodex)), 1)
		old = strings.Replace(old, q(w.AgentPrompt(hook.ClientCodex)), q(w.WatchdogAgentPrompt(hook.ClientCodex)), 1)
		old = strings.ReplaceAll(old, q("trap '[ $! = $p ] || kill -9 $! 2>/dev/null; exit $f' TERM; sleep 20 </dev/null >/dev/null 2>&1 & wait $! ||"), q("trap 'kill $w 2>/dev/null; exit $f' TERM; sleep 20 </dev/null >/dev/null 2>&1 & w=$!; wait $w ||"))
		if strings.Count(old, "w=$!") != 2 || strings.Contains(old, "--stop-after") {
			t.Fatalf("the test did not write the commands of the racy watchdog:\n%s", old)
		}
	case "kill timer":
		old = strings.Replace(now, q(w.AgentPre(hook.ClientCodex)), q(w.WatchdogAgentPre(hook.ClientCodex)), 1)
		old = strings.Replace(old, q(w.AgentPrompt(hook.ClientCodex)), q(w.WatchdogAgentPrompt(hook.ClientCodex)), 1)
		if strings.Contains(old, "--stop-after") || !strings.Contains(old, "sleep 20") {
			t.Fatalf("the test did not write the commands from before the kill timer:\n%s", old)
		}
	}
	write(t, path, old, 0o644)
	install()
	if got := read(t, path); got != now {
		t.Fatalf("install did not bring the old entries up to date:\nwant %s\ngot  %s", now, got)
	}
	write(t, path, old, 0o644)
	if out, errs, code := gw(t, root, "uninstall", "--no-git-hooks", "--no-mcp"); code != 0 {
		t.Fatalf("uninstall: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatalf("uninstall left the old entries:\n%s", read(t, path))
	}
}
