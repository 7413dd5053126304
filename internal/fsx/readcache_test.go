package fsx

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// settled returns a ReadCache that trusts a file changed over 40 ms
// before its read, and waits that long so that what was just written has
// settled.
func settledCache(t *testing.T) *ReadCache {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("stamps are read on Linux only")
	}
	c := NewReadCache(1<<20, 16<<20)
	c.settle = 40 * time.Millisecond
	return c
}

func (c *ReadCache) opened() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads
}

func settle() { time.Sleep(60 * time.Millisecond) }

// TestReadCacheSeesEveryChange: once a settled file is kept, every way of
// changing what a path reads — in place at the same size with the
// modification time put back, a rename over it, a link retargeted, a
// removal — is read afresh on the very next read, and an unchanged file
// is not opened again.
func TestReadCacheSeesEveryChange(t *testing.T) {
	c := settledCache(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "HEAD")
	write := func(path, s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(want string) {
		t.Helper()
		b, err := c.ReadFile(p)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if string(b) != want {
			t.Fatalf("read %q, want %q", b, want)
		}
	}
	write(p, "ref: refs/heads/main\n")
	settle()
	read("ref: refs/heads/main\n")
	n := c.opened()
	read("ref: refs/heads/main\n")
	if c.opened() != n {
		t.Fatalf("an unchanged, settled file was opened again")
	}

	// Same size, same modification time: only the change time moves.
	fi, _ := os.Stat(p)
	write(p, "ref: refs/heads/prod\n")
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	read("ref: refs/heads/prod\n")

	// Changed within the settle time of its read: never trusted, so a
	// second same-size write right after is seen too.
	write(p, "ref: refs/heads/mine\n")
	read("ref: refs/heads/mine\n")
	write(p, "ref: refs/heads/evil\n")
	read("ref: refs/heads/evil\n")

	// Renamed over.
	settle()
	read("ref: refs/heads/evil\n")
	tmp := filepath.Join(dir, "HEAD.lock")
	write(tmp, "ref: refs/heads/next\n")
	settle()
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	read("ref: refs/heads/next\n")

	// A link retargeted at another settled file of the same size.
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	write(a, "ref: refs/heads/aaaa\n")
	write(b, "ref: refs/heads/bbbb\n")
	os.Remove(p)
	if err := os.Symlink(a, p); err != nil {
		t.Fatal(err)
	}
	settle()
	read("ref: refs/heads/aaaa\n")
	read("ref: refs/heads/aaaa\n")
	os.Remove(p)
	if err := os.Symlink(b, p); err != nil {
		t.Fatal(err)
	}
	read("ref: refs/heads/bbbb\n")

	// Removed.
	os.Remove(p)
	if _, err := c.ReadFile(p); !os.IsNotExist(err) {
		t.Fatalf("a removed file: %v", err)
	}
}

// TestReadCacheCopies: the bytes returned are the caller's: writing into
// them changes no later read.
func TestReadCacheCopies(t *testing.T) {
	c := settledCache(t)
	p := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(p, []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	settle()
	for range 3 {
		b, err := c.ReadFile(p)
		if err != nil || string(b) != "[core]\n" {
			t.Fatalf("read %q, %v", b, err)
		}
		copy(b, "XXXX")
		_ = append(b[:1], "YYYY"...)
	}
}

// TestReadCacheKeepsOnlySmallRegularSettledFiles: a file over the limit,
// one still changing, and a FIFO's path are never answered from memory.
func TestReadCacheKeepsOnlySmallRegularSettledFiles(t *testing.T) {
	c := settledCache(t)
	c.maxFile = 8
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, bytes.Repeat([]byte("x"), 9), 0o644); err != nil {
		t.Fatal(err)
	}
	settle()
	c.ReadFile(big)
	n := c.opened()
	c.ReadFile(big)
	if c.opened() == n {
		t.Errorf("a file over the limit was answered from memory")
	}
	fresh := filepath.Join(dir, "fresh")
	os.WriteFile(fresh, []byte("1"), 0o644)
	c.ReadFile(fresh)
	n = c.opened()
	c.ReadFile(fresh)
	if c.opened() == n {
		t.Errorf("a file changed just before its read was answered from memory")
	}
}
