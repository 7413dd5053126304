package shell

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pushRepo makes a repository with branches main and feature (diverged)
// and a tag v1, and a bare remote origin holding main, feature and old.
func pushRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	work, remote := filepath.Join(dir, "work"), filepath.Join(dir, "origin.git")
	run := func(in string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = in
		cmd.Env = gitEnv(dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	run(dir, "init", "-q", "--bare", "-b", "main", remote)
	run(work, "init", "-q", "-b", "main", ".")
	run(work, "commit", "-q", "--allow-empty", "-m", "base")
	run(work, "branch", "old")
	run(work, "checkout", "-q", "-b", "feature")
	run(work, "commit", "-q", "--allow-empty", "-m", "feature")
	run(work, "checkout", "-q", "main")
	run(work, "commit", "-q", "--allow-empty", "-m", "main")
	run(work, "remote", "add", "origin", remote)
	run(work, "push", "-q", "origin", "main", "feature", "old")
	run(work, "branch", "-D", "old")
	run(work, "commit", "-q", "--allow-empty", "-m", "main 2")
	run(work, "checkout", "-q", "feature")
	run(work, "commit", "-q", "--allow-empty", "-m", "feature 2")
	run(work, "tag", "v1")
	return work
}

func gitEnv(home string) []string {
	return append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
}

// TestPushMatchesGit: every remote ref git would update (git push
// --dry-run --porcelain, run by bash on the same command) is among the
// parser's updates, forced where git forces and deleted where git deletes.
func TestPushMatchesGit(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	work := pushRepo(t)
	for _, src := range []string{
		`git push origin feature:ma''in`,
		`git push origin +feature:main`,
		`git push origin feature:$'\x6d'ain`,
		`git -c remote.origin.push=+refs/heads/*:refs/heads/* push origin`,
		`git -c remote.origin.push=refs/heads/feature:refs/heads/main push`,
		`git push --mirr origin`,
		`git push origin --all`,
		`git push origin :feature`,
		`git push -d origin feature`,
		`git push --del origin old`,
		`git push origin HEAD:main`,
		`git push origin @:refs/heads/main`,
		`git push --force origin feature`,
		`git push --force-w origin feature:main`,
		`git push origin tag v1`,
		`git push --tags origin`,
		`git -c push.default=matching push origin`,
		`git push origin 'refs/heads/*:refs/heads/*'`,
		`git push origin feature`,
		`git push origin HEAD`,
		`git push --prune origin 'refs/heads/*:refs/heads/*'`,
	} {
		var g *Git
		for _, c := range Parse(src).Clauses {
			if x, ok := c.Git(); ok && x.Push != nil {
				g = x
			}
		}
		if g == nil {
			t.Errorf("%s: no push read", src)
			continue
		}
		loc := pushWord.FindStringIndex(src)
		run := src[:loc[0]+5] + " --dry-run --porcelain" + src[loc[0]+5:]
		cmd := exec.Command(bash, "--norc", "-c", run)
		cmd.Dir = work
		cmd.Env = gitEnv(filepath.Dir(work))
		out, _ := cmd.CombinedOutput()
		seen := 0
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Split(line, "\t")
			if len(f) < 3 || len(f[0]) != 1 {
				continue
			}
			flag := f[0]
			_, dst, _ := strings.Cut(f[1], ":")
			seen++
			u, ok := findUpdate(g.Push, dst, "feature")
			switch {
			case !ok:
				t.Errorf("%s: git updates %s (%s), the parser does not: %+v", src, dst, flag, g.Push)
			case flag == "+" && !u.Force:
				t.Errorf("%s: git forces %s, the parser does not: %+v", src, dst, g.Push)
			case flag == "-" && !u.Delete:
				t.Errorf("%s: git deletes %s, the parser does not: %+v", src, dst, g.Push)
			}
		}
		if seen == 0 {
			t.Errorf("%s: git reported no ref (%s)", src, strings.TrimSpace(string(out)))
		}
	}
}

var pushWord = regexp.MustCompile(` push( |$)`)

// findUpdate finds the parser's update for a full destination ref; head
// is the current branch (for HEAD).
func findUpdate(p *Push, dst, head string) (RefUpdate, bool) {
	for _, u := range p.Updates {
		d := u.Dst
		if d == "HEAD" {
			d = "refs/heads/" + head
		}
		cands := []string{d}
		if !strings.HasPrefix(d, "refs/") {
			cands = []string{"refs/heads/" + d, "refs/tags/" + d, "refs/" + d}
		}
		for _, c := range cands {
			if ok, _ := path.Match(c, dst); ok || c == dst {
				return u, true
			}
			if strings.HasSuffix(c, "/*") && strings.HasPrefix(dst, strings.TrimSuffix(c, "*")) {
				return u, true
			}
		}
	}
	return RefUpdate{}, false
}
