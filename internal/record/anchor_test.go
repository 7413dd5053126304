package record

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// appendN appends n notes and returns the last entry.
func appendN(t testing.TB, r *Record, n int, what string) chain.Entry {
	t.Helper()
	var e chain.Entry
	var err error
	for i := 0; i < n; i++ {
		if e, err = r.Append(note(fmt.Sprintf("%s %d", what, i))); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// commitWork makes a user commit (hooks run) touching file name.
func commitWork(t testing.TB, dir, name, msg string) {
	t.Helper()
	os.WriteFile(filepath.Join(dir, name), []byte(msg+"\n"), 0o644)
	git(t, dir, "add", name)
	git(t, dir, "commit", "-q", "-m", msg)
}

func mustVerify(t testing.TB, r *Record) {
	t.Helper()
	v, err := r.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK() {
		t.Fatalf("verify: %v", v.Findings)
	}
	pins, err := r.VerifyGit()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pins {
		if p.Status == chain.HeadMissing {
			t.Fatalf("pin missing: %+v", p)
		}
	}
}

func TestCommitPinsHeadTrailerOncePerChain(t *testing.T) {
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	last := appendN(t, r, 5, "work")
	commitWork(t, dir, "a.txt", "add a")
	w := writerOf(t, r)
	rel := ".gitwarrant/record/" + w + "/"
	msg := git(t, dir, "log", "-1", "--format=%B")
	want := "Warrant-Head: " + rel + " " + last.Hash
	if strings.Count(msg, "Warrant-Head:") != 1 || !strings.Contains(msg, want) {
		t.Fatalf("message:\n%s\nwant one trailer %q", msg, want)
	}
	if files := git(t, dir, "show", "--name-only", "--format=", "HEAD"); !strings.Contains(files, rel) {
		t.Fatalf("chain file not committed: %s", files)
	}
	// Amend with more entries: the trailer is replaced, not duplicated.
	last = appendN(t, r, 2, "more")
	git(t, dir, "commit", "-q", "--amend", "--no-edit")
	msg = git(t, dir, "log", "-1", "--format=%B")
	if strings.Count(msg, "Warrant-Head:") != 1 || !strings.Contains(msg, last.Hash) {
		t.Fatalf("after amend:\n%s", msg)
	}
	// Amend with nothing new: the trailer stays as it was.
	git(t, dir, "commit", "-q", "--amend", "-m", "add a, reworded\n\n"+strings.TrimSpace(git(t, dir, "log", "-1", "--format=%(trailers)")))
	msg = git(t, dir, "log", "-1", "--format=%B")
	if strings.Count(msg, "Warrant-Head:") != 1 || !strings.Contains(msg, last.Hash) {
		t.Fatalf("after reword:\n%s", msg)
	}
	// A commit without record changes gets no trailer.
	commitWork(t, dir, "b.txt", "add b")
	if msg := git(t, dir, "log", "-1", "--format=%B"); strings.Contains(msg, "Warrant-Head") {
		t.Fatalf("unrelated commit got a trailer:\n%s", msg)
	}
	mustVerify(t, r)
}

// TestTamperedCommittedSegmentRefusesCommit: the work tree's copy of the
// chain is only ever written by the commit hooks, so any edit to it is
// refused at the next commit, naming the file and line; `record restore`
// brings it back.
func TestTamperedCommittedSegmentRefusesCommit(t *testing.T) {
	cases := map[string]func(lines []string) []string{
		"edited": func(l []string) []string {
			l[3] = strings.Replace(l[3], "work 3", "work X", 1)
			return l
		},
		"deleted middle": func(l []string) []string { return append(l[:2:2], l[3:]...) },
		"deleted last":   func(l []string) []string { return l[:len(l)-1] },
		"reordered":      func(l []string) []string { l[1], l[2] = l[2], l[1]; return l },
	}
	for name, tamper := range cases {
		t.Run(name, func(t *testing.T) {
			dir, p := newRepo(t)
			installHooks(t, dir)
			r := openT(t, p)
			appendN(t, r, 6, "work")
			commitWork(t, dir, "a.txt", "first")
			w := writerOf(t, r)
			path := filepath.Join(r.WriterDir(w), segName(1, 6))
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			os.WriteFile(path, []byte(strings.Join(tamper(lines), "\n")+"\n"), 0o644)
			appendN(t, r, 2, "more")
			os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b\n"), 0o644)
			git(t, dir, "add", "b.txt")
			out, err := gitErr(dir, "commit", "-q", "-m", "try")
			if err == nil {
				t.Fatalf("commit succeeded over a %s segment", name)
			}
			for _, want := range []string{"commit refused", segName(1, 6), "modified", "gitwarrant record restore"} {
				if !strings.Contains(out, want) {
					t.Errorf("message lacks %q:\n%s", want, out)
				}
			}
			if v, _ := r.Verify(); v.OK() {
				t.Fatal("verify passed over the tampered segment")
			}
			if _, err := r.Restore(w); err != nil {
				t.Fatal(err)
			}
			git(t, dir, "commit", "-q", "-m", "recovered")
			mustVerify(t, r)
			if got := git(t, dir, "status", "--porcelain"); got != "" {
				t.Fatalf("status after the commit:\n%s", got)
			}
		})
	}
}

// TestVerifyGitNamesCommitWhosePinnedHeadVanished: pins are held to the
// live record, the ref; rewinding the ref loses the pinned head.
func TestVerifyGitNamesCommitWhosePinnedHeadVanished(t *testing.T) {
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	appendN(t, r, 2, "work")
	w := writerOf(t, r)
	early := strings.TrimSpace(git(t, dir, "rev-parse", "refs/gitwarrant/"+w))
	appendN(t, r, 2, "work")
	commitWork(t, dir, "a.txt", "first")
	pinned := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	mustVerify(t, r)
	git(t, dir, "update-ref", "refs/gitwarrant/"+w, early)
	pins, err := r.VerifyGit()
	if err != nil {
		t.Fatal(err)
	}
	if len(pins) != 1 || pins[0].Status != chain.HeadMissing || pins[0].Commit != pinned {
		t.Fatalf("pins %+v, want the pin of %s missing", pins, pinned)
	}
	out, code := gw(t, dir, "record", "verify", "--git")
	if code != 1 || !strings.Contains(out, "commit "+pinned[:12]) || !strings.Contains(out, "no longer in that chain") || !strings.Contains(out, "beyond ref") {
		t.Fatalf("verify --git exit %d:\n%s", code, out)
	}
}

// TestBranchesMergeWithoutRecordConflicts covers fast-forward, true merge
// and rebase of branches that both recorded events.
func TestBranchesMergeWithoutRecordConflicts(t *testing.T) {
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	appendN(t, r, 3, "main")
	commitWork(t, dir, "m1.txt", "main 1")

	git(t, dir, "checkout", "-q", "-b", "ff")
	appendN(t, r, 2, "ff")
	commitWork(t, dir, "ff.txt", "ff work")
	git(t, dir, "checkout", "-q", "main")
	git(t, dir, "merge", "-q", "--ff-only", "ff")
	mustVerify(t, r)

	git(t, dir, "checkout", "-q", "-b", "topic")
	appendN(t, r, 3, "topic")
	commitWork(t, dir, "t.txt", "topic work")
	git(t, dir, "checkout", "-q", "main")
	appendN(t, r, 2, "main again")
	commitWork(t, dir, "m2.txt", "main 2")
	git(t, dir, "merge", "-q", "--no-edit", "topic")
	if got := git(t, dir, "rev-list", "--count", "--merges", "HEAD"); strings.TrimSpace(got) != "1" {
		t.Fatalf("expected a true merge, merges=%s", got)
	}
	mustVerify(t, r)

	git(t, dir, "checkout", "-q", "-b", "rebased", "HEAD~1")
	appendN(t, r, 2, "rebased")
	commitWork(t, dir, "r.txt", "rebased work")
	appendN(t, r, 1, "rebased")
	commitWork(t, dir, "r2.txt", "rebased work 2")
	git(t, dir, "rebase", "-q", "main")
	git(t, dir, "checkout", "-q", "main")
	git(t, dir, "merge", "-q", "--ff-only", "rebased")
	mustVerify(t, r)
	srcs, _ := r.Sources()
	if len(srcs) != 4 {
		t.Fatalf("want 4 chains (main, ff, topic, rebased), got %v", srcs)
	}
	if out, code := gw(t, dir, "record", "verify", "--git"); code != 0 {
		t.Fatalf("record verify --git exit %d:\n%s", code, out)
	}
	if msgs := git(t, dir, "log", "--format=%B", "-2"); strings.Count(msgs, "Warrant-Head:") != 2 {
		t.Fatalf("rebased commits should keep exactly their own trailers:\n%s", msgs)
	}
}
