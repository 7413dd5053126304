package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// A writer's journal (docs/record.md#the-journal) holds the entries a
// long-lived server answered and has not yet committed to the writer's
// ref, one canonical line each, chained after the ref's last entry. Every
// other writer and reader of that writer's record commits them first,
// under the writer's lock: lockWriter does it for appends, the commit
// hooks and restore, and Open for everything that reads.

const (
	journalDir = "journal"
	// refusedMark names a journal set aside: one that did not chain after
	// its ref, was not a regular file, or held what its server never
	// wrote. `record verify` reports each until a person removes it.
	refusedMark = ".refused-"
)

// KindJournal is a finding for a journal set aside.
const KindJournal = "journal refused"

// journalPath is writer w's journal.
func (r *Record) journalPath(w string) string {
	return r.statePath(journalDir, w+".jsonl")
}

// lockWriter takes writer w's lock and, holding it, commits what w's
// journal holds, so the caller finds the ref holding every entry a server
// answered. It returns the function that releases the lock.
func (r *Record) lockWriter(w string) (func(), error) {
	unlock, err := chain.Lock(r.lockPath(w))
	if err != nil {
		return nil, err
	}
	if r.repo != nil {
		if _, err := r.drainLocked(w); err != nil {
			unlock()
			return nil, err
		}
	}
	return unlock, nil
}

// drainAll commits every writer's non-empty journal (each under its lock),
// so a reader sees every answered entry. A journal that cannot be
// committed is reported on Warn: reading must still work, and `record
// verify` names what is wrong.
func (r *Record) drainAll() {
	ents, err := os.ReadDir(r.statePath(journalDir))
	if err != nil {
		return
	}
	for _, e := range ents {
		w, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || strings.Contains(w, refusedMark) {
			continue
		}
		if fi, err := e.Info(); err != nil || (fi.Mode().IsRegular() && fi.Size() == 0) {
			continue
		}
		unlock, err := r.lockWriter(w)
		if err != nil {
			r.warnf("gitwarrant: the journal of writer %s could not be committed: %v\n", w, err)
			continue
		}
		unlock()
	}
}

func (r *Record) warnf(format string, args ...any) {
	if r.Warn != nil {
		fmt.Fprintf(r.Warn, format, args...)
	}
}

// readJournal reads the journal at path (see openJournal: never through
// a symbolic link).
func readJournal(path string) ([]byte, error) {
	fh, err := openJournal(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return io.ReadAll(fh)
}

// drainLocked commits writer w's journal to its ref; w's lock is held.
// Only lines that chain after the ref's last entry are committed: the
// first line that does not (edited, forged, reordered, from another
// writer) sets the journal aside from there, and a last line without its
// newline — a write cut by a crash, never answered, since the server
// answers only once the whole line is written — is dropped. It returns
// the ref as it stands after, or nil when there was nothing to commit.
func (r *Record) drainLocked(w string) (*gitx.ChainRef, error) {
	path := r.journalPath(w)
	data, err := readJournal(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.Is(err, errNotRegular):
		r.setAside(w, path, "it is not a regular file (a symbolic link?); nothing was read through it")
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the journal %s: %w", path, err)
	}
	if len(data) == 0 {
		return nil, nil
	}
	cr, err := r.liveRef(w)
	if err != nil {
		return nil, err
	}
	seg, _, err := r.repo.LastSegment(cr)
	if err != nil {
		return nil, err
	}
	seq, prev, err := lastOf(cr, seg)
	if err != nil {
		return nil, err
	}
	good, why := journalPrefix(data, path, seq, prev)
	if len(good) > 0 {
		next, err := r.commitJournal(w, cr, seg, good)
		if err != nil {
			return nil, err
		}
		cr = next
	}
	switch {
	case why == "":
		err = os.Truncate(path, 0)
	case strings.HasPrefix(why, "torn: "):
		r.warnf("gitwarrant: the journal of writer %s ended in a line cut short (%s); it was never answered and is dropped\n", w, strings.TrimPrefix(why, "torn: "))
		err = os.Truncate(path, 0)
	default:
		r.setAside(w, path, why)
	}
	if err != nil {
		return nil, fmt.Errorf("emptying the journal %s after committing it: %w", path, err)
	}
	return cr, nil
}

// journalPrefix returns the whole lines of data that chain after entry
// seq (hash prev), and why it stops before the end ("" when it does not;
// "torn: …" for a cut last line).
func journalPrefix(data []byte, path string, seq int64, prev string) ([]byte, string) {
	rep := chain.VerifyFrom(bytes.NewReader(data), path, seq+1, prev)
	n := rep.Entries
	if rep.Unterminated {
		n-- // whole but unanswered: its newline was never written
	}
	end := 0
	for i := 0; i < n; i++ {
		end += bytes.IndexByte(data[end:], '\n') + 1
	}
	switch {
	case rep.Break == nil && !rep.Unterminated:
		return data[:end], ""
	case rep.Break == nil || rep.Break.Reason == chain.ReasonTorn:
		return data[:end], "torn: line " + strconv.Itoa(n+1)
	}
	return data[:end], fmt.Sprintf("line %d does not follow the entries before it: %s (%s)", rep.Break.Line, rep.Break.Reason, rep.Break.Detail)
}

// lastOf is the seq and hash of the ref's last entry (0 and GENESIS for
// an empty ref), read from its last chunk as an append reads it.
func lastOf(cr *gitx.ChainRef, seg []byte) (int64, string, error) {
	if cr.Lines == 0 {
		return 0, chain.Genesis, nil
	}
	body := bytes.TrimSuffix(seg, []byte("\n"))
	last, _, err := chain.ParseEntry(body[bytes.LastIndexByte(body, '\n')+1:])
	if err != nil || last.Hash == "" || last.Seq != cr.Lines {
		return 0, "", fmt.Errorf("the last entry of %s cannot be read (%v) — run `gitwarrant record verify`", cr.Name, err)
	}
	return last.Seq, last.Hash, nil
}

// commitJournal commits lines (verified to chain after cr) to w's ref in
// one commit and moves the ref; the lock is held.
func (r *Record) commitJournal(w string, cr *gitx.ChainRef, seg, lines []byte) (*gitx.ChainRef, error) {
	next, err := r.journalCommit(w, cr, seg, lines)
	if err != nil {
		return nil, err
	}
	if err := r.repo.UpdateRef(next.Name, next.Commit, cr.Commit); err != nil {
		return nil, err
	}
	if !cr.Exists() {
		if err := r.markStarted(w); err != nil {
			return nil, err
		}
	}
	r.maybePack(w, next)
	return next, nil
}

// journalCommit writes, without moving the ref, the one commit that adds
// journalled lines to cr (docs/record.md#the-journal: one commit per
// batch). A lone entry's commit reads as an append's; a batch's subject
// counts its entries and its body names each.
func (r *Record) journalCommit(w string, cr *gitx.ChainRef, seg, lines []byte) (*gitx.ChainRef, error) {
	ls := splitLines(lines)
	subjects := make([]string, len(ls))
	var last chain.Entry
	for i, l := range ls {
		e, err := chain.DecodeEntry(bytes.TrimSuffix(l, []byte("\n")))
		if err != nil {
			return nil, fmt.Errorf("journal line %d: %w", i+1, err)
		}
		subjects[i], last = Subject(e), e
	}
	cc := gitx.ChainCommit{Chain: r.chainName(w), Lines: ls, Head: last.Hash, Author: r.repo.Identity(), When: r.Now()}
	if len(ls) == 1 {
		cc.Subject = subjects[0]
	} else {
		cc.Subject = fmt.Sprintf("warrant: %d entries #%d..#%d", len(ls), last.Seq-int64(len(ls))+1, last.Seq)
		cc.Body = strings.Join(subjects, "\n")
	}
	return r.repo.CommitChain(cr, seg, cc)
}

// setAside renames a journal that must not be committed out of the way
// (never deleting it: it is the evidence) and says so.
func (r *Record) setAside(w, path, why string) {
	dst := filepath.Join(filepath.Dir(path), w+refusedMark+strconv.FormatInt(time.Now().UnixNano(), 10))
	if err := os.Rename(path, dst); err != nil {
		r.warnf("gitwarrant: the journal of writer %s is refused (%s) and could not be set aside: %v\n", w, why, err)
		return
	}
	_ = os.WriteFile(dst+".why", []byte(why+"\n"), 0o644)
	r.warnf("gitwarrant: the journal of writer %s is refused: %s; kept at %s — run `gitwarrant record verify`\n", w, why, dst)
}

// journalFindings reports every journal set aside: entries a server may
// have answered that are not on the record as it wrote them.
func (r *Record) journalFindings() []Finding {
	dir := r.statePath(journalDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Finding
	for _, e := range ents {
		name := e.Name()
		if !strings.Contains(name, refusedMark) || strings.HasSuffix(name, ".why") {
			continue
		}
		why, _ := os.ReadFile(filepath.Join(dir, name+".why"))
		detail := "a server's journal was refused"
		if s := strings.TrimSpace(string(why)); s != "" {
			detail += ": " + s
		}
		detail += "; entries it holds may have been answered without reaching the ref — inspect it, then remove it"
		out = append(out, Finding{Path: filepath.Join(dir, name), Kind: KindJournal, Detail: detail})
	}
	return out
}
