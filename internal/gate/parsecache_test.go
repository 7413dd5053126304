package gate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/parsecache"
)

// The parse cache kept across hook processes (docs/performance.md#the-parse-cache)
// must never change a decision: these attacks plant, swap and break its
// entries and its folder, and every decision must stay the one the loop
// file's bytes give. Each Decide opens the store afresh, as a new hook
// process does.

const (
	narrowLoop = "---\nname: fix\ndescription: fix a bug\nversion: 1\nwarrant:\n  read: [Bash(git log *)]\n  send: [Bash(git push origin fix/*)]\n  ask: [Bash(git push origin release/*)]\n---\n# Brief\n\nx\n"
	wideLoop   = "---\nname: fix\ndescription: fix a bug\nversion: 1\nwarrant:\n  read: [Bash(git log *)]\n  send: [Bash(git push origin fix/*), Bash(git push origin release/*)]\n---\n# Brief\n\nx\n"
)

type cacheRepo struct {
	t          *testing.T
	root, file string
	store      string // the store's folder
	push       []byte // the payload of the push the two versions decide apart
}

func newCacheRepo(t *testing.T) *cacheRepo {
	root, dir := newLoopsRepo(t)
	push, _ := json.Marshal(map[string]any{"cwd": root, "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "git push origin release/1.0"}})
	r := &cacheRepo{t: t, root: root, file: filepath.Join(dir, "fix.loop.md"), store: parsecache.Dir(filepath.Join(root, ".git")), push: push}
	r.write(narrowLoop)
	return r
}

func (r *cacheRepo) write(loop string) {
	r.t.Helper()
	if err := os.WriteFile(r.file, []byte(loop), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// decide is one hook process's decision on the push; cached says
// whether it may use the kept parses.
func (r *cacheRepo) decide(cached bool) Answer {
	env := Env{Getenv: func(string) string { return "" }, Cwd: r.root, Allower: TypedAllower}
	if cached {
		env.ParseStore = parsecache.Open
	}
	return Decide(context.Background(), env, Options{Loop: "fix", NoRecord: true}, r.push, nil)
}

// want fails unless the call gets v, with and without the cache.
func (r *cacheRepo) want(what string, v loops.Verdict) {
	r.t.Helper()
	if a := r.decide(false); a.Verdict != v {
		r.t.Fatalf("%s, uncached: %s (%s), want %s", what, a.Verdict, a.Rule, v)
	}
	if a := r.decide(true); a.Verdict != v {
		r.t.Fatalf("%s, cached: %s (%s), want %s", what, a.Verdict, a.Rule, v)
	}
}

// entries lists the store's entry files.
func (r *cacheRepo) entries() map[string]bool {
	r.t.Helper()
	ents, _ := os.ReadDir(r.store)
	out := map[string]bool{}
	for _, e := range ents {
		out[e.Name()] = true
	}
	return out
}

// entryFor decides under loop and returns the name of the entry that
// made (the one entry new since).
func (r *cacheRepo) entryFor(loop string) string {
	r.t.Helper()
	before := r.entries()
	r.write(loop)
	r.decide(true)
	for n := range r.entries() {
		if !before[n] {
			return n
		}
	}
	r.t.Fatal("no entry was written")
	return ""
}

func (r *cacheRepo) copyEntry(from, to string) {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.store, from))
	if err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.store, to), b, 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func TestParseCacheEditInvalidates(t *testing.T) {
	r := newCacheRepo(t)
	r.want("narrow", loops.Ask)
	r.want("narrow, warm", loops.Ask)
	r.write(wideLoop)
	r.want("widened by a signed-off edit", loops.Allow)
	r.write(narrowLoop)
	r.want("narrowed again", loops.Ask)
	if len(r.entries()) != 2 {
		t.Fatalf("want one entry per version of the bytes, got %d", len(r.entries()))
	}
}

// TestParseCachePoisonedEntry: the wide version's entry (a valid
// encoding, of other bytes) copied under the narrow version's name, and
// every entry written over with another's, never widens the narrow loop.
func TestParseCachePoisonedEntry(t *testing.T) {
	r := newCacheRepo(t)
	narrow := r.entryFor(narrowLoop)
	wide := r.entryFor(wideLoop)
	r.write(narrowLoop)
	r.copyEntry(wide, narrow)
	r.want("the wide entry under the narrow name", loops.Ask)
	// An entry of another loop file with the very same bytes (another
	// path) under this one's name.
	other := filepath.Join(filepath.Dir(r.file), "other.loop.md")
	if err := os.WriteFile(other, []byte(strings.Replace(wideLoop, "name: fix", "name: other", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{Getenv: func(string) string { return "" }, Cwd: r.root, Allower: TypedAllower, ParseStore: parsecache.Open}
	before := r.entries()
	Decide(context.Background(), env, Options{Loop: "other", NoRecord: true}, r.push, nil)
	for n := range r.entries() {
		if !before[n] {
			r.copyEntry(n, narrow)
		}
	}
	r.want("another loop's entry under the narrow name", loops.Ask)
	// Garbage, and an empty file.
	for _, junk := range []string{"", "gitwarrant parse cache 1\n", "not an entry at all"} {
		if err := os.WriteFile(filepath.Join(r.store, narrow), []byte(junk), 0o644); err != nil {
			t.Fatal(err)
		}
		r.want("a damaged entry", loops.Ask)
	}
}

// TestParseCacheLinkedFolder: an entry forged for the narrow bytes (its
// header names them, its body is the wide parse) is trusted where the
// git dir keeps it — the same trust as the record's refs and the session
// pins beside it, which the gate and the sandbox keep the agent from
// writing — but never read through a symbolic link, which could lead to
// a folder the agent may write.
func TestParseCacheLinkedFolder(t *testing.T) {
	r := newCacheRepo(t)
	narrow := r.entryFor(narrowLoop)
	forged := forgeEntry(t, r, narrow)
	r.write(narrowLoop)
	if a := r.decide(true); a.Verdict != loops.Allow {
		t.Fatalf("the forged entry in place: %s; the test no longer plants what it means to", a.Verdict)
	}
	elsewhere := filepath.Join(t.TempDir(), "parse")
	if err := os.Rename(r.store, elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, r.store); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(r.store, narrow)); err != nil || string(b) != string(forged) {
		t.Fatal("the forged entry is not reachable through the link")
	}
	r.want("the forged entry through a linked folder", loops.Ask)
}

// forgeEntry keeps, as the narrow version's parse, the wide version's
// parse labelled with the narrow version's bytes; it returns the file.
func forgeEntry(t *testing.T, r *cacheRepo, name string) []byte {
	t.Helper()
	wide, err := loops.Parse(r.file, []byte(wideLoop))
	if err != nil {
		t.Fatal(err)
	}
	sum := loops.ParseSum([]byte(narrowLoop))
	parsecache.Open(filepath.Join(r.root, ".git")).Put(r.file, sum, loops.EncodeParsed(wide, sum))
	b, err := os.ReadFile(filepath.Join(r.store, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseCacheUnusableFolder: a store that cannot be read or written
// (a file where the folder goes; a folder without permissions) only
// means every process parses.
func TestParseCacheUnusableFolder(t *testing.T) {
	r := newCacheRepo(t)
	if err := os.MkdirAll(filepath.Dir(r.store), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.store, []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.want("narrow, no folder", loops.Ask)
	r.write(wideLoop)
	r.want("wide, no folder", loops.Allow)
	os.Remove(r.store)
	r.write(narrowLoop)
	r.want("narrow, warm", loops.Ask)
	if err := os.Chmod(r.store, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(r.store, 0o755)
	r.want("narrow, an unreadable folder", loops.Ask)
	r.write(wideLoop)
	r.want("wide, an unreadable folder", loops.Allow)
}
