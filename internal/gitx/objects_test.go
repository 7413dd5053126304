package gitx

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// newRepo makes a real repository with one commit and discovers it.
func newRepo(t *testing.T) *Repo {
	t.Helper()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "add", "a.txt")
	run(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init")
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Objects written here are the objects Git would write: same ids, and
// `git cat-file` and `git fsck` accept them.
func TestWriteObjectMatchesGit(t *testing.T) {
	r := newRepo(t)
	data := []byte("{\"seq\":1}\n")
	h, err := r.writeObject(typeBlob, data)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "hash-object", "--stdin")
	cmd.Stdin = bytes.NewReader(data)
	want, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if h.String() != strings.TrimSpace(string(want)) {
		t.Fatalf("blob id %s, git says %s", h, want)
	}
	if got := run(t, r.WorkTree, "cat-file", "blob", h.String()); got+"\n" != string(data) {
		t.Fatalf("git cat-file blob = %q", got)
	}
	if _, err := r.writeObject(typeBlob, data); err != nil {
		t.Fatalf("rewriting an existing (read-only) object: %v", err)
	}
	tree, err := r.writeTree(map[string]plumbing.Hash{"000000.jsonl": h}, modeFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, r.WorkTree, "ls-tree", tree.String()); !strings.Contains(got, "100644 blob "+h.String()+"\t000000.jsonl") {
		t.Fatalf("git ls-tree = %q", got)
	}
	run(t, r.WorkTree, "fsck", "--strict", "--no-dangling")
}

// A record ref written here survives `git gc` (objects move to a pack)
// and is read back from the pack; an append after gc writes loose objects
// on top of packed ones.
func TestChainRefAcrossGC(t *testing.T) {
	r := newRepo(t)
	ref := RecordRef("main-test")
	c := &ChainRef{Name: ref}
	var want bytes.Buffer
	for i := 0; i < SegmentLines+3; i++ {
		line := []byte(strings.Repeat("x", i%7) + "\n")
		want.Write(line)
		seg, _, err := r.LastSegment(c)
		if err != nil {
			t.Fatal(err)
		}
		c, err = r.AppendChain(c, seg, ChainCommit{Chain: "rec.jsonl", Lines: [][]byte{line}, Head: "h", Subject: "s",
			Author: Identity{Name: "t", Email: "t@example.com"}, When: time.Unix(1700000000, 0).UTC()})
		if err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
		if i == SegmentLines {
			run(t, r.WorkTree, "gc", "-q", "--prune=now")
			if m, _ := filepath.Glob(filepath.Join(r.CommonDir, "objects", "??", "*")); len(m) != 0 {
				t.Fatalf("gc left loose objects: %v", m)
			}
			r, _ = Discover(r.WorkTree) // a fresh process sees only the pack
			if c, err = r.ReadChainRef(ref); err != nil {
				t.Fatal(err)
			}
		}
	}
	var got bytes.Buffer
	if err := r.ChainContent(c, &got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("chain content after gc differs (%d vs %d bytes)", got.Len(), want.Len())
	}
	var viaGit bytes.Buffer
	for _, p := range strings.Fields(run(t, r.WorkTree, "ls-tree", "-r", "--name-only", ref)) {
		cmd := exec.Command("git", "cat-file", "blob", ref+":"+p)
		cmd.Dir = r.WorkTree
		b, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		viaGit.Write(b)
	}
	if !bytes.Equal(viaGit.Bytes(), want.Bytes()) {
		t.Fatal("git reads a different chain from the ref")
	}
	run(t, r.WorkTree, "fsck", "--strict", "--no-dangling")
}

// A corrupt loose object is an error, never silently different content.
func TestReadLooseDetectsCorruption(t *testing.T) {
	r := newRepo(t)
	h, err := r.writeObject(typeBlob, []byte("one\n"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := r.writeObject(typeBlob, []byte("two\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(r.objectPath(other))
	os.Chmod(r.objectPath(h), 0o644)
	if err := os.WriteFile(r.objectPath(h), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.readObject(h); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("reading a swapped object: err = %v, want a damaged-store error", err)
	}
}

// ConfigValue agrees with `git config --get` on the syntax people write.
func TestConfigValueMatchesGit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	cfg := "[core]\n\tbare = false\n[User]\n\tName = First\n" +
		"[user \"sub\"]\n\tname = Sub\n" +
		"[user]\n\tname = \"Ada  \\\"L\\\" Lovelace\" ; comment\n\temail = ada@example.com # trailing\n" +
		"[core] hooksPath = .githooks\n"
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, k := range [][2]string{{"user", "name"}, {"user", "email"}, {"core", "hooksPath"}, {"core", "bare"}, {"core", "missing"}} {
		cmd := exec.Command("git", "config", "-f", path, "--get", k[0]+"."+k[1])
		out, _ := cmd.Output()
		want := strings.TrimSuffix(string(out), "\n")
		if got := ConfigValue(path, k[0], k[1]); got != want {
			t.Errorf("%s.%s = %q, git says %q", k[0], k[1], got, want)
		}
	}
}
