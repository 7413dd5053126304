package loops

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
)

// cacheLoop is a loop with natural-language and typed entries, extending
// base. Both versions of a test file have the same length, so nothing but
// the bytes tells them apart.
func cacheLoop(draft string) []byte {
	return []byte(loopText("job", "extends: base\nwarrant:\n  read: [policy documents, Read(docs/**)]\n  draft: ["+draft+"]\n  change: [Edit(src/**)]\n  ask: [Bash(git push *)]\n"))
}

func baseLoop(never string) []byte {
	return []byte(loopText("base", "abstract: true\nwarrant:\n  never: ["+never+", Bash(rm -rf *)]\n"))
}

// replace writes data to path by rename, so a concurrent reader sees the
// old file or the new one, never half of one.
func replace(t testing.TB, path string, data []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func cacheDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "base"+FileSuffix), baseLoop("wire transfers"))
	writeFile(t, filepath.Join(dir, "job"+FileSuffix), cacheLoop("appeal letter"))
	return dir
}

// mustEqualFresh fails unless got is, field for field, what an uncached
// load of the same file gives now.
func mustEqualFresh(t *testing.T, dir string, got *Loop) {
	t.Helper()
	want, err := LoadByName(dir, got.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cached %s differs from a fresh load:\n got %+v\nwant %+v", got.Name, got, want)
	}
}

func TestCacheReusesOnlyIdenticalBytes(t *testing.T) {
	dir := cacheDir(t)
	c := NewCache()
	a, err := c.LoadByName(dir, "job")
	if err != nil {
		t.Fatal(err)
	}
	mustEqualFresh(t, dir, a)
	b, _ := c.LoadByName(dir, "job")
	if a != b || c.Typed(a) != c.Typed(b) {
		t.Fatal("the same bytes were parsed, merged or compiled twice")
	}
	// Rewritten with the same bytes (a new inode, a new mtime): still the
	// same parse, since only the bytes decide.
	replace(t, filepath.Join(dir, "job"+FileSuffix), cacheLoop("appeal letter"))
	if again, _ := c.LoadByName(dir, "job"); again != a {
		t.Fatal("identical bytes in a rewritten file were parsed again")
	}
	// A loop the cache did not return gets its typed entries compiled
	// afresh, never another loop's.
	other, _ := LoadByName(dir, "job")
	if c.Typed(other) == c.Typed(a) {
		t.Fatal("Typed reused a compile for a loop the cache did not return")
	}
}

// TestCacheSeesEditOnNextCall: an edit to the loop or to a loop it
// extends decides the very next call, with the file length unchanged.
func TestCacheSeesEditOnNextCall(t *testing.T) {
	dir := cacheDir(t)
	c := NewCache()
	job := filepath.Join(dir, "job"+FileSuffix)
	l, _ := c.LoadByName(dir, "job")
	if r := l.Check(Draft, "appeal letter"); r.Verdict != Allow {
		t.Fatalf("before the edit: %v", r)
	}
	writeFile(t, job, cacheLoop("appeal notes!")) // same length, in place
	l, _ = c.LoadByName(dir, "job")
	mustEqualFresh(t, dir, l)
	if r := l.Check(Draft, "appeal letter"); r.Verdict != Ask {
		t.Fatalf("after the loop's edit, draft appeal letter is %v, want ask", r)
	}
	// The parent: a new never entry reaches the child on the next call,
	// though the child's bytes did not change.
	if r := l.Check(Draft, "appeal notes"); r.Verdict != Allow {
		t.Fatalf("before the parent's edit: %v", r)
	}
	writeFile(t, filepath.Join(dir, "base"+FileSuffix), baseLoop("appeal  notes")) // same length
	l, _ = c.LoadByName(dir, "job")
	mustEqualFresh(t, dir, l)
	if r := l.Check(Draft, "appeal notes"); r.Verdict != Deny {
		t.Fatalf("after the parent's edit, draft appeal notes is %v, want deny", r)
	}
	// The typed entries follow the edit too.
	writeFile(t, job, []byte(strings.Replace(string(cacheLoop("appeal notes!")), "Edit(src/**)", "Edit(lib/**)", 1)))
	l, _ = c.LoadByName(dir, "job")
	if tw := c.Typed(l); len(tw.Allow) != 2 || tw.Allow[1].Text != "Edit(lib/**)" {
		t.Fatalf("typed entries after the edit: %+v", tw.Allow)
	}
}

// TestCacheKeepsFileRules: a cached parse never stands in for a file the
// rules refuse, even when the bytes are the same.
func TestCacheKeepsFileRules(t *testing.T) {
	dir := cacheDir(t)
	job := filepath.Join(dir, "job"+FileSuffix)
	data, _ := os.ReadFile(job)
	outside := filepath.Join(t.TempDir(), "job"+FileSuffix)
	writeFile(t, outside, data)
	cases := []struct {
		name  string
		setup func()
		want  string
	}{
		{"symlink to the same bytes", func() {
			os.Remove(job)
			if err := os.Symlink(outside, job); err != nil {
				t.Skipf("symlinks unavailable: %v", err)
			}
		}, "symbolic link"},
		{"over the size limit", func() { writeFile(t, job, append(data, make([]byte, MaxFileSize)...)) }, "over the 204800-byte limit"},
		{"removed", func() { os.Remove(job) }, "no loop named job"},
		{"parent symlinked", func() {
			base := filepath.Join(dir, "base"+FileSuffix)
			copyOf := filepath.Join(t.TempDir(), "base"+FileSuffix)
			writeFile(t, copyOf, baseLoop("wire transfers"))
			os.Remove(base)
			if err := os.Symlink(copyOf, base); err != nil {
				t.Skipf("symlinks unavailable: %v", err)
			}
		}, "symbolic link"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCache()
			os.Remove(job)
			writeFile(t, job, data)
			os.Remove(filepath.Join(dir, "base"+FileSuffix))
			writeFile(t, filepath.Join(dir, "base"+FileSuffix), baseLoop("wire transfers"))
			if _, err := c.LoadByName(dir, "job"); err != nil {
				t.Fatal(err)
			}
			tc.setup()
			_, err := c.LoadByName(dir, "job")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("LoadByName = %v, want an error saying %q", err, tc.want)
			}
			// LoadDir refuses it as well, or (removed) no longer lists it.
			ls, errs := c.LoadDir(dir)
			for _, l := range ls {
				if l.Name == "job" {
					t.Fatalf("LoadDir returned job (errors %v)", errs)
				}
			}
		})
	}
}

// TestCacheConcurrentCallersShareImmutableLoops runs loaders and the
// readers of a loop (Check, Natural, typed compile and matching, route
// words) at once while the files change, under -race; every loop returned
// is the fresh parse of one of the versions, and stays so after every
// reader has used it.
func TestCacheConcurrentCallersShareImmutableLoops(t *testing.T) {
	dir := cacheDir(t)
	job := filepath.Join(dir, "job"+FileSuffix)
	versions := [][]byte{cacheLoop("appeal letter"), cacheLoop("appeal notes!")}
	var fresh []*Loop
	for _, v := range versions {
		replace(t, job, v)
		l, err := LoadByName(dir, "job")
		if err != nil {
			t.Fatal(err)
		}
		fresh = append(fresh, l)
	}
	c := NewCache()
	var (
		mu   sync.Mutex
		seen []*Loop
		wg   sync.WaitGroup
		stop = make(chan struct{})
	)
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			replace(t, job, versions[i%2])
		}
	})
	var readers sync.WaitGroup
	for g := range 8 {
		readers.Go(func() {
			for i := range 150 {
				var l *Loop
				var err error
				if g%2 == 0 {
					ls, errs := c.LoadDir(dir)
					if len(errs) > 0 {
						err = errs[0]
					} else {
						l = ls[1]
					}
				} else {
					l, err = c.LoadByName(dir, "job")
				}
				if err != nil {
					// A rename between Lstat and Open is refused, as
					// it must be; anything else is a failure.
					if !strings.Contains(err.Error(), "changed while it was being opened") {
						t.Error(err)
						return
					}
					continue
				}
				useLoop(c, l, i)
				mu.Lock()
				seen = append(seen, l)
				mu.Unlock()
			}
		})
	}
	readers.Wait()
	close(stop)
	wg.Wait()
	for _, l := range seen {
		if !reflect.DeepEqual(l, fresh[0]) && !reflect.DeepEqual(l, fresh[1]) {
			t.Fatalf("a shared loop was changed by its readers or is not a fresh parse: %+v", l)
		}
	}
}

// useLoop reads l every way the gate and the tools do.
func useLoop(c *Cache, l *Loop, i int) {
	l.Check(Draft, fmt.Sprintf("appeal letter %d", i))
	l.Check(Change, "wire transfers; appeal notes")
	l.Warrant.Natural()
	tw := c.Typed(l)
	tw.Allowing(Call{Kind: ToolEdit, Path: FilePath{Abs: "/r/src/x.go", Root: "/r", Home: "/h"}})
	tw.Allowing(Call{Kind: ToolRead, Path: FilePath{Abs: "/r/docs/a.md", Root: "/r", Home: "/h"}})
	tw.Escalating(Call{Kind: ToolBash, Cmd: Command{Argv: []Arg{{Text: "rm"}, {Text: "-rf"}, {Text: "/"}}}})
	tw.Escalating(Call{Kind: ToolBash, Cmd: Command{Argv: []Arg{{Text: "git"}, {Text: "push"}, {Text: "origin"}}}})
	l.Warrant.TypedIn()
	ContentWords(l.Description + l.Goal)
}

func TestNilCacheIsUncached(t *testing.T) {
	dir := cacheDir(t)
	var c *Cache
	a, err := c.LoadByName(dir, "job")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.LoadByName(dir, "job")
	if a == b {
		t.Fatal("a nil cache returned the same loop twice")
	}
	if c.Typed(a) == c.Typed(a) {
		t.Fatal("a nil cache kept a typed compile")
	}
	if _, err := c.LoadByName(dir, "../job"); err == nil || !errors.As(err, new(*Error)) {
		t.Fatalf("LoadByName(../job) = %v", err)
	}
}

// TestReadAllReadsToTheEnd: the pre-sized read returns exactly the bytes
// there are, whether the file grew or shrank after it was sized, and never
// more than the limit allows.
func TestReadAllReadsToTheEnd(t *testing.T) {
	for _, tc := range []struct {
		n, size, limit int
	}{{0, 0, 10}, {5, 5, 10}, {700, 5, 1000}, {5, 700, 1000}, {3000, 100, 1000}, {1000, 1000, 1000}} {
		src := strings.Repeat("x", tc.n)
		got, err := readAll(io.LimitReader(iotest.OneByteReader(strings.NewReader(src)), int64(tc.limit)), int64(tc.size))
		want := src[:min(tc.n, tc.limit)]
		if err != nil || string(got) != want {
			t.Errorf("readAll(%d bytes, sized %d, limit %d) = %d bytes, %v; want %d", tc.n, tc.size, tc.limit, len(got), err, len(want))
		}
	}
}
