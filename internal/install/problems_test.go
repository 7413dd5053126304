package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One black-box test per problem found by trying install as a new user
// would (problems 2, 3 and 4 are the real-tool tests in realtools_test.go:
// TestRealLefthook2JobsForm, TestRealHusky9, TestRealPreCommitFramework).
// They drive the real binary only, so they run against any version.

// Problem 1: a hand-written pinned hook is kept as it is, and uninstall
// neither removes it nor deletes the settings file install did not create.
func TestProblem1HandWrittenPinnedHookIsKept(t *testing.T) {
	root := newProject(t)
	settings := "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": \"gitwarrant hook claude --loop release\", \"timeout\": 20}]}\n    ]\n  }\n}\n"
	path := filepath.Join(root, ".claude/settings.json")
	write(t, path, settings, 0o644)
	out, errs, code := gw(t, root, "install", "--no-git-hooks")
	if code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	got := read(t, path)
	if !strings.Contains(got, `"command": "gitwarrant hook claude --loop release", "timeout": 20`) {
		t.Fatalf("the hand-written pinned entry was changed:\n%s", got)
	}
	if strings.Count(got, "gitwarrant hook claude") != 4 { // the kept entry and the new PostToolUse, UserPromptSubmit and SessionEnd ones
		t.Fatalf("want the kept PreToolUse entry plus PostToolUse, UserPromptSubmit and SessionEnd, got:\n%s", got)
	}
	if !strings.Contains(errs, "kept the gitwarrant hook already in .claude/settings.json") {
		t.Errorf("install did not say what it kept:\n%s", errs)
	}
	if out, errs, code := gw(t, root, "uninstall", "--no-git-hooks"); code != 0 {
		t.Fatalf("uninstall: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("uninstall deleted a settings file install did not create: %v", err)
	}
	if back := read(t, path); back != settings {
		t.Fatalf("uninstall did not give the settings back:\nwant %q\ngot  %q", settings, back)
	}
}

// Problem 5: uninstall is byte-exact — no final newline stays missing, an
// empty "hooks": {} stays, commas stay.
func TestProblem5UninstallIsByteExact(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, ".claude/settings.json"), "{\n  \"permissions\": {\"allow\": [\"Bash(npm test)\"]},\n  \"hooks\": {}\n}", 0o644)
	write(t, filepath.Join(root, "AGENTS.md"), "# Agents\n\nNo final newline.", 0o644)
	write(t, filepath.Join(root, "CLAUDE.md"), "# Claude\n\nEnds in a blank line.\n\n", 0o644)
	write(t, filepath.Join(root, "GEMINI.md"), "", 0o644) // empty, but there: never deleted
	before := snapshot(t, root)
	if out, errs, code := gw(t, root, "install"); code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	if out, errs, code := gw(t, root, "uninstall"); code != 0 {
		t.Fatalf("uninstall: exit %d\n%s%s", code, out, errs)
	}
	sameSnapshot(t, "after uninstall", before, snapshot(t, root))
}

// Problem 6: "disableAllHooks": true means the gate never runs; install
// says so, with the file and line, and exits 1; doctor names it.
func TestProblem6DisableAllHooksIsNotLive(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, ".claude/settings.local.json"), "{\n  \"disableAllHooks\": true\n}\n", 0o644)
	out, errs, code := gw(t, root, "install", "--no-git-hooks")
	if code != 1 || !strings.Contains(out+errs, ".claude/settings.local.json:2:") || !strings.Contains(out+errs, "disableAllHooks") {
		t.Fatalf("want exit 1 naming .claude/settings.local.json:2 disableAllHooks, got %d:\n%s%s", code, out, errs)
	}
	out, errs, code = gw(t, root, "doctor")
	if code != 1 || !strings.Contains(out, "disableAllHooks") {
		t.Fatalf("doctor: want exit 1 naming disableAllHooks, got %d:\n%s%s", code, out, errs)
	}
}

// Problem 7: nothing is advertised that does not run. Now that the MCP
// server exists, install writes its .mcp.json entry, the context files name
// its tools, and doctor proves the server answers initialize — and flags a
// configured server that does not.
func TestProblem7MCPServerIsAdvertisedOnlyWhenItRuns(t *testing.T) {
	root := newProject(t)
	if out, errs, code := gw(t, root, "install", "--no-git-hooks"); code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	if c := read(t, filepath.Join(root, ".mcp.json")); !strings.Contains(c, `"mcp"`) {
		t.Fatalf(".mcp.json has no gitwarrant mcp entry:\n%s", c)
	}
	for _, f := range []string{"CLAUDE.md", "AGENTS.md"} {
		if c := read(t, filepath.Join(root, f)); !strings.Contains(c, "warrant_check") {
			t.Fatalf("%s does not name the MCP tools", f)
		}
	}
	if out, _, code := gw(t, root, "doctor"); !strings.Contains(out, "ok    MCP server gitwarrant") || !strings.Contains(out, "answers initialize") {
		t.Fatalf("doctor: want the server answering initialize, got %d:\n%s", code, out)
	}
	write(t, filepath.Join(root, ".mcp.json"), `{"mcpServers": {"gitwarrant": {"command": "gitwarrant", "args": ["mcp", "--no-such-flag"]}}}`, 0o644)
	if out, _, code := gw(t, root, "doctor"); code != 1 || !strings.Contains(out, "does not answer initialize") {
		t.Fatalf("doctor: want exit 1 naming the server that does not answer, got %d:\n%s", code, out)
	}
}

// A teammate's fresh clone uninstalls too: uninstall finds install's work
// by its markers and shapes in the committed files, with no install state.
func TestUninstallOnAFreshClone(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, ".claude/settings.json"), "{\n  \"permissions\": {}\n}", 0o644)
	write(t, filepath.Join(root, "lefthook.yml"), "pre-commit:\n  commands:\n    lint:\n      run: true\n", 0o644)
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "-m", "before")
	before := git(t, root, "rev-parse", "HEAD")
	if out, errs, code := gw(t, root, "install", "--allow-manual"); code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "--no-verify", "-m", "install gitwarrant")
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, filepath.Dir(clone), "clone", "-q", root, clone)
	if out, errs, code := gw(t, clone, "uninstall"); code != 0 {
		t.Fatalf("uninstall in the clone: exit %d\n%s%s", code, out, errs)
	}
	if diff := git(t, clone, "diff", strings.TrimSpace(before), "--stat", "--", ".", ":!.gitwarrant"); diff != "" {
		t.Fatalf("the clone differs from before install:\n%s\n%s", diff, git(t, clone, "diff", strings.TrimSpace(before), "--", ".", ":!.gitwarrant"))
	}
}
