package warrantdiff

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/go-git/go-git/v5/plumbing"
)

// memStore is a loops.Store in memory, counting what is written to it;
// safe for the diff's parallel workers.
type memStore struct {
	mu   sync.Mutex
	m    map[string][]byte
	puts int
}

func newMemStore() *memStore { return &memStore{m: map[string][]byte{}} }

func (s *memStore) key(path string, sum [32]byte) string { return fmt.Sprintf("%s\x00%x", path, sum) }
func (s *memStore) Get(path string, sum [32]byte) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[s.key(path, sum)]
}
func (s *memStore) Put(path string, sum [32]byte, enc []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.puts++
	s.m[s.key(path, sum)] = append([]byte(nil), enc...)
}

// cacheRepo is a repository whose base and head differ in a parent's
// file (so every child inherits a widening) and in one child's own file,
// with loops that no diff needs to parse beside them.
func cacheRepo(t *testing.T) *gitx.Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	repo := t.TempDir()
	run(t, repo, "git", "init", "-q", "-b", "main")
	write := func(name, s string) {
		p := filepath.Join(repo, ".gitwarrant", "loops", name+loops.FileSuffix)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	loop := func(name, extends, send string) string {
		s := "---\nname: " + name + "\n"
		if extends != "" {
			s += "extends: " + extends + "\n"
		}
		return s + "warrant:\n  send: [" + send + "]\n  never: [secrets]\n---\n# Brief\n"
	}
	write("parent", loop("parent", "", "status updates"))
	write("child", loop("child", "parent", "release notes"))
	write("grandchild", loop("grandchild", "child", "a summary"))
	write("edited", loop("edited", "", "a digest"))
	for i := range 10 {
		write(fmt.Sprintf("other-%d", i), loop(fmt.Sprintf("other-%d", i), "parent", "note "+fmt.Sprint(i)))
	}
	run(t, repo, "git", "add", "-A")
	run(t, repo, "git", "commit", "-q", "-m", "base")
	run(t, repo, "git", "tag", "base")
	write("parent", loop("parent", "", "status updates, pushes to main"))
	write("edited", loop("edited", "child", "a digest"))
	run(t, repo, "git", "add", "-A")
	run(t, repo, "git", "commit", "-q", "-m", "head")
	run(t, repo, "git", "tag", "head")
	r, err := gitx.Open(repo)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func diffWith(t *testing.T, r *gitx.Repo, store loops.Store) []Change {
	t.Helper()
	res, err := Run(r, ".gitwarrant", "", "base", "head", store)
	if err != nil {
		t.Fatal(err)
	}
	return res.Changes
}

// The store changes no change: the first diff (every entry missing) and
// the second (every parse and both trees' parents found) equal the diff
// without a store, and the second neither parses nor reads the unchanged
// loops again.
func TestStoreKeepsTheDiff(t *testing.T) {
	r := cacheRepo(t)
	want := diffWith(t, r, nil)
	if len(want) == 0 {
		t.Fatal("the fixture changes nothing")
	}
	s := newMemStore()
	if got := diffWith(t, r, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("first diff through the store:\n%v\nwant\n%v", got, want)
	}
	// parent changed, so all 14 loops are compared through it, at both
	// sides; and the 2 trees' parents
	if len(s.m) != 30 {
		t.Fatalf("the store holds %d entries, want 30 (28 parses, 2 trees)", len(s.m))
	}
	puts := s.puts
	if got := diffWith(t, r, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("second diff through the store:\n%v\nwant\n%v", got, want)
	}
	if s.puts != puts {
		t.Fatalf("the second diff wrote %d entries again", s.puts-puts)
	}
}

// treeOf is the loops tree id at rev.
func treeOf(t *testing.T, r *gitx.Repo, rev string) plumbing.Hash {
	t.Helper()
	c, err := r.ResolveCommit(rev)
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.TreeAt(c, ".gitwarrant/loops")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Entries that are not the tree's own are misses: another tree's valid
// entry copied under this tree's key, garbage, an entry cut short, one
// whose parent is no loop name, one naming blob ids the tree does not
// hold. Each time the diff is the one without a store.
func TestParentsEntryOfAnotherTreeIsAMiss(t *testing.T) {
	r := cacheRepo(t)
	want := diffWith(t, r, nil)
	bt, ht := treeOf(t, r, "base"), treeOf(t, r, "head")
	s := newMemStore()
	diffWith(t, r, s)
	baseEntry := s.m[s.key(parentsName, parentsKey(bt))]
	headEntry := s.m[s.key(parentsName, parentsKey(ht))]
	if baseEntry == nil || headEntry == nil {
		t.Fatal("no parents entries were written")
	}
	// a wrong parent for every loop, in the form of a valid entry
	forged := func(tree plumbing.Hash, entry []byte) []byte {
		var b strings.Builder
		lines := strings.Split(strings.TrimSuffix(string(entry), "\n"), "\n")
		b.WriteString("tree " + tree.String() + "\n")
		for _, l := range lines[1:] {
			id, _, _ := strings.Cut(l, " ")
			b.WriteString(id + " other-3\n")
		}
		return []byte(b.String())
	}
	for name, enc := range map[string][]byte{
		"base's entry under head's key":           baseEntry,
		"another tree's forged entry":             forged(bt, headEntry),
		"garbage":                                 []byte("\x00\x01 not an entry"),
		"cut short":                               headEntry[:len(headEntry)-3],
		"a parent that is no loop name":           []byte(strings.Replace(string(headEntry), " parent\n", " Parent\n", 1)),
		"blob ids of no tree, then a broken line": []byte("tree " + ht.String() + "\n" + strings.Repeat("ab", 20) + " parent\nbroken"),
		"upper-case blob ids":                     []byte(strings.ToUpper(string(headEntry))),
	} {
		s := newMemStore()
		s.m[s.key(parentsName, parentsKey(ht))] = enc
		if got := diffWith(t, r, s); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the diff changed:\n%v\nwant\n%v", name, got, want)
		}
	}
}

// A file the diff parses takes its parent from the parse, whatever the
// tree's entry says: only unchanged files are answered from it.
func TestParsedFileOverridesTheParentsEntry(t *testing.T) {
	r := cacheRepo(t)
	want := diffWith(t, r, nil)
	ht := treeOf(t, r, "head")
	s := newMemStore()
	diffWith(t, r, s)
	entry := string(s.m[s.key(parentsName, parentsKey(ht))])
	head, err := FromRev(r, ".gitwarrant", "head")
	if err != nil {
		t.Fatal(err)
	}
	// `edited` changed (it now extends child): its entry says it extends
	// nothing
	id := head.blobs["edited"]
	lied := strings.Replace(entry, id+" child\n", id+" \n", 1)
	if lied == entry {
		t.Fatalf("the entry does not name edited's parent:\n%s", entry)
	}
	s.m[s.key(parentsName, parentsKey(ht))] = []byte(lied)
	if got := diffWith(t, r, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("the diff changed:\n%v\nwant\n%v", got, want)
	}
}
