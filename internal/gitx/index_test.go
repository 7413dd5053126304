package gitx

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddTrailersMatchesGit holds the in-process trailer placement to `git
// interpret-trailers` on every message shape it accepts, and checks it
// declines the shapes it must leave to Git.
func TestAddTrailersMatchesGit(t *testing.T) {
	dir := t.TempDir()
	add := []string{"Warrant-Head: .gitwarrant/record/main-1/ sha256:ab", "Warrant-Head: .gitwarrant/record.jsonl sha256:cd"}
	accept := []string{
		"small\n",
		"small\n\n\n",
		"small\n# Please enter the commit message\n#\n",
		"subj\n\nbody line\nmore body\n",
		"subj\n\nbody\n\nSigned-off-by: a <b@c>\n",
		"subj\n\nFoo: bar\n\n# comment\n",
		"subj\n\nFoo: bar\n" + scissorsLine + "diff --git a/x b/x\n+Foo: baz\n",
		"subj\n\nWarrant-Head: .gitwarrant/record/main-1/ sha256:ab\n",
		"subj\nsecond title line\n\nCo-authored-by: x <y@z>\nReviewed-by: q\n\n# c\n\n",
		"subj: with a colon\n",
	}
	decline := []string{
		"small",
		"\n# only a comment\n",
		"subj\n\nbody\n---\nnotes\n",
		"subj\n\nsee http://example.com\nFoo: bar\n",
		"subj\n\nFoo: bar\n  continued\n",
		"subj\n# inside\nbody\n",
		"subj\r\n",
	}
	for _, msg := range accept {
		got, ok := addTrailers(msg, add)
		if !ok {
			t.Errorf("%q: declined, want handled", msg)
			continue
		}
		if want := gitTrailers(t, dir, msg, add); got != want {
			t.Errorf("%q:\n got %q\nwant %q (git interpret-trailers)", msg, got, want)
		}
	}
	for _, msg := range decline {
		if got, ok := addTrailers(msg, add); ok {
			t.Errorf("%q: handled as %q, want it left to git", msg, got)
		}
	}
}

func gitTrailers(t *testing.T, dir, msg string, add []string) string {
	t.Helper()
	f := filepath.Join(dir, "msg")
	if err := os.WriteFile(f, []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"interpret-trailers", "--in-place", "--if-exists", "addIfDifferent"}
	for _, a := range add {
		args = append(args, "--trailer", a)
	}
	cmd := exec.Command("git", append(args, f)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestIndexRoundTrip reads Git's index, writes it back unchanged and has
// Git find it identical; then stages a file in process and has Git agree
// that the file is staged and the work tree clean.
func TestIndexRoundTrip(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			r := newRepo(t)
			run(t, r.WorkTree, "update-index", "--index-version", version)
			os.MkdirAll(filepath.Join(r.WorkTree, "d/e"), 0o755)
			for _, f := range []string{"d/e/one.txt", "d/two.txt", "z.txt"} {
				os.WriteFile(filepath.Join(r.WorkTree, f), []byte(f+"\n"), 0o644)
			}
			run(t, r.WorkTree, "add", "-A")
			run(t, r.WorkTree, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "two")
			run(t, r.WorkTree, "update-index", "--index-version", version) // keeps extended flags on v3
			before, _ := os.ReadFile(r.IndexPath())
			ix, err := r.ReadIndex()
			if err != nil {
				t.Fatal(err)
			}
			if err := ix.Write(); err != nil {
				t.Fatal(err)
			}
			if got := run(t, r.WorkTree, "status", "--porcelain"); got != "" {
				t.Fatalf("after a round trip, git status says:\n%s", got)
			}
			after, _ := os.ReadFile(r.IndexPath())
			if len(after) > len(before) {
				t.Errorf("round trip grew the index from %d to %d bytes", len(before), len(after))
			}
			path := filepath.Join(r.WorkTree, "d/e/new.txt")
			os.WriteFile(path, []byte("new\n"), 0o644)
			os.Remove(filepath.Join(r.WorkTree, "d/two.txt"))
			ix, err = r.ReadIndex()
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Stage(ix, "d/e/new.txt", path, []byte("new\n")); err != nil {
				t.Fatal(err)
			}
			ix.Remove("d/two.txt")
			if err := ix.Write(); err != nil {
				t.Fatal(err)
			}
			got := run(t, r.WorkTree, "status", "--porcelain")
			if want := "A  d/e/new.txt\nD  d/two.txt"; got != want {
				t.Fatalf("git status after staging in process:\n%s\nwant:\n%s", got, want)
			}
			run(t, r.WorkTree, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "three")
			if got := run(t, r.WorkTree, "ls-tree", "-r", "--name-only", "HEAD"); got != "a.txt\nd/e/new.txt\nd/e/one.txt\nz.txt" {
				t.Fatalf("committed tree:\n%s", got)
			}
			run(t, r.WorkTree, "fsck", "--no-progress")
		})
	}
}

// TestIndexFallback: a split index is left to Git.
func TestIndexFallback(t *testing.T) {
	r := newRepo(t)
	run(t, r.WorkTree, "update-index", "--split-index")
	if _, err := r.ReadIndex(); err != ErrIndexFallback {
		t.Fatalf("split index: err %v, want ErrIndexFallback", err)
	}
}

// TestIndexClean: Git's stat test, and content when stat differs.
func TestIndexClean(t *testing.T) {
	r := newRepo(t)
	path := filepath.Join(r.WorkTree, "a.txt")
	run(t, r.WorkTree, "update-index", "--refresh")
	ix, _ := r.ReadIndex()
	e := ix.Find("a.txt")
	if clean, ok := ix.Clean(e, path); !clean || !ok {
		t.Fatalf("untouched file: clean %v ok %v", clean, ok)
	}
	os.WriteFile(path, []byte("hellO\n"), 0o644)
	if clean, ok := ix.Clean(e, path); clean || !ok {
		t.Fatalf("edited file (same size): clean %v ok %v", clean, ok)
	}
	os.WriteFile(path, []byte("hello\n"), 0o644)
	if clean, ok := ix.Clean(e, path); !clean || !ok {
		t.Fatalf("restored content, new stat: clean %v ok %v", clean, ok)
	}
	os.Remove(path)
	if clean, ok := ix.Clean(e, path); clean || !ok {
		t.Fatalf("deleted file: clean %v ok %v", clean, ok)
	}
}

// TestCachedTreeIsGits: the cache-tree node the index holds for a folder
// is valid exactly when Git would commit it without recomputing it, and
// then it is the tree Git writes (`git write-tree`, HEAD after a commit);
// staging a file, by Git or in process, invalidates the nodes on its way
// and only those; a folder the cache-tree does not hold is not found.
func TestCachedTreeIsGits(t *testing.T) {
	r := newRepo(t)
	for _, f := range []string{"d/e/one.txt", "d/two.txt", "d/f/three.txt", "x/y.txt", "z.txt"} {
		os.MkdirAll(filepath.Join(r.WorkTree, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(r.WorkTree, f), []byte(f+"\n"), 0o644)
	}
	run(t, r.WorkTree, "add", "-A")
	run(t, r.WorkTree, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "tree")
	dirs := []string{"", "d", "d/e", "d/f", "x"}
	cached := func(dir string) (string, bool) {
		t.Helper()
		ix, err := r.ReadIndex()
		if err != nil {
			t.Fatal(err)
		}
		id, ok := ix.CachedTree(dir)
		return id.String(), ok
	}
	for _, d := range dirs {
		want := run(t, r.WorkTree, "rev-parse", "HEAD:"+d)
		if got, ok := cached(d); !ok || got != want {
			t.Fatalf("after a commit, %q: cached %s %v, HEAD holds %s", d, got, ok, want)
		}
	}
	for _, d := range []string{"d/none", "nothing", "d/two.txt", "d/e/one.txt"} {
		if got, ok := cached(d); ok {
			t.Fatalf("%q is no folder of the cache-tree, found %s", d, got)
		}
	}

	os.WriteFile(filepath.Join(r.WorkTree, "d/e/one.txt"), []byte("changed\n"), 0o644)
	run(t, r.WorkTree, "add", "d/e/one.txt")
	for d, valid := range map[string]bool{"": false, "d": false, "d/e": false, "d/f": true, "x": true} {
		if _, ok := cached(d); ok != valid {
			t.Fatalf("after git add d/e/one.txt, %q valid: %v, want %v", d, ok, valid)
		}
	}
	root := run(t, r.WorkTree, "write-tree") // Git recomputes the invalid nodes
	for _, d := range dirs {
		want := run(t, r.WorkTree, "rev-parse", root+":"+d)
		if got, ok := cached(d); !ok || got != want {
			t.Fatalf("after write-tree, %q: cached %s %v, Git wrote %s", d, got, ok, want)
		}
	}

	ix, err := r.ReadIndex()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(r.WorkTree, "x/new.txt")
	os.WriteFile(path, []byte("new\n"), 0o644)
	if err := r.Stage(ix, "x/new.txt", path, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if err := ix.Write(); err != nil {
		t.Fatal(err)
	}
	for d, valid := range map[string]bool{"": false, "d": true, "d/e": true, "x": false} {
		if _, ok := cached(d); ok != valid {
			t.Fatalf("after staging x/new.txt in process, %q valid: %v, want %v", d, ok, valid)
		}
	}
}
