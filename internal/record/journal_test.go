package record

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/project"
)

// The attacks on the server's journal (docs/record.md#the-journal): what a
// server answered is on the ref, or the record says it is not — never a
// changed journal committed as if it were what was answered.

// manualJournal is a server's journal whose commits the test makes.
func manualJournal() *Journal {
	return &Journal{states: map[string]*journalState{}, manual: true, Warn: &bytes.Buffer{}}
}

func jAppend(t testing.TB, j *Journal, p *project.Project, text string) chain.Entry {
	t.Helper()
	r, err := OpenUndrained(p)
	if err != nil {
		t.Fatal(err)
	}
	e, err := j.Append(r, note(text))
	if err != nil {
		t.Fatalf("journal append %q: %v", text, err)
	}
	return e
}

// refEntries is writer w's chain as its ref holds it.
func refEntries(t testing.TB, r *Record, w string) []chain.Entry {
	t.Helper()
	cr, err := r.repo.ReadChainRef(gitx.RecordRef(w))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if cr.Exists() {
		if err := r.repo.ChainContent(cr, &b); err != nil {
			t.Fatal(err)
		}
	}
	if rep := chain.Verify(bytes.NewReader(b.Bytes()), cr.Name); !rep.OK() {
		t.Fatalf("%s does not verify: %+v", cr.Name, rep.Break)
	}
	es, err := chain.ReadEntries(&b)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// findings is what `record verify` reports, as text.
func findings(t testing.TB, p *project.Project) string {
	t.Helper()
	v, err := openT(t, p).Verify()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range v.Findings {
		out = append(out, f.String())
	}
	return strings.Join(out, "\n")
}

// journalOf is the current writer and its journal, read without
// committing it.
func journalOf(t testing.TB, p *project.Project) (string, string) {
	t.Helper()
	r, err := OpenUndrained(p)
	if err != nil {
		t.Fatal(err)
	}
	w := writerOf(t, r)
	return w, r.journalPath(w)
}

func holds(es []chain.Entry, e chain.Entry) bool {
	return e.Seq <= int64(len(es)) && es[e.Seq-1].Hash == e.Hash
}

// TestJournalAnsweredEntriesSurviveAKilledServer: entries answered and
// never committed (the server died) are committed by the next reader, in
// order, and verify.
func TestJournalAnsweredEntriesSurviveAKilledServer(t *testing.T) {
	_, p := newRepo(t)
	appendN(t, openT(t, p), 2, "before")
	j := manualJournal()
	var answered []chain.Entry
	for i := 0; i < 3; i++ {
		answered = append(answered, jAppend(t, j, p, fmt.Sprintf("answered %d", i)))
	}
	// j is dropped without Close: the process is gone.
	r := openT(t, p)
	es := refEntries(t, r, writerOf(t, r))
	if len(es) != 5 {
		t.Fatalf("the ref holds %d entries, want 5", len(es))
	}
	for _, e := range answered {
		if !holds(es, e) {
			t.Errorf("entry %d (%s) is not on the ref", e.Seq, e.Did)
		}
	}
	if f := findings(t, p); f != "" {
		t.Errorf("verify: %s", f)
	}
	if _, path := journalOf(t, p); fileSize(path) != 0 {
		t.Errorf("the journal still holds %d bytes", fileSize(path))
	}
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// TestJournalCommitsInBatches: the committer moves every line to the ref
// in one commit, which names each entry, and empties the journal; the
// server goes on from the head it keeps.
func TestJournalCommitsInBatches(t *testing.T) {
	dir, p := newRepo(t)
	j := manualJournal()
	for i := 0; i < 4; i++ {
		jAppend(t, j, p, fmt.Sprintf("batch %d", i))
	}
	for _, st := range j.states {
		j.commit(st)
	}
	w, path := journalOf(t, p)
	if fileSize(path) != 0 {
		t.Fatalf("the journal holds %d bytes after its commit", fileSize(path))
	}
	msg := git(t, dir, "log", "-1", "--format=%B", gitx.RecordRef(w))
	if !strings.HasPrefix(msg, "warrant: 4 entries #1..#4\n") || !strings.Contains(msg, `note did "batch 3" [appeal] #4`) {
		t.Errorf("the batch's commit message:\n%s", msg)
	}
	e := jAppend(t, j, p, "after")
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if e.Seq != 5 || !holds(refEntries(t, openT(t, p), w), e) {
		t.Errorf("the entry after the batch: seq %d, on the ref: %v", e.Seq, holds(refEntries(t, openT(t, p), w), e))
	}
	if got := git(t, dir, "log", "-1", "--format=%s", gitx.RecordRef(w)); !strings.HasPrefix(got, `warrant: note did "after" [appeal] #5`) {
		t.Errorf("a lone entry's commit reads as an append's: %s", got)
	}
	mustVerify(t, openT(t, p))
}

// TestJournalEditedLineIsRefused: a line changed in the journal before its
// commit breaks the chain there; the lines before it are committed, the
// journal is set aside, and verify reports it until a person removes it.
func TestJournalEditedLineIsRefused(t *testing.T) {
	_, p := newRepo(t)
	j := manualJournal()
	a := jAppend(t, j, p, "one")
	jAppend(t, j, p, "two allow")
	jAppend(t, j, p, "three")
	w, path := journalOf(t, p)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(data, []byte("two allow"), []byte("two denyy"), 1), 0o644)

	r := openT(t, p) // a reader commits the journal first
	es := refEntries(t, r, w)
	if len(es) != 1 || es[0].Hash != a.Hash {
		t.Fatalf("the ref holds %d entries, want only the one before the edit", len(es))
	}
	f := findings(t, p)
	if !strings.Contains(f, KindJournal) || !strings.Contains(f, "line 2") {
		t.Errorf("verify does not report the refused journal: %q", f)
	}
	if e, err := r.Append(note("later")); err != nil || e.Seq != 2 {
		t.Errorf("an append after the refusal: seq %d, %v", e.Seq, err)
	}
}

// TestJournalForgedLineIsNotCommitted: a forged line appended after the
// server's (hashes recomputed, so it chains) is never committed as the
// server's: the server commits what it wrote and sets the file aside.
func TestJournalForgedLineIsNotCommitted(t *testing.T) {
	_, p := newRepo(t)
	j := manualJournal()
	a := jAppend(t, j, p, "real one")
	b := jAppend(t, j, p, "real two")
	w, path := journalOf(t, p)
	// Same size, other bytes: entry 2 rewritten and re-hashed.
	forged := b
	forged.Did, forged.Hash = "fake two", ""
	line, _, err := chain.Seal(forged)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	first := data[:bytes.IndexByte(data, '\n')+1]
	os.WriteFile(path, append(append(append([]byte{}, first...), line...), '\n'), 0o644)
	if fileSize(path) != int64(len(data)) {
		t.Fatalf("the forgery is meant to keep the size: %d vs %d", fileSize(path), len(data))
	}
	for _, st := range j.states {
		j.commit(st)
	}
	es := refEntries(t, openT(t, p), w)
	if len(es) != 2 || es[0].Hash != a.Hash || es[1].Hash != b.Hash {
		t.Fatalf("the ref does not hold what the server answered: %+v", es)
	}
	if f := findings(t, p); !strings.Contains(f, KindJournal) || !strings.Contains(f, "not what its server wrote") {
		t.Errorf("verify: %q", f)
	}
}

// TestJournalCutAndDrainedElsewhereIsReported: a journal cut after an
// answer and committed by another process (the cut entry never reaches
// the ref) is reported by the server at its next append: its last
// answered entry is not on the ref.
func TestJournalCutAndDrainedElsewhereIsReported(t *testing.T) {
	_, p := newRepo(t)
	j := manualJournal()
	jAppend(t, j, p, "kept")
	cut := jAppend(t, j, p, "cut")
	w, path := journalOf(t, p)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:bytes.IndexByte(data, '\n')+1], 0o644)
	if _, err := openT(t, p).Append(note("a hook process")); err != nil { // drains the cut journal
		t.Fatal(err)
	}
	if f := findings(t, p); f != "" {
		t.Fatalf("before the server looks, the chain is whole: %q", f)
	}
	next := jAppend(t, j, p, "server again")
	es := refEntries(t, openT(t, p), w)
	if holds(es, cut) {
		t.Fatal("the cut entry is on the ref")
	}
	if next.Seq != 3 {
		t.Errorf("the server's next entry has seq %d, want 3 (after the hook process's)", next.Seq)
	}
	f := findings(t, p)
	if !strings.Contains(f, KindJournal) || !strings.Contains(f, fmt.Sprintf("entry %d", cut.Seq)) {
		t.Errorf("verify does not report the lost entry: %q", f)
	}
	lost, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*"+refusedMark+"*[0-9]"))
	if len(lost) != 1 {
		t.Fatalf("kept copies of the lost lines: %v", lost)
	}
	if kept, _ := os.ReadFile(lost[0]); !bytes.Contains(kept, []byte(`"did":"cut"`)) {
		t.Errorf("the kept copy does not hold the cut entry:\n%s", kept)
	}
}

// TestJournalTornLastLineIsDropped: a server killed in the middle of a
// write leaves a cut last line it never answered; the lines before it are
// committed and the record verifies.
func TestJournalTornLastLineIsDropped(t *testing.T) {
	_, p := newRepo(t)
	j := manualJournal()
	a := jAppend(t, j, p, "whole")
	b := jAppend(t, j, p, "torn")
	w, path := journalOf(t, p)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-40], 0o644)
	es := refEntries(t, openT(t, p), w)
	if len(es) != 1 || es[0].Hash != a.Hash {
		t.Fatalf("the ref holds %d entries, want the whole one", len(es))
	}
	if f := findings(t, p); f != "" {
		t.Errorf("verify: %q", f)
	}
	// The whole line without its newline was not answered either.
	j2 := manualJournal()
	c := jAppend(t, j2, p, "no newline")
	data, _ = os.ReadFile(path)
	os.WriteFile(path, bytes.TrimSuffix(data, []byte("\n")), 0o644)
	if es := refEntries(t, openT(t, p), w); len(es) != 1 || c.Seq != 2 {
		t.Errorf("a line without its newline was committed: %d entries", len(es))
	}
	_ = b
}

// TestJournalSymlinkIsNeverFollowed: a journal made a link to a file the
// agent controls is neither read nor written through: a reader sets the
// link aside, the server writes a journal of its own, and the file behind
// the link is unchanged.
func TestJournalSymlinkIsNeverFollowed(t *testing.T) {
	_, p := newRepo(t)
	j := manualJournal()
	jAppend(t, j, p, "first")
	for _, st := range j.states {
		j.commit(st)
	}
	w, path := journalOf(t, p)
	outside := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	// A line that would chain: the attacker read the head.
	r := openT(t, p)
	cr, _ := r.repo.ReadChainRef(gitx.RecordRef(w))
	seg, _, _ := r.repo.LastSegment(cr)
	line, _, err := r.seal(note("smuggled"), cr, seg, nil, r.Now)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(outside, line, 0o644)
	os.Remove(path)
	if err := os.Symlink(outside, path); err != nil {
		t.Fatal(err)
	}
	e := jAppend(t, j, p, "second")
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the server journals through a link: %v", err)
	}
	if got, _ := os.ReadFile(outside); !bytes.Equal(got, line) {
		t.Errorf("the file behind the link changed:\n%s", got)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	es := refEntries(t, openT(t, p), w)
	if len(es) != 2 || es[1].Hash != e.Hash {
		t.Errorf("the ref: %+v", es)
	}
	if f := findings(t, p); !strings.Contains(f, KindJournal) || !strings.Contains(f, "not a regular file") {
		t.Errorf("verify: %q", f)
	}

	// A linked journal folder: the server records nothing, so it asks.
	jdir := filepath.Dir(path)
	os.RemoveAll(jdir)
	os.Symlink(t.TempDir(), jdir)
	r2, _ := OpenUndrained(p)
	if _, err := NewJournal(nil).Append(r2, note("through a linked folder")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a linked journal folder: %v", err)
	}
}

// TestJournalTwoServersAndHookProcesses: two servers' journals for one
// repository and hook processes append at once; every entry any of them
// answered ends on the ref, in one chain, and verify finds nothing.
func TestJournalTwoServersAndHookProcesses(t *testing.T) {
	_, p := newRepo(t)
	servers := []*Journal{NewJournal(nil), NewJournal(nil)}
	var mu sync.Mutex
	var answered []chain.Entry
	var wg sync.WaitGroup
	for c := 0; c < 6; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 15; i++ {
				text := fmt.Sprintf("client %d entry %d", c, i)
				r, err := OpenUndrained(p)
				if err != nil {
					t.Error(err)
					return
				}
				var e chain.Entry
				if c < 4 {
					e, err = servers[c%2].Append(r, note(text))
				} else {
					e, err = r.Append(note(text)) // a hook process's own append
				}
				if err != nil {
					t.Errorf("%s: %v", text, err)
					return
				}
				mu.Lock()
				answered = append(answered, e)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, j := range servers {
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
	}
	r := openT(t, p)
	es := refEntries(t, r, writerOf(t, r))
	if len(es) != len(answered) {
		t.Errorf("the ref holds %d entries, %d were answered", len(es), len(answered))
	}
	for _, e := range answered {
		if !holds(es, e) {
			t.Errorf("answered entry %d (%s) is not on the ref", e.Seq, e.Did)
		}
	}
	if f := findings(t, p); f != "" {
		t.Errorf("verify: %s", f)
	}
}

// BenchmarkJournalAppend is one server append: the lock, the ref and the
// journal's size checked, the line written (docs/record.md#the-journal).
func BenchmarkJournalAppend(b *testing.B) {
	_, p := newRepo(b)
	j := NewJournal(nil)
	defer j.Close()
	r, err := OpenUndrained(p)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := j.Append(r, note("bench")); err != nil {
			b.Fatal(err)
		}
	}
}
