package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// protectEnv is a real directory tree: a project, a .git dir with hooks,
// and a symlink that points into the project dir.
type protectEnv struct{ root, project, hooks string }

func newProtectEnv(t *testing.T) protectEnv {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{".gitwarrant/loops", ".git/hooks", "src", ".claude"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, ".gitwarrant", "loops"), filepath.Join(root, "src", "innocent")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	return protectEnv{root: root, project: filepath.Join(root, ".gitwarrant"), hooks: filepath.Join(root, ".git", "hooks")}
}

func (e protectEnv) call(tool string, input map[string]any) Payload {
	raw, _ := json.Marshal(input)
	return Payload{ToolName: tool, Cwd: e.root, ToolInput: raw}
}

func (e protectEnv) protected(p Payload) (string, bool) {
	return Protected(p, e.project, e.root, e.hooks)
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
		".mcp.json",
	}
	for _, tool := range []string{"Write", "Edit", "MultiEdit"} {
		for _, path := range paths {
			why, denied := e.protected(e.call(tool, map[string]any{"file_path": path, "content": "x"}))
			if !denied || !strings.HasPrefix(why, "a human must do this: ") {
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
	for _, path := range []string{"src/main.go", "docs/gitwarrant.md", ".claude/commands/x.md", "settings.json", "gitwarrant/loops.go"} {
		if why, denied := e.protected(e.call("Write", map[string]any{"file_path": path})); denied {
			t.Errorf("Write %s denied: %s", path, why)
		}
	}
	reads := []Payload{
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
		if !denied || !strings.HasPrefix(why, "a human must do this: ") {
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
	if _, denied := Protected(p, e.project, e.root, custom); !denied {
		t.Error("write into core.hooksPath not denied")
	}
	sh := e.call("Bash", map[string]any{"command": "echo x > .husky/_/pre-commit"})
	if _, denied := Protected(sh, e.project, e.root, custom); !denied {
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
