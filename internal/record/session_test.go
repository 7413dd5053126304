package record

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// userOps is a fixed sequence of history edits: amend, reset, rebase -i
// (reword one commit, drop another). gitEnv fixes the dates, so the
// resulting commit ids are comparable between two repositories.
func userOps(t *testing.T, dir string) string {
	t.Helper()
	run := func(env []string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(gitEnv(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, n := range []string{"one", "two", "three", "four"} {
		os.WriteFile(filepath.Join(dir, n+".txt"), []byte(n+"\n"), 0o644)
		run(nil, "add", n+".txt")
		run(nil, "commit", "-q", "-m", n)
	}
	run(nil, "commit", "-q", "--amend", "-m", "four, amended")
	run(nil, "reset", "-q", "HEAD~1")
	run([]string{"GIT_SEQUENCE_EDITOR=sed -i -e '1s/^pick/reword/' -e '2s/^pick/drop/'", "GIT_EDITOR=sed -i -e '1s/.*/reworded/'"}, "rebase", "-q", "-i", "HEAD~2")
	return git(t, dir, "log", "--format=%H %s", "HEAD") + git(t, dir, "status", "--porcelain", "--untracked-files=no")
}

// TestAgentSessionLeavesUserBranchAlone: 200 recorded events add 200
// commits to the writer's ref and none to the branch; HEAD, the index and
// the stash are untouched; amend, reset and rebase -i give the same
// history as in a repository without gitwarrant.
func TestAgentSessionLeavesUserBranchAlone(t *testing.T) {
	dir, p := newRepo(t)
	control, _ := newRepo(t)
	r := openT(t, p)
	appendN(t, r, 1, "first")
	snap := func() string {
		return git(t, dir, "status", "--porcelain") + "|" + git(t, dir, "diff", "--cached") + "|" + git(t, dir, "stash", "list") + "|" + git(t, dir, "rev-parse", "HEAD")
	}
	index := func() string { b, _ := os.ReadFile(filepath.Join(dir, ".git", "index")); return string(b) }
	before, indexBefore := snap(), index()
	appendN(t, r, 199, "agent")
	if after := snap(); after != before {
		t.Fatalf("status/index/stash/HEAD changed:\n%s\n---\n%s", before, after)
	}
	if index() != indexBefore {
		t.Fatal(".git/index changed")
	}
	w := writerOf(t, r)
	if n := strings.TrimSpace(git(t, dir, "rev-list", "--count", "refs/gitwarrant/"+w)); n != "200" {
		t.Fatalf("ref has %s commits", n)
	}
	if n := strings.TrimSpace(git(t, dir, "rev-list", "--count", "HEAD")); n != "1" {
		t.Fatalf("branch has %s commits, want 1", n)
	}
	got, want := userOps(t, dir), userOps(t, control)
	if got != want {
		t.Fatalf("history differs from a repository without gitwarrant:\n%s\n--- control ---\n%s", got, want)
	}
	if !strings.Contains(got, " reworded\n") || strings.Contains(got, " three\n") || strings.Contains(got, " four") {
		t.Fatalf("the operations did not run as scripted:\n%s", got)
	}
	if n := strings.TrimSpace(git(t, dir, "rev-list", "--count", "refs/gitwarrant/"+w)); n != "200" {
		t.Fatalf("history edits touched the ref: %s commits", n)
	}
}
