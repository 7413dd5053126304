package record

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/project"
)

func openT(t testing.TB, p *project.Project) *Record {
	t.Helper()
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func writerOf(t testing.TB, r *Record) string {
	t.Helper()
	w, err := r.Writer()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

var writerRE = regexp.MustCompile(`^[a-z0-9-]+-[0-9a-f]{12}$`)

func TestWriterPerBranchCloneWorktreeAndDetachedHead(t *testing.T) {
	dir, p := newRepo(t)
	r := openT(t, p)
	main := writerOf(t, r)
	if !strings.HasPrefix(main, "main-") || !writerRE.MatchString(main) {
		t.Fatalf("main writer %q", main)
	}
	git(t, dir, "checkout", "-q", "-b", "Feature/Über_Thing")
	feat := writerOf(t, r)
	if !strings.HasPrefix(feat, "feature-ber-thing-") {
		t.Fatalf("feature writer %q", feat)
	}
	git(t, dir, "checkout", "-q", "-b", "feature-ber-thing")
	if w := writerOf(t, r); w == feat || !strings.HasPrefix(w, feat) {
		t.Fatalf("colliding slug got writer %q, want a distinct one derived from %q", w, feat)
	}
	git(t, dir, "checkout", "-q", "Feature/Über_Thing")
	if w := writerOf(t, r); w != feat {
		t.Fatalf("writer not remembered: %q then %q", feat, w)
	}
	git(t, dir, "checkout", "-q", "--detach")
	det := writerOf(t, r)
	id := strings.TrimPrefix(main, "main-")
	if det != "detached-"+id {
		t.Fatalf("detached writer %q, want detached-%s", det, id)
	}

	// A linked worktree gets its own id, so even two detached HEADs differ.
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "worktree", "add", "-q", "--detach", wt)
	rw := openT(t, &project.Project{Dir: filepath.Join(wt, ".gitwarrant"), Root: wt})
	if w := writerOf(t, rw); w == det || !strings.HasPrefix(w, "detached-") {
		t.Fatalf("linked worktree writer %q must differ from %q", w, det)
	}
	// A second clone gets another clone id.
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, dir, "clone", "-q", "-b", "main", dir, clone)
	os.MkdirAll(filepath.Join(clone, ".gitwarrant"), 0o755)
	rc := openT(t, &project.Project{Dir: filepath.Join(clone, ".gitwarrant"), Root: clone})
	if w := writerOf(t, rc); w == main || !strings.HasPrefix(w, "main-") {
		t.Fatalf("clone writer %q must differ from %q", w, main)
	}
}

func TestUnbornBranchAndNoGit(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "trunk")
	os.MkdirAll(filepath.Join(dir, ".gitwarrant"), 0o755)
	r := openT(t, &project.Project{Dir: filepath.Join(dir, ".gitwarrant"), Root: dir})
	e, err := r.Append(note("first"))
	if err != nil || e.Seq != 1 {
		t.Fatalf("append on unborn branch: %v %+v", err, e)
	}
	w := writerOf(t, r)
	if !strings.HasPrefix(w, "trunk-") {
		t.Fatalf("unborn writer %q", w)
	}
	if n := strings.TrimSpace(git(t, dir, "rev-list", "--count", "refs/gitwarrant/"+w)); n != "1" {
		t.Fatalf("ref has %s commits", n)
	}

	plain := t.TempDir()
	os.MkdirAll(filepath.Join(plain, ".gitwarrant"), 0o755)
	rp := openT(t, &project.Project{Dir: filepath.Join(plain, ".gitwarrant"), Root: plain})
	for i := 0; i < 3; i++ {
		if _, err := rp.Append(note("x")); err != nil {
			t.Fatal(err)
		}
	}
	v, err := rp.Verify()
	if err != nil || !v.OK() || len(v.Chains) != 1 || v.Chains[0].Entries != 3 || filepath.Base(v.Chains[0].Path) != "local.jsonl" {
		t.Fatalf("outside git: %v %+v", err, v)
	}
	if _, err := os.Stat(filepath.Join(plain, ".git")); err == nil {
		t.Fatal("a .git appeared outside git")
	}
}

func TestDocketRecordIsOneMoreChain(t *testing.T) {
	_, p := newRepo(t)
	r := openT(t, p)
	r.Append(note("one"))
	// A docket-style chain at record.jsonl, written by the chain package.
	legacy := p.LegacyRecord()
	writeChain(t, legacy, 2)
	srcs, err := r.Sources()
	if err != nil || len(srcs) != 2 || srcs[1].Path != ".gitwarrant/record.jsonl" {
		t.Fatalf("chains %+v %v", srcs, err)
	}
	es, err := r.Entries()
	if err != nil || len(es) != 3 {
		t.Fatalf("entries %d %v", len(es), err)
	}
	if v, err := r.Verify(); err != nil || !v.OK() {
		t.Fatalf("verify %v %+v", err, v)
	}
}
