package record

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// gitQuiet runs a git command that must succeed without a word from
// gitwarrant (docs/record.md#everyday-git): it is neither refused nor
// conflicting, and no hook of ours speaks.
func gitQuiet(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(gitEnv(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if strings.Contains(string(out), "gitwarrant:") || strings.Contains(string(out), "refused") || strings.Contains(string(out), "CONFLICT") {
		t.Fatalf("git %s printed:\n%s", strings.Join(args, " "), out)
	}
}

// check runs the real binary's check, which must record (exit 2: ask).
func check(t *testing.T, dir, target string) {
	t.Helper()
	out, code := gw(t, dir, "check", "fix", "read", target)
	if code != 2 || strings.Contains(out, "not recorded") {
		t.Fatalf("check %q: exit %d\n%s", target, code, out)
	}
}

// TestEverydayGitBetweenChecks: switch, stash and pop, reset --hard
// HEAD~3, rebase -i dropping a commit that carried entries, pull --rebase
// and cherry-pick between checks are neither refused nor conflicting;
// every later check records, the next commit carries every entry, and
// verify passes.
func TestEverydayGitBetweenChecks(t *testing.T) {
	dir, p := newRepo(t)
	installHooks(t, dir)
	if out, code := gw(t, dir, "new", "fix", "--template", "fix-bug-on-branch"); code != 0 {
		t.Fatal(out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	git(t, dir, "init", "-q", "--bare", remote)
	git(t, dir, "remote", "add", "origin", remote)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "loop")
	git(t, dir, "push", "-q", "-u", "origin", "main")
	r := openT(t, p)
	work := func(name string) {
		t.Helper()
		os.WriteFile(filepath.Join(dir, name), []byte(name+"\n"), 0o644)
		gitQuiet(t, dir, nil, "add", name)
		gitQuiet(t, dir, nil, "commit", "-q", "-m", name)
	}

	check(t, dir, "one")
	work("w1.txt")
	// switch away and back, with entries not yet committed
	check(t, dir, "two")
	gitQuiet(t, dir, nil, "switch", "-q", "-c", "feature")
	check(t, dir, "on feature")
	work("f1.txt")
	check(t, dir, "on feature again")
	work("f2.txt")
	gitQuiet(t, dir, nil, "switch", "-q", "main")
	check(t, dir, "three")
	// stash and pop a user change
	os.WriteFile(filepath.Join(dir, "w1.txt"), []byte("changed\n"), 0o644)
	gitQuiet(t, dir, nil, "stash", "-q")
	check(t, dir, "four")
	gitQuiet(t, dir, nil, "stash", "pop", "-q")
	gitQuiet(t, dir, nil, "checkout", "-q", "--", "w1.txt")
	// three commits carrying entries, then reset --hard HEAD~3
	for i := 0; i < 3; i++ {
		check(t, dir, fmt.Sprint("r", i))
		work(fmt.Sprintf("r%d.txt", i))
	}
	gitQuiet(t, dir, nil, "reset", "-q", "--hard", "HEAD~3")
	check(t, dir, "after reset")
	// rebase -i dropping the middle of three commits that carried entries
	for i := 0; i < 3; i++ {
		check(t, dir, fmt.Sprint("b", i))
		work(fmt.Sprintf("b%d.txt", i))
	}
	gitQuiet(t, dir, []string{"GIT_SEQUENCE_EDITOR=sed -i -e '2s/^pick/drop/'"}, "rebase", "-q", "-i", "HEAD~3")
	check(t, dir, "after rebase")
	// another clone pushes; pull --rebase replays ours on top
	other := filepath.Join(t.TempDir(), "other")
	git(t, dir, "clone", "-q", "-b", "main", remote, other)
	installHooks(t, other)
	ro := openT(t, projectAt(other))
	appendN(t, ro, 3, "other clone")
	os.WriteFile(filepath.Join(other, "o.txt"), []byte("o\n"), 0o644)
	git(t, other, "add", "o.txt")
	git(t, other, "commit", "-q", "-m", "other")
	git(t, other, "push", "-q", "origin", "main")
	check(t, dir, "before pull")
	work("before-pull.txt")
	gitQuiet(t, dir, nil, "pull", "-q", "--rebase", "origin", "main")
	check(t, dir, "after pull")
	// cherry-pick a feature commit that carried the feature writer's entries
	gitQuiet(t, dir, nil, "cherry-pick", "feature")
	check(t, dir, "after cherry-pick")
	// the next commit carries every entry of this writer, and all verifies
	work("last.txt")
	w := writerOf(t, r)
	cr, _ := r.repo.ReadChainRef("refs/gitwarrant/" + w)
	var committed strings.Builder
	segs, _, _ := listSegs(r.WriterDir(w))
	for _, s := range coverFiles(segs) {
		committed.WriteString(git(t, dir, "show", "HEAD:"+r.rel(filepath.Join(r.WriterDir(w), s.Name))))
	}
	if rep := chain.Verify(strings.NewReader(committed.String()), w); !rep.OK() || int64(rep.Entries) != cr.Lines {
		t.Fatalf("HEAD carries %d of %d entries (%+v)", rep.Entries, cr.Lines, rep.Break)
	}
	if out, code := gw(t, dir, "record", "verify", "--git"); code != 0 {
		t.Fatalf("verify:\n%s", out)
	}
	if got := git(t, dir, "status", "--porcelain"); got != "" {
		t.Fatalf("status:\n%s", got)
	}
}

// TestStatusUntouchedByChecksAndHookCalls: 1,000 checks and hook calls
// through the binary leave `git status --porcelain` byte-identical.
func TestStatusUntouchedByChecksAndHookCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 runs of the binary")
	}
	dir, _ := newRepo(t)
	installHooks(t, dir)
	if out, code := gw(t, dir, "new", "fix", "--template", "fix-bug-on-branch"); code != 0 {
		t.Fatal(out)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "loop")
	os.WriteFile(filepath.Join(dir, "README"), []byte("user edit\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "untracked.txt"), []byte("x\n"), 0o644)
	before := git(t, dir, "status", "--porcelain")
	payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "cat README"}, "cwd": dir})
	for i := 0; i < 500; i++ {
		check(t, dir, fmt.Sprint("file ", i))
		cmd := exec.Command(needBinary(t), "hook", "claude", "--loop", "fix")
		cmd.Dir, cmd.Env = dir, gitEnv()
		cmd.Stdin = strings.NewReader(string(payload))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("hook call %d: %v\n%s", i, err, out)
		}
	}
	if after := git(t, dir, "status", "--porcelain"); after != before {
		t.Fatalf("status changed:\n%s\n---\n%s", before, after)
	}
	out, _ := gw(t, dir, "record", "log", "-n", "1")
	if !strings.Contains(out, "#1000 ") {
		t.Fatalf("want 1000 entries recorded:\n%s", out)
	}
}
