package parsecache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var sumA, sumB = [32]byte{1}, [32]byte{2}

// TestAnotherBuildReadsNothing: entries are kept per build; an entry of
// one build, even renamed to another build's name for the same loop
// bytes, is never read by the other.
func TestAnotherBuildReadsNothing(t *testing.T) {
	common := t.TempDir()
	a, b := openBuild(common, "build-a"), openBuild(common, "build-b")
	a.Put("/r/x.loop.md", sumA, []byte("parse by a"))
	if got := a.Get("/r/x.loop.md", sumA); string(got) != "parse by a" {
		t.Fatalf("a's own entry: %q", got)
	}
	if got := b.Get("/r/x.loop.md", sumA); got != nil {
		t.Fatalf("build b read build a's entry: %q", got)
	}
	if err := os.Rename(a.entryPath("/r/x.loop.md", sumA), b.entryPath("/r/x.loop.md", sumA)); err != nil {
		t.Fatal(err)
	}
	if got := b.Get("/r/x.loop.md", sumA); got != nil {
		t.Fatalf("build b read build a's entry under its own name: %q", got)
	}
}

// TestEntriesAreKeyedByPathAndBytes: another path or other bytes find
// nothing.
func TestEntriesAreKeyedByPathAndBytes(t *testing.T) {
	s := openBuild(t.TempDir(), "b")
	s.Put("/r/x.loop.md", sumA, []byte("x"))
	for _, c := range []struct {
		path string
		sum  [32]byte
	}{{"/r/y.loop.md", sumA}, {"/r/x.loop.md", sumB}, {"/other/x.loop.md", sumA}} {
		if got := s.Get(c.path, c.sum); got != nil {
			t.Errorf("%s %x: read %q", c.path, c.sum[:1], got)
		}
	}
}

// TestALinkedFolderIsNotUsed: when gitwarrant/ or gitwarrant/parse/ is a
// symbolic link, nothing is read through it or written into it.
func TestALinkedFolderIsNotUsed(t *testing.T) {
	for _, linked := range []string{"gitwarrant", filepath.Join("gitwarrant", Folder)} {
		t.Run(linked, func(t *testing.T) {
			common, elsewhere := t.TempDir(), t.TempDir()
			planted := openBuild(elsewhere, "b")
			planted.Put("/r/x.loop.md", sumA, []byte("planted"))
			target := filepath.Join(elsewhere, linked)
			if err := os.MkdirAll(filepath.Dir(filepath.Join(common, linked)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(common, linked)); err != nil {
				t.Fatal(err)
			}
			s := openBuild(common, "b")
			if got := s.Get("/r/x.loop.md", sumA); got != nil {
				t.Fatalf("read %q through a link", got)
			}
			s.Put("/r/y.loop.md", sumA, []byte("new"))
			if got := openBuild(elsewhere, "b").Get("/r/y.loop.md", sumA); got != nil {
				t.Fatal("wrote through a link")
			}
		})
	}
}

// TestDamagedEntriesAreMisses: a truncated, oversized, foreign or
// non-regular entry reads as nothing.
func TestDamagedEntriesAreMisses(t *testing.T) {
	s := openBuild(t.TempDir(), "b")
	s.Put("/r/x.loop.md", sumA, []byte("x"))
	p := s.entryPath("/r/x.loop.md", sumA)
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func() error{
		"truncated": func() error { return os.WriteFile(p, header[:5], 0o644) },
		"no build":  func() error { return os.WriteFile(p, header, 0o644) },
		"oversized": func() error {
			return os.WriteFile(p, append(append(bytes.Clone(header), "b\n"...), make([]byte, maxEntrySize)...), 0o644)
		},
		"a folder": func() error { os.Remove(p); return os.Mkdir(p, 0o755) },
		"a byte changed": func() error {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b[len(b)-1] ^= 1
			return os.WriteFile(p, b, 0o644)
		},
	} {
		os.RemoveAll(p)
		if err := os.WriteFile(p, good, 0o644); err != nil {
			t.Fatal(err)
		}
		if name == "a folder" {
			os.Remove(p)
		}
		if err := write(); err != nil {
			t.Fatal(err)
		}
		if got := s.Get("/r/x.loop.md", sumA); got != nil {
			t.Errorf("%s: read %d bytes", name, len(got))
		}
	}
}

// TestPruneKeepsTheFolderBounded: past MaxEntries, the oldest go.
func TestPruneKeepsTheFolderBounded(t *testing.T) {
	s := openBuild(t.TempDir(), "b")
	for i := range MaxEntries + 1 {
		s.Put(fmt.Sprintf("/r/l%d.loop.md", i), sumA, []byte("x"))
	}
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) > MaxEntries/2+1 || len(ents) == 0 {
		t.Fatalf("%d entries after pruning, want at most %d", len(ents), MaxEntries/2+1)
	}
	if s.Get(fmt.Sprintf("/r/l%d.loop.md", MaxEntries), sumA) == nil {
		t.Fatal("the newest entry was pruned")
	}
}

// TestOpenWithoutGitDir: no git dir, no store.
func TestOpenWithoutGitDir(t *testing.T) {
	if s := Open(""); s != nil {
		t.Fatalf("Open(\"\") = %v", s)
	}
}
