package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommitHooksWithoutGitProcesses: the commit hooks read the record
// folder's status, stage the new files and hand their trailers to the
// commit-msg script in process, and Git agrees with everything they did.
func TestCommitHooksWithoutGitProcesses(t *testing.T) {
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	w := writerOf(t, r)
	bulkAppend(t, r, 10, "a")
	commitWork(t, dir, "a.txt", "a") // the folder's first files: `git add`
	if !r.recordClean() {
		t.Fatalf("after a commit the folder reads as changed:\n%s", git(t, dir, "status", "--porcelain"))
	}
	bulkAppend(t, r, 5, "b")
	commitWork(t, dir, "b.txt", "b") // staged in process
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Fatalf("git status after a commit staged in process:\n%s", st)
	}
	git(t, dir, "fsck", "--no-progress")
	names := folderNames(t, dir, r, w)
	if len(names) != 2 || names[1] != segName(11, 15) {
		t.Fatalf("committed files %v", names)
	}
	msg := git(t, dir, "log", "-1", "--format=%B")
	last := lastHash(t, filepath.Join(r.WriterDir(w), segName(11, 15)))
	if !strings.Contains(msg, "Warrant-Head: "+r.rel(r.WriterDir(w))+"/ "+last) {
		t.Fatalf("trailer missing or wrong (want %s):\n%s", last, msg)
	}
	note, err := os.ReadFile(filepath.Join(dir, ".git", stateDir, trailersFile))
	if err == nil && !strings.Contains(string(note), last) {
		t.Fatalf("the note for the commit-msg script does not hold the pin:\n%s", note)
	}

	// An edit of a committed file, same size, is seen by content even when
	// its stat data is put back: the status is then Git's, and refuses.
	seg := filepath.Join(r.WriterDir(w), segName(1, 10))
	b, _ := os.ReadFile(seg)
	fi, _ := os.Stat(seg)
	os.WriteFile(seg, []byte(strings.Replace(string(b), `"note"`, `"nOte"`, 1)), 0o644)
	os.Chtimes(seg, fi.ModTime(), fi.ModTime())
	if r.recordClean() {
		t.Fatal("an edited segment read as clean")
	}
	if out, err := gitErr(dir, "commit", "-q", "--allow-empty", "-m", "after an edit"); err == nil || !strings.Contains(out, "modified") {
		t.Fatalf("commit after editing a sealed file: err %v\n%s", err, out)
	}
	os.WriteFile(seg, b, 0o644)

	// A stray file in the folder is left to git status, which refuses.
	os.WriteFile(filepath.Join(r.WriterDir(w), "notes.txt"), []byte("x\n"), 0o644)
	if r.recordClean() {
		t.Fatal("a stray file read as clean")
	}
	if out, err := gitErr(dir, "commit", "-q", "--allow-empty", "-m", "stray"); err == nil || !strings.Contains(out, "not a record segment") {
		t.Fatalf("commit with a stray file: err %v\n%s", err, out)
	}
	os.Remove(filepath.Join(r.WriterDir(w), "notes.txt"))

	// The index's cache-tree stands for HEAD's files only while it holds
	// HEAD's tree: after `git reset --soft` the index keeps a newer folder
	// (its cache-tree valid) that HEAD does not have.
	if !r.recordClean() {
		t.Fatalf("clean again:\n%s", git(t, dir, "status", "--porcelain"))
	}
	git(t, dir, "reset", "-q", "--soft", "HEAD~1")
	if r.recordClean() {
		t.Fatal("after reset --soft, the index's record folder (not HEAD's) read as clean")
	}
	git(t, dir, "reset", "-q", "--soft", "HEAD@{1}")
	// A staged edit (Git invalidates the folder's cache-tree node) is
	// held to HEAD's files one by one.
	os.WriteFile(seg, []byte(strings.Replace(string(b), `"note"`, `"nOte"`, 1)), 0o644)
	git(t, dir, "add", r.rel(seg))
	if r.recordClean() {
		t.Fatal("a staged edit of a segment read as clean")
	}
}

func lastHash(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	i := strings.Index(lines[len(lines)-1], `"hash":"`)
	return lines[len(lines)-1][i+8 : i+8+71]
}
