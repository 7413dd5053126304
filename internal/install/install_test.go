package install

import (
	"encoding/json"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const userSettings = `{
  "permissions": {
    "allow": ["Bash(npm test)"],
    "deny": ["Read(./.env)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "./scripts/guard.sh" }]
      }
    ]
  }
}
`

const userMCP = "{\n  \"mcpServers\": {\n    \"github\": { \"command\": \"gh-mcp\", \"args\": [] }\n  }\n}\n"

// userHook writes a marker file when it runs and fails when FAIL_HOOK is set.
func userHook(marker string) string {
	return "#!/bin/sh\ntouch '" + marker + "'\n[ -z \"$FAIL_HOOK\" ] || exit 7\n"
}

func TestInstallIntoBusyRepoKeepsEverythingAndRoundTrips(t *testing.T) {
	root := newRepo(t)
	marker := filepath.Join(t.TempDir(), "user-hook-ran")
	write(t, filepath.Join(root, ".claude/settings.json"), userSettings, 0o644)
	write(t, filepath.Join(root, ".mcp.json"), userMCP, 0o600)
	write(t, filepath.Join(root, "CLAUDE.md"), "# House rules\n\nBe kind.\n", 0o644)
	write(t, filepath.Join(root, ".git/hooks/pre-commit"), userHook(marker), 0o750)

	installTwiceThenUninstall(t, root, testOptions(root), func() {
		var s struct {
			Permissions map[string][]string
			Hooks       map[string][]struct {
				Matcher string
				Hooks   []struct{ Command string }
			}
		}
		if err := json.Unmarshal([]byte(read(t, filepath.Join(root, ".claude/settings.json"))), &s); err != nil {
			t.Fatal(err)
		}
		pre := s.Hooks["PreToolUse"]
		if len(s.Permissions["deny"]) != 1 || len(pre) != 2 || pre[0].Hooks[0].Command != "./scripts/guard.sh" ||
			!strings.Contains(pre[1].Hooks[0].Command, "gitwarrant hook claude") || len(s.Hooks["PostToolUse"]) != 1 {
			t.Fatalf("settings lost or missed entries: %+v", s)
		}
		if m := read(t, filepath.Join(root, ".mcp.json")); !strings.Contains(m, `"gitwarrant"`) || strings.Contains(m, "GITWARRANT_INSTALL") {
			t.Fatalf(".mcp.json lacks install's server, or marks a file install did not create:\n%s", m)
		}
		if fi, _ := os.Stat(filepath.Join(root, ".mcp.json")); fi.Mode().Perm() != 0o600 {
			t.Fatalf(".mcp.json mode changed to %v", fi.Mode())
		}
		if !strings.HasPrefix(read(t, filepath.Join(root, "CLAUDE.md")), "# House rules\n\nBe kind.\n") {
			t.Fatal("hand-written CLAUDE.md content changed")
		}
		// The chained hook still runs on a real commit, and its failure
		// still blocks the commit.
		write(t, filepath.Join(root, "a.txt"), "a\n", 0o644)
		git(t, root, "add", "a.txt")
		t.Setenv("FAIL_HOOK", "1")
		if out, err := gitErr(root, "commit", "-q", "-m", "blocked"); err == nil {
			t.Fatalf("a failing chained hook did not block the commit:\n%s", out)
		}
		if _, err := os.Stat(marker); err != nil {
			t.Fatal("the chained pre-commit did not run")
		}
		os.Remove(marker)
		t.Setenv("FAIL_HOOK", "")
		out := git(t, root, "commit", "-m", "allowed")
		if _, err := os.Stat(marker); err != nil {
			t.Fatal("the chained pre-commit did not run on the second commit")
		}
		if !strings.Contains(out, "gitwarrant: not on PATH") {
			t.Fatalf("the shim did not warn about the missing binary:\n%s", out)
		}
		os.Remove(filepath.Join(root, "a.txt"))
	})
}

func TestInstallHonoursCoreHooksPath(t *testing.T) {
	root := newRepo(t)
	marker := filepath.Join(t.TempDir(), "ran")
	git(t, root, "config", "core.hooksPath", "tools/hooks")
	write(t, filepath.Join(root, "tools/hooks/pre-commit"), userHook(marker), 0o755)
	installTwiceThenUninstall(t, root, testOptions(root), func() {
		for _, h := range []string{"pre-commit", "commit-msg"} {
			if !strings.Contains(read(t, filepath.Join(root, "tools/hooks", h)), shimMarker) {
				t.Fatalf("no shim in tools/hooks/%s", h)
			}
			if _, err := os.Stat(filepath.Join(root, ".git/hooks", h)); err == nil {
				t.Fatalf(".git/hooks/%s written although core.hooksPath is set", h)
			}
		}
		write(t, filepath.Join(root, "b.txt"), "b\n", 0o644)
		git(t, root, "add", "b.txt")
		git(t, root, "commit", "-q", "-m", "b")
		if _, err := os.Stat(marker); err != nil {
			t.Fatal("the original hook in core.hooksPath did not run")
		}
		os.Remove(filepath.Join(root, "b.txt"))
	})
}

func TestInstallFromLinkedWorktreeUsesCommonHooks(t *testing.T) {
	root := newRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, root, "worktree", "add", "-q", wt)
	o := testOptions(wt)
	o.Targets, o.Hook, o.MCP = nil, nil, false
	o.Bin, _ = exec.LookPath("sh") // any executable stands in for the binary here
	doInstall(t, o)
	if !strings.Contains(read(t, filepath.Join(root, ".git/hooks/pre-commit")), shimMarker) {
		t.Fatal("shim not in the common .git/hooks")
	}
	// doctor, run from the linked worktree, follows git to the same hooks.
	for _, c := range Diagnose(DoctorEnv{Root: wt, Getenv: os.Getenv}, true, false) {
		if c.Status != Live || !strings.Contains(c.Detail, filepath.Join(root, ".git/hooks")) {
			t.Errorf("doctor from the linked worktree: %+v", c)
		}
	}
	doUninstall(t, wt)
	if _, err := os.Stat(filepath.Join(root, ".git/hooks/pre-commit")); err == nil {
		t.Fatal("shim left after uninstall")
	}
}

// huskyH is husky v9's .husky/_/h, which every .husky/_/<hook> sources.
const huskyH = `#!/usr/bin/env sh
n=$(basename "$0")
s=$(dirname "$(dirname "$0")")/$n
[ ! -f "$s" ] && exit 0
[ "${HUSKY-}" = "0" ] && exit 0
sh -e "$s" "$@"
c=$?
[ $c != 0 ] && echo "husky - $n script failed (code $c)"
exit $c
`

func TestInstallWithHusky(t *testing.T) {
	root := newRepo(t)
	marker := filepath.Join(t.TempDir(), "husky-ran")
	write(t, filepath.Join(root, ".husky/_/h"), huskyH, 0o644)
	for _, h := range []string{"pre-commit", "commit-msg"} {
		write(t, filepath.Join(root, ".husky/_", h), "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n", 0o755)
	}
	write(t, filepath.Join(root, ".husky/_/.gitignore"), "*\n", 0o644)
	write(t, filepath.Join(root, ".husky/pre-commit"), "touch '"+marker+"'", 0o644) // no final newline
	git(t, root, "config", "core.hooksPath", ".husky/_")
	installTwiceThenUninstall(t, root, testOptions(root), func() {
		pc := read(t, filepath.Join(root, ".husky/pre-commit"))
		if !strings.HasPrefix(pc, huskyLine("pre-commit", false)+"\ntouch '"+marker+"'") {
			t.Fatalf(".husky/pre-commit: %q", pc)
		}
		if !strings.Contains(read(t, filepath.Join(root, ".husky/commit-msg")), `gitwarrant hook commit-msg "$1"`) {
			t.Fatal(".husky/commit-msg not created")
		}
		if strings.Contains(read(t, filepath.Join(root, ".husky/_/pre-commit")), "gitwarrant") {
			t.Fatal("husky's own .husky/_ was edited")
		}
		write(t, filepath.Join(root, "c.txt"), "c\n", 0o644)
		git(t, root, "add", "c.txt")
		out := git(t, root, "commit", "-m", "c")
		if _, err := os.Stat(marker); err != nil {
			t.Fatalf("the husky pre-commit script did not run:\n%s", out)
		}
		if !strings.Contains(out, "not on PATH") {
			t.Fatalf("gitwarrant's husky line did not run:\n%s", out)
		}
		os.Remove(filepath.Join(root, "c.txt"))
		// With a pinned gate and no gitwarrant, the committed line refuses.
		local := filepath.Join(root, ".claude/settings.local.json")
		write(t, local, `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "gitwarrant hook claude --strict"}]}]}}`, 0o644)
		write(t, filepath.Join(root, "d.txt"), "d\n", 0o644)
		git(t, root, "add", "d.txt")
		if out, err := gitErr(root, "commit", "-m", "d"); err == nil || !strings.Contains(out, "pins a gitwarrant gate, so the commit is refused") {
			t.Fatalf("a pinned repository committed through husky with no gitwarrant: %v\n%s", err, out)
		}
		git(t, root, "reset", "-q", "d.txt")
		os.Remove(filepath.Join(root, "d.txt"))
		os.Remove(local)
	})
}

const userLefthook = `# lefthook config
pre-commit:
  parallel: true
  commands:
    lint:
      run: npm run lint
`

// lefthookScript stands in for the script `lefthook install` puts in a
// hook slot (the real one is tested with real lefthook in realtools_test.go).
func lefthookScript(hook string) string {
	return "#!/bin/sh\ncall_lefthook()\n{\n  lefthook \"$@\"\n}\ncall_lefthook run \"" + hook + "\" \"$@\"\n"
}

func TestInstallWithLefthook(t *testing.T) {
	root := newRepo(t)
	write(t, filepath.Join(root, "lefthook.yml"), userLefthook, 0o644)
	for _, h := range []string{"pre-commit", "commit-msg"} {
		write(t, filepath.Join(root, ".git/hooks", h), lefthookScript(h), 0o755)
	}
	installTwiceThenUninstall(t, root, testOptions(root), func() {
		data := []byte(read(t, filepath.Join(root, "lefthook.yml")))
		var doc map[string]struct {
			Parallel bool
			Commands map[string]struct{ Run string }
		}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("lefthook.yml no longer parses: %v\n%s", err, data)
		}
		if !doc["pre-commit"].Parallel || doc["pre-commit"].Commands["lint"].Run != "npm run lint" {
			t.Fatalf("user's lefthook entries lost:\n%s", data)
		}
		if !strings.Contains(doc["pre-commit"].Commands["gitwarrant-record"].Run, "gitwarrant hook pre-commit") ||
			!strings.Contains(doc["commit-msg"].Commands["gitwarrant-trailer"].Run, "gitwarrant hook commit-msg {1}") {
			t.Fatalf("gitwarrant commands missing:\n%s", data)
		}
		for _, h := range []string{"pre-commit", "commit-msg"} {
			if read(t, filepath.Join(root, ".git/hooks", h)) != lefthookScript(h) {
				t.Fatalf(".git/hooks/%s written although lefthook owns it", h)
			}
		}
	})
}

func TestLefthookFlowStyleIsAManualStep(t *testing.T) {
	root := newRepo(t)
	src := "pre-commit: {jobs: [{run: npm test}]}\n"
	write(t, filepath.Join(root, "lefthook.yml"), src, 0o644)
	write(t, filepath.Join(root, ".git/hooks/pre-commit"), "#!/bin/sh\ncall_lefthook run \"pre-commit\" \"$@\" # lefthook\n", 0o755)
	p := doInstall(t, testOptions(root))
	if got := read(t, filepath.Join(root, "lefthook.yml")); !strings.HasPrefix(got, src) {
		t.Fatalf("the flow-style pre-commit entry was edited:\n%s", got)
	}
	if len(p.Manual) != 1 || p.Manual[0].Hook != "pre-commit" || !strings.Contains(p.Manual[0].Lines, "gitwarrant hook pre-commit") {
		t.Fatalf("want one manual step for pre-commit, got %+v", p.Manual)
	}
}

func TestMalformedSettingsWritesNothing(t *testing.T) {
	root := newRepo(t)
	write(t, filepath.Join(root, ".claude/settings.json"), "{\n  \"hooks\": {\n    \"PreToolUse\": [}\n}\n", 0o644)
	write(t, filepath.Join(root, "CLAUDE.md"), "# mine\n", 0o644)
	before := snapshot(t, root)
	_, err := PlanInstall(testOptions(root))
	if err == nil || !strings.Contains(err.Error(), ".claude/settings.json:3:20") {
		t.Fatalf("want an error naming .claude/settings.json:3:20, got %v", err)
	}
	sameSnapshot(t, "failed install", before, snapshot(t, root))
}

func TestChainConflictIsAnError(t *testing.T) {
	root := newRepo(t)
	write(t, filepath.Join(root, ".git/hooks/pre-commit"), "#!/bin/sh\necho a\n", 0o755)
	write(t, filepath.Join(root, ".git/hooks/pre-commit"+ChainSuffix), "#!/bin/sh\necho b\n", 0o755)
	before := snapshot(t, root)
	if _, err := PlanInstall(testOptions(root)); err == nil || !strings.Contains(err.Error(), "both exist") {
		t.Fatalf("want a conflict error, got %v", err)
	}
	sameSnapshot(t, "conflict", before, snapshot(t, root))
}

func TestSymlinkedHookIsChainedAndRestored(t *testing.T) {
	root := newRepo(t)
	write(t, filepath.Join(root, "scripts/check.sh"), "#!/bin/sh\nexit 0\n", 0o755)
	if err := os.Symlink("../../scripts/check.sh", filepath.Join(root, ".git/hooks/pre-commit")); err != nil {
		t.Fatal(err)
	}
	installTwiceThenUninstall(t, root, testOptions(root), func() {
		if l, err := os.Readlink(filepath.Join(root, ".git/hooks/pre-commit"+ChainSuffix)); err != nil || l != "../../scripts/check.sh" {
			t.Fatalf("symlinked hook not moved aside intact: %q %v", l, err)
		}
	})
}

// The repository's .pre-commit-hooks.yaml offers the ids and runs the
// commands of the local repo install adds to .pre-commit-config.yaml.
func TestPreCommitManifestMatchesTheLocalRepo(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type hookDef struct {
		ID            string   `yaml:"id"`
		Entry         string   `yaml:"entry"`
		Language      string   `yaml:"language"`
		Stages        []string `yaml:"stages"`
		PassFilenames bool     `yaml:"pass_filenames"`
		AlwaysRun     bool     `yaml:"always_run"`
	}
	var manifest []hookDef
	if err := yaml.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	var local []struct {
		Repo  string    `yaml:"repo"`
		Hooks []hookDef `yaml:"hooks"`
	}
	if err := yaml.Unmarshal([]byte(preCommitBlock("pre-commit")), &local); err != nil || len(local) != 1 || local[0].Repo != "local" {
		t.Fatalf("local repo block: %v %+v", err, local)
	}
	if len(manifest) != 2 || len(local[0].Hooks) != 2 {
		t.Fatalf("want 2 hooks in each, got %d and %d", len(manifest), len(local[0].Hooks))
	}
	for i, h := range manifest {
		l := local[0].Hooks[i]
		stage := h.Stages[0]
		if len(h.Stages) != 1 || PreCommitIDs[stage] != h.ID || h.Entry != "gitwarrant hook "+stage ||
			h.Language != "golang" || !h.AlwaysRun || h.PassFilenames != (stage == "commit-msg") {
			t.Errorf("manifest hook %+v does not match the shims", h)
		}
		if l.ID != h.ID || l.Entry != h.Entry || l.Language != "system" || l.AlwaysRun != h.AlwaysRun ||
			l.PassFilenames != h.PassFilenames || len(l.Stages) != 1 || l.Stages[0] != stage {
			t.Errorf("local hook %+v does not match manifest hook %+v", l, h)
		}
	}
}

// --loop/--strict change an entry only when given: install's own entry is
// replaced (keeping its created= marker, so uninstall still removes it and
// the file), a hand-written one gets only its command rewritten.
func TestExplicitPinChangesTheEntry(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ".claude/settings.json")
	o := Options{Root: root, Hook: NewHookCommands(hook.Wiring{}, false)}
	doInstall(t, o)
	o.Hook = NewHookCommands(hook.Wiring{Loop: "release", Strict: true}, true)
	doInstall(t, o)
	s := read(t, path)
	if !strings.Contains(s, "--loop release --strict") || !strings.Contains(s, `"onFailure": "block"`) || strings.Count(s, "# gitwarrant:install") != 4 {
		t.Fatalf("install's entry not re-pinned in place:\n%s", s)
	}
	o.Hook = NewHookCommands(hook.Wiring{}, false)
	if p := doInstall(t, o); len(p.Changes) != 0 {
		t.Fatalf("install without flags changed the pinned entry: %+v", p.Changes)
	}
	p, err := PlanUninstall(UninstallOptions{Root: root, KeepMCP: true, KeepGitHooks: true})
	if err != nil || p.Apply() != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatalf("the settings file install created was left:\n%s", read(t, path))
	}

	hand := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "gitwarrant hook claude", "timeout": 5}]}]}}`
	write(t, path, hand, 0o644)
	o.Hook = NewHookCommands(hook.Wiring{Loop: "release"}, true)
	doInstall(t, o)
	s = read(t, path)
	if !strings.Contains(s, `"matcher": "Bash", "hooks": [{"type": "command", "command": "command -v gitwarrant`) || !strings.Contains(s, `--loop release || {`) || !strings.Contains(s, `"timeout": 5}`) {
		t.Fatalf("the hand-written entry did not keep its shape with the new command:\n%s", s)
	}
}

// Entries older versions wrote carry no marker; uninstall still finds them
// by their exact shape.
func TestUninstallRemovesEntriesOlderVersionsWrote(t *testing.T) {
	root := t.TempDir()
	legacy := "{\n  \"permissions\": {},\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": " + yamlQuote(NewHookCommands(hook.Wiring{}, false).Pre) + ",\n            \"timeout\": 30\n          }\n        ]\n      }\n    ]\n  }\n}\n"
	write(t, filepath.Join(root, ".claude/settings.json"), legacy, 0o644)
	p, err := PlanUninstall(UninstallOptions{Root: root, KeepMCP: true, KeepGitHooks: true})
	if err != nil || p.Apply() != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(root, ".claude/settings.json")); got != "{\n  \"permissions\": {}\n}\n" {
		t.Fatalf("legacy entry not removed:\n%s", got)
	}
}

// A husky line an older version appended at the end moves first.
func TestHuskyLineAppendedByAnOlderVersionMovesFirst(t *testing.T) {
	root := newRepo(t)
	write(t, filepath.Join(root, ".husky/_/h"), huskyH, 0o644)
	git(t, root, "config", "core.hooksPath", ".husky/_")
	old := "#!/bin/sh\nnpm test\n" + guarded("pre-commit") + " # " + shimMarker + "\n"
	write(t, filepath.Join(root, ".husky/pre-commit"), old, 0o755)
	o := testOptions(root)
	o.Targets, o.Hook = nil, nil
	doInstall(t, o)
	if got := read(t, filepath.Join(root, ".husky/pre-commit")); got != "#!/bin/sh\n"+huskyLine("pre-commit", false)+"\nnpm test\n" {
		t.Fatalf("got %q", got)
	}
	doUninstall(t, root)
	if got := read(t, filepath.Join(root, ".husky/pre-commit")); got != "#!/bin/sh\nnpm test\n" {
		t.Fatalf("after uninstall: %q", got)
	}
}

// The "run lefthook install" note prints only when install changed
// lefthook's config, not on every run.
func TestLefthookNoteOnlyWhenChanged(t *testing.T) {
	root := newRepo(t)
	write(t, filepath.Join(root, "lefthook.yml"), userLefthook, 0o644)
	o := testOptions(root)
	o.Targets, o.Hook = nil, nil
	note := func(p *Plan) bool {
		for _, n := range p.Notices {
			if strings.Contains(n, "lefthook install") {
				return true
			}
		}
		return false
	}
	if p := doInstall(t, o); !note(p) {
		t.Fatalf("first install: no lefthook note in %q", p.Notices)
	}
	if p := doInstall(t, o); note(p) || len(p.Changes) != 0 {
		t.Fatalf("second install: note %q, changes %d", p.Notices, len(p.Changes))
	}
}
