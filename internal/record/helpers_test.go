package record

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/project"
)

// git runs git in dir and fails the test on error.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := gitErr(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func gitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// gitEnv isolates tests from the user's git configuration.
func gitEnv() []string {
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=Tess Ter", "GIT_AUTHOR_EMAIL=tess@example.com",
		"GIT_COMMITTER_NAME=Tess Ter", "GIT_COMMITTER_EMAIL=tess@example.com",
		// Fixed dates make commit ids comparable between repositories.
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
}

// newRepo makes a git repository with a .gitwarrant project and one commit.
func newRepo(t testing.TB) (string, *project.Project) {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	if err := os.MkdirAll(filepath.Join(dir, ".gitwarrant", "loops"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "README"), []byte("hello\n"), 0o644)
	git(t, dir, "add", "README")
	git(t, dir, "commit", "-q", "-m", "initial")
	return dir, &project.Project{Dir: filepath.Join(dir, ".gitwarrant"), Root: dir}
}

func note(text string) chain.Entry {
	return chain.Entry{Loop: "appeal", Kind: chain.KindNote, Did: text}
}

// writeChain writes a valid n-entry chain at path with the chain package.
func writeChain(t testing.TB, path string, n int) {
	t.Helper()
	f := &chain.File{Path: path}
	for i := 0; i < n; i++ {
		if _, err := f.Append(note("docket")); err != nil {
			t.Fatal(err)
		}
	}
}

// projectAt is the .gitwarrant project of the work tree at dir.
func projectAt(dir string) *project.Project {
	return &project.Project{Dir: filepath.Join(dir, ".gitwarrant"), Root: dir}
}

// bulkAppend adds n notes to the current writer's ref in one commit per
// 32,768, as bench/mkchain does: the chain is what appends make, without
// a commit and a process per entry (the per-event path is tested on its own).
func bulkAppend(t testing.TB, r *Record, n int, what string) {
	t.Helper()
	w := writerOf(t, r)
	cr, err := r.repo.ReadChainRef(gitx.RecordRef(w))
	if err != nil {
		t.Fatal(err)
	}
	started := cr.Exists()
	for n > 0 {
		seg, _, err := r.repo.LastSegment(cr)
		if err != nil {
			t.Fatal(err)
		}
		var lines [][]byte
		head := ""
		for i := 0; i < min(n, 32768); i++ {
			var line []byte
			var e chain.Entry
			if len(lines) == 0 {
				line, e, err = r.seal(note(fmt.Sprintf("%s %d", what, i)), cr, seg, nil, r.Now)
			} else {
				last, _, _ := chain.ParseEntry(bytes.TrimSuffix(lines[len(lines)-1], []byte("\n")))
				e = note(fmt.Sprintf("%s %d", what, i))
				e.Seq, e.Prev, e.TS = last.Seq+1, last.Hash, "2026-01-01T00:00:00.000Z"
				line, e, err = chain.Seal(e)
				line = append(line, '\n')
			}
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line)
			head = e.Hash
		}
		cr, err = r.repo.AppendChain(cr, seg, gitx.ChainCommit{Chain: r.chainName(w), Lines: lines, Head: head,
			Subject: "warrant: bulk", Author: gitx.Identity{Name: "t", Email: "t@example.com"}, When: r.Now()})
		if err != nil {
			t.Fatal(err)
		}
		n -= len(lines)
	}
	if !started {
		r.markStarted(w)
	}
}
