package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/chain/spectest"
)

// folderNames lists a writer's folder as committed in HEAD.
func folderNames(t testing.TB, dir string, r *Record, w string) []string {
	t.Helper()
	out := git(t, dir, "ls-tree", "--name-only", "HEAD", r.rel(r.WriterDir(w))+"/")
	var names []string
	for _, l := range strings.Fields(out) {
		names = append(names, filepath.Base(l))
	}
	return names
}

// TestSegmentsSealAndNeverConflict: commits carry deltas of at most
// MaxDeltaEntries; the commit that fills a segment replaces its deltas with
// the sealed file, which Git does not see as a rename, so cherry-picking
// it where the deltas are absent does not conflict. Export is one
// spec-valid chain.
func TestSegmentsSealAndNeverConflict(t *testing.T) {
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	w := writerOf(t, r)
	bulkAppend(t, r, 100, "a")
	commitWork(t, dir, "a.txt", "a")
	git(t, dir, "branch", "elsewhere") // holds the first delta only
	bulkAppend(t, r, 1000, "b")
	commitWork(t, dir, "b.txt", "b")
	names := folderNames(t, dir, r, w)
	if len(names) != 1+4 { // 1-100, then 101..1100 in four deltas of <= 256
		t.Fatalf("files %v", names)
	}
	bulkAppend(t, r, 1000, "c") // to 2100: crosses the seal
	commitWork(t, dir, "c.txt", "c")
	names = folderNames(t, dir, r, w)
	if names[0] != segName(1, SegmentEntries) {
		t.Fatalf("no sealed segment first: %v", names)
	}
	for _, n := range names[1:] {
		s, ok := parseSegName(n)
		if !ok || s.From <= SegmentEntries || s.To-s.From+1 > MaxDeltaEntries {
			t.Fatalf("bad delta %s in %v", n, names)
		}
	}
	if st := git(t, dir, "diff", "-M", "--name-status", "HEAD~1", "HEAD"); strings.Contains(st, "\nR") || strings.HasPrefix(st, "R") {
		t.Fatalf("the seal looks like a rename to Git:\n%s", st)
	}
	sealing := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	git(t, dir, "checkout", "-q", "elsewhere")
	if out, err := gitErr(dir, "cherry-pick", sealing); err != nil {
		t.Fatalf("cherry-pick of the sealing commit: %v\n%s", err, out)
	}
	mustVerify(t, r)
	git(t, dir, "checkout", "-q", "main")
	mustVerify(t, r)

	var exp strings.Builder
	if err := r.Export(w, &exp); err != nil {
		t.Fatal(err)
	}
	cr, _ := r.repo.ReadChainRef("refs/gitwarrant/" + w)
	if head := spectest.Verify(t, []byte(exp.String())); head != cr.Head || strings.Count(exp.String(), "\n") != 2100 {
		t.Fatalf("export: %d lines, head %s, ref head %s", strings.Count(exp.String(), "\n"), head, cr.Head)
	}
}

// TestTamperAcrossSegments: editing a sealed segment, deleting one,
// reordering two, and splicing one from another writer are each caught by
// verify, naming the file, and refused by the next commit.
func TestTamperAcrossSegments(t *testing.T) {
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	w := writerOf(t, r)
	bulkAppend(t, r, SegmentEntries+50, "work")
	commitWork(t, dir, "a.txt", "carry")
	git(t, dir, "checkout", "-q", "-b", "other")
	ro := openT(t, p)
	wo := writerOf(t, ro)
	bulkAppend(t, ro, SegmentEntries+50, "other")
	commitWork(t, dir, "o.txt", "other carry")
	git(t, dir, "checkout", "-q", "main")
	sealed := filepath.Join(r.WriterDir(w), segName(1, SegmentEntries))
	delta := filepath.Join(r.WriterDir(w), segName(SegmentEntries+1, SegmentEntries+50))
	otherSealed := filepath.Join(r.WriterDir(wo), segName(1, SegmentEntries))
	cases := map[string]func(){
		"edit a sealed segment": func() {
			b, _ := os.ReadFile(sealed)
			os.WriteFile(sealed, []byte(strings.Replace(string(b), "work 1000", "work 1OOO", 1)), 0o644)
		},
		"delete a sealed segment": func() { os.Remove(sealed) },
		"reorder two segments": func() {
			a, _ := os.ReadFile(sealed)
			b, _ := os.ReadFile(delta)
			os.WriteFile(sealed, b, 0o644)
			os.WriteFile(delta, a, 0o644)
		},
		"splice another writer's segment": func() {
			git(t, dir, "checkout", "-q", "other", "--", r.rel(otherSealed))
			b, _ := os.ReadFile(otherSealed)
			os.WriteFile(sealed, b, 0o644)
			git(t, dir, "rm", "-q", "-r", "--cached", r.rel(r.WriterDir(wo)))
			os.RemoveAll(r.WriterDir(wo))
		},
	}
	for name, tamper := range cases {
		t.Run(name, func(t *testing.T) {
			tamper()
			v, err := r.Verify()
			if err != nil || v.OK() || !strings.Contains(v.Findings[0].Path, w) {
				t.Fatalf("verify: %v %+v", err, v)
			}
			if out, err := gitErr(dir, "commit", "-q", "--allow-empty", "-m", "try"); err == nil || !strings.Contains(out, "commit refused") {
				t.Fatalf("commit over %s: %v\n%s", name, err, out)
			}
			if _, err := r.Restore(w); err != nil {
				t.Fatal(err)
			}
			mustVerify(t, r)
			if st := git(t, dir, "status", "--porcelain"); st != "" {
				t.Fatalf("status after restore:\n%s", st)
			}
		})
	}
}

// TestSingleFileChainMigrates: a branch with an earlier version's
// single-file chain (and a file ahead of its ref, as an earlier version
// could leave it) moves to a folder at the next append and commit, losing
// nothing.
func TestSingleFileChainMigrates(t *testing.T) {
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	w := writerOf(t, r)
	bulkAppend(t, r, 300, "old")
	legacy := r.ChainPath(w)
	os.MkdirAll(filepath.Dir(legacy), 0o755)
	os.WriteFile(legacy, []byte(refContent(t, dir, "refs/gitwarrant/"+w)), 0o644)
	git(t, dir, "add", r.rel(legacy))
	git(t, dir, "commit", "-q", "--no-verify", "-m", "an earlier version's commit")
	// an entry the earlier version wrote to the file but not to the ref
	f := &chain.File{Path: legacy, LockPath: filepath.Join(t.TempDir(), "l")}
	if _, err := f.Append(note("file only")); err != nil {
		t.Fatal(err)
	}
	e := appendN(t, r, 1, "new")
	if e.Seq != 302 {
		t.Fatalf("append after the file-only entry got seq %d", e.Seq)
	}
	commitWork(t, dir, "m.txt", "migrate")
	if _, err := os.Stat(legacy); err == nil {
		t.Fatal("the single file is still there")
	}
	names := folderNames(t, dir, r, w)
	if len(names) == 0 || names[0] != segName(1, MaxDeltaEntries) {
		t.Fatalf("folder %v", names)
	}
	mustVerify(t, r)
	var exp strings.Builder
	r.Export(w, &exp)
	spectest.Verify(t, []byte(exp.String()))
	if n := strings.Count(exp.String(), "\n"); n != 302 {
		t.Fatalf("export holds %d entries", n)
	}
}
