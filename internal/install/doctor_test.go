package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// doctor says "live" after install, and names the exact failure after each
// way a gate can die.
func TestDoctorNamesEachFailure(t *testing.T) {
	root := newProject(t)
	if out, errs, code := gw(t, root, "install"); code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	if out, errs, code := gw(t, root, "doctor"); code != 0 || strings.Contains(out, "FAIL") {
		t.Fatalf("doctor after install: exit %d\n%s%s", code, out, errs)
	}
	if out, _, _ := gw(t, root, "doctor", "--json"); !strings.Contains(out, `"live": true`) || !strings.Contains(out, `"status": "live"`) {
		t.Fatalf("doctor --json:\n%s", out)
	}
	// expectFail breaks something, runs doctor, expects exit 1 and want in
	// the table, then repairs it and expects live again.
	expectFail := func(what, want string, breakIt, repair func()) {
		t.Helper()
		breakIt()
		out, errs, code := gw(t, root, "doctor")
		// Column widths follow the longest check name: compare words.
		if code != 1 || !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("%s: want exit 1 and %q, got %d:\n%s%s", what, want, code, out, errs)
		}
		repair()
		if out, errs, code := gw(t, root, "doctor"); code != 0 {
			t.Errorf("%s repaired: doctor exit %d\n%s%s", what, code, out, errs)
		}
	}
	expectFail("hooks path changed", "FAIL  git pre-commit hook  no pre-commit hook at elsewhere/pre-commit (core.hooksPath elsewhere)",
		func() { git(t, root, "config", "core.hooksPath", "elsewhere") },
		func() { git(t, root, "config", "--unset", "core.hooksPath") })
	hookPath := filepath.Join(root, ".git/hooks/commit-msg")
	saved := read(t, hookPath)
	expectFail("hook file deleted", "FAIL  git commit-msg hook  no commit-msg hook at .git/hooks/commit-msg",
		func() { os.Remove(hookPath) },
		func() { write(t, hookPath, saved, 0o755) })
	path := os.Getenv("PATH")
	expectFail("binary missing from PATH", "FAIL  Claude Code hook     .claude/settings.json: the hook runs `gitwarrant` by name, and gitwarrant is not on PATH",
		func() { t.Setenv("PATH", strings.Join(filepath.SplitList(path)[1:], string(os.PathListSeparator))) },
		func() { t.Setenv("PATH", path) })
	expectFail("a switch in the environment", "LEFTHOOK=0 is set in this environment",
		func() { t.Setenv("LEFTHOOK", "0") }, func() { t.Setenv("LEFTHOOK", "") })
	local := filepath.Join(root, ".claude/settings.local.json")
	expectFail("disableAllHooks", `.claude/settings.local.json:1:21: "disableAllHooks": true`,
		func() { write(t, local, `{"disableAllHooks": true}`, 0o644) },
		func() { os.Remove(local) })
	loop := filepath.Join(root, ".gitwarrant/loops/broken.loop.md")
	expectFail("a broken loop", "FAIL  loops", func() { write(t, loop, "---\nname: [broken\n---\n", 0o644) }, func() { os.Remove(loop) })
	if out, errs, code := gw(t, root, "record", "add", "release", "--did", "cut it"); code != 0 {
		t.Fatalf("record add: %d\n%s%s", code, out, errs)
	}
	// the live record is the writer's ref (docs/record.md#the-live-record)
	ref := strings.TrimSpace(git(t, root, "for-each-ref", "--format=%(refname)", "refs/gitwarrant/"))
	head := strings.TrimSpace(git(t, root, "rev-parse", ref))
	expectFail("a deleted record ref", "FAIL  record",
		func() { git(t, root, "update-ref", "-d", ref) },
		func() { git(t, root, "update-ref", ref, head) })
}

// The per-clone hook calls the binary install recorded, so a commit with a
// PATH that lacks gitwarrant still runs the gate; with no binary at all, a
// repository that pins a gate refuses the commit.
func TestShimUsesTheRecordedBinaryAndFailsClosedWhenPinned(t *testing.T) {
	root := newProject(t)
	if out, errs, code := gw(t, root, "install", "--loop", "release"); code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	if out, errs, code := gw(t, root, "record", "add", "release", "--did", "x"); code != 0 {
		t.Fatalf("record add: %d\n%s%s", code, out, errs)
	}
	bin := gitwarrantBin(t)
	var rest []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d != bin {
			rest = append(rest, d)
		}
	}
	t.Setenv("PATH", strings.Join(rest, string(os.PathListSeparator)))
	write(t, filepath.Join(root, "a.txt"), "a\n", 0o644)
	git(t, root, "add", "a.txt")
	git(t, root, "commit", "-q", "-m", "a")
	if files := git(t, root, "show", "--name-only", "--format=", "HEAD"); !strings.Contains(files, ".gitwarrant/record/") {
		t.Fatalf("without gitwarrant on PATH the gate did not run:\n%s", files)
	}
	// Now no binary at all: point the recorded path nowhere.
	for _, h := range []string{"pre-commit", "commit-msg"} {
		p := filepath.Join(root, ".git/hooks", h)
		write(t, p, strings.Replace(read(t, p), "gitwarrant='"+filepath.Join(bin, "gitwarrant")+"'", "gitwarrant='/nonexistent/gitwarrant'", 1), 0o755)
	}
	write(t, filepath.Join(root, "b.txt"), "b\n", 0o644)
	git(t, root, "add", "b.txt")
	out, err := gitErr(root, "commit", "-q", "-m", "b")
	if err == nil || !strings.Contains(out, "pins a gitwarrant gate, so the commit is refused") {
		t.Fatalf("a pinned repository committed with no gitwarrant: err %v\n%s", err, out)
	}
}

// A gate install cannot wire makes it exit 1 with the exact lines to add;
// --allow-manual exits 0 (the doctor's table still says FAIL).
func TestManualGateExits1UnlessAllowManual(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, ".pre-commit-config.yaml"), "repos: []\n", 0o644)
	write(t, filepath.Join(root, ".git/hooks/pre-commit"), "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\nexit 0\n", 0o755)
	out, errs, code := gw(t, root, "install")
	if code != 1 || !strings.Contains(out, "not wired: the pre-commit gate") || !strings.Contains(out, "entry: gitwarrant hook pre-commit") ||
		!strings.Contains(errs, "install could not wire the pre-commit gate") {
		t.Fatalf("want exit 1 with the lines to add, got %d:\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "FAIL  git pre-commit hook") {
		t.Errorf("the doctor's table does not show the gate down:\n%s", out)
	}
	out, errs, code = gw(t, root, "install", "--allow-manual")
	if code != 0 || !strings.Contains(out, "not wired: the pre-commit gate") {
		t.Fatalf("--allow-manual: want exit 0 with the lines, got %d:\n%s%s", code, out, errs)
	}
}

// core.hooksPath set through an included config file: git runs the hooks
// from there, so install writes them there, doctor checks them there, and
// the guard protects that directory (all three ask git).
func TestHooksPathFromAnIncludeAgreesEverywhere(t *testing.T) {
	root := newProject(t)
	write(t, filepath.Join(root, "shared.gitconfig"), "[core]\n\thooksPath = team-hooks\n", 0o644)
	git(t, root, "config", "include.path", "../shared.gitconfig")
	if out, errs, code := gw(t, root, "install"); code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(read(t, filepath.Join(root, "team-hooks/pre-commit")), shimMarker) {
		t.Fatal("install did not write the hook where git runs it")
	}
	if out, _, code := gw(t, root, "doctor"); code != 0 || !strings.Contains(out, "team-hooks/pre-commit") {
		t.Fatalf("doctor: exit %d\n%s", code, out)
	}
	payload := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"` +
		filepath.Join(root, "team-hooks", "pre-commit") + `","content":"#!/bin/sh\nexit 0\n"},"cwd":"` + root + `"}`
	cmd := exec.Command(testkit.Binary(t), "hook", "claude")
	cmd.Dir, cmd.Stdin = root, strings.NewReader(payload)
	out, _ := cmd.Output()
	if !strings.Contains(string(out), `"permissionDecision":"deny"`) && !strings.Contains(string(out), `"permissionDecision": "deny"`) {
		t.Fatalf("the guard let an agent overwrite the hook in the included core.hooksPath:\n%s", out)
	}
}

// A repository gitwarrant refuses (SHA-256 objects) is a FAIL that says so.
func TestDoctorNamesARefusedRepository(t *testing.T) {
	testkit.Binary(t) // built before testEnv narrows PATH
	testEnv(t)
	root := t.TempDir()
	if out, err := gitErr(root, "init", "-q", "--object-format=sha256"); err != nil {
		t.Skipf("this git cannot make a sha256 repository: %v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(root, ".gitwarrant", "loops"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, code := gw(t, root, "doctor")
	if code != 1 || !strings.Contains(out, "FAIL  repository") || !strings.Contains(out, "sha256") {
		t.Fatalf("want exit 1 naming the sha256 repository, got %d:\n%s", code, out)
	}
}

// A per-clone hook written with no binary path (install run by something
// that did not know its own path) runs gitwarrant from PATH; doctor says
// so, and never that a recorded binary is gone.
func TestDoctorSaysNoBinaryWasRecorded(t *testing.T) {
	root := newRepo(t)
	o := testOptions(root)
	o.Hook, o.MCP = nil, false
	doInstall(t, o)
	bin := t.TempDir()
	write(t, filepath.Join(bin, "gitwarrant"), "#!/bin/sh\n", 0o755)
	for _, c := range Diagnose(DoctorEnv{Root: root, Getenv: func(k string) string {
		if k == "PATH" {
			return bin
		}
		return ""
	}}, true, false) {
		if strings.HasPrefix(c.Name, "git ") && (c.Status != Live || !strings.HasSuffix(c.Detail, "runs gitwarrant from PATH (install recorded no binary)")) {
			t.Errorf("%s: %s %q", c.Name, c.Status, c.Detail)
		}
	}
}
