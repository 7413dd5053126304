package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// RefError reports that an entry was written to its chain file but its
// commit on refs/gitwarrant/<writer> was not made. The entry stays: the
// file is the record. The next append, or the pre-commit hook, catches the
// ref up from the file — only ever by extending it.
type RefError struct {
	Ref string
	Err error
}

func (e *RefError) Error() string {
	return fmt.Sprintf("the entry is recorded, but %s was not moved: %v (the next append or `git commit` catches it up)", e.Ref, e.Err)
}

func (e *RefError) Unwrap() error { return e.Err }

// Append adds e to this writer's chain under the chain lock and, in a Git
// repository, commits it to refs/gitwarrant/<writer> while the lock is
// still held (chain.File.AfterAppend), so the ref never points at content
// the file does not extend. Before writing it checks, O(1), that the file
// still extends the ref; if not (truncated, deleted, edited) it refuses
// and writes nothing.
func (r *Record) Append(e chain.Entry) (chain.Entry, error) {
	return r.AppendPrepared(e, nil)
}

// AppendPrepared is Append with prepare run under the chain lock once the
// entry's seq, prev and ts are known (chain.File.Prepare): how a signed
// amend signs its own position. An error from prepare records nothing.
func (r *Record) AppendPrepared(e chain.Entry, prepare func(chain.Entry) (chain.Entry, error)) (chain.Entry, error) {
	w, err := r.Writer()
	if err != nil {
		return chain.Entry{}, err
	}
	f := &chain.File{Path: r.ChainPath(w), Now: r.Now, Prepare: prepare}
	if r.repo == nil {
		return f.Append(e)
	}
	rel, err := r.repo.Rel(f.Path)
	if err != nil {
		return chain.Entry{}, err
	}
	st, err := r.checkExtends(w, f.Path, rel, nil)
	if err != nil {
		return chain.Entry{}, fmt.Errorf("nothing was recorded: %w", err)
	}
	f.LockPath = r.lockPath(w)
	f.AfterAppend = func(e chain.Entry, line []byte, offset int64) error {
		if err := r.commitEntry(w, f.Path, rel, st, e, line, offset); err != nil {
			return &RefError{Ref: gitx.RecordRef(w), Err: err}
		}
		return nil
	}
	return f.Append(e)
}

// lockPath keeps the chain lock out of the work tree (under
// <common dir>/gitwarrant/locks/), so appending never adds an untracked
// file next to the chain.
func (r *Record) lockPath(writer string) string {
	return filepath.Join(r.repo.CommonDir, stateDir, "locks", writer+".lock")
}

// tamperError is a chain file that no longer extends its ref.
func tamperError(rel, ref, what string) error {
	return &tamperErr{msg: fmt.Sprintf("%s no longer extends %s: %s. The ref holds every committed entry; to restore the file run:\n"+
		"  git ls-tree -r --name-only %s | while read -r p; do git cat-file blob \"%s:$p\"; done > %s\n"+
		"(save the current file first if you want to inspect it)", rel, ref, what, ref, ref, rel)}
}

// tamperErr is a chain file that does not extend its ref. short means the
// file is a strict prefix of the ref: entries were cut, none were changed.
type tamperErr struct {
	msg   string
	short bool
}

func (e *tamperErr) Error() string { return e.msg }

// refState is a record ref and its last segment, read once per append.
type refState struct {
	cr    *gitx.ChainRef
	seg   []byte
	first int64 // line number (0-based) where seg starts
}

// readRefState reads the ref's commit and last segment, reusing prev when
// the ref still points at the same commit.
func (r *Record) readRefState(writer string, prev *refState) (*refState, error) {
	ref := gitx.RecordRef(writer)
	if prev != nil {
		h, err := r.repo.ReadRef(ref)
		if err != nil {
			return nil, err
		}
		if h == prev.cr.Commit {
			return prev, nil
		}
	}
	cr, err := r.repo.ReadChainRef(ref)
	if err != nil {
		return nil, err
	}
	seg, first, err := r.repo.LastSegment(cr)
	if err != nil {
		return nil, err
	}
	return &refState{cr: cr, seg: seg, first: first}, nil
}

// checkExtends verifies, reading only the ref's last segment and the same
// byte range of the file, that the file still extends the ref. Appenders
// only ever grow both, so this check needs no lock.
func (r *Record) checkExtends(writer, path, rel string, prev *refState) (*refState, error) {
	st, err := r.readRefState(writer, prev)
	if err != nil || !st.cr.Exists() {
		return st, err
	}
	cr, seg := st.cr, st.seg
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, tamperError(rel, cr.Name, fmt.Sprintf("the file is missing but the ref holds %d entries", cr.Lines))
	}
	if err != nil {
		return nil, err
	}
	if fi.Size() < cr.Size {
		return nil, tamperError(rel, cr.Name, fmt.Sprintf("the file has %d bytes but the ref holds %d (%d entries): it was truncated", fi.Size(), cr.Size, cr.Lines))
	}
	got := make([]byte, len(seg))
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if _, err := fh.ReadAt(got, cr.Size-int64(len(seg))); err != nil {
		return nil, fmt.Errorf("reading %s: %w", rel, err)
	}
	if !bytes.Equal(got, seg) {
		line := st.first + int64(bytes.Count(commonPrefix(got, seg), []byte("\n"))) + 1
		return nil, tamperError(rel, cr.Name, fmt.Sprintf("line %d differs from the committed entry", line))
	}
	return st, nil
}

func commonPrefix(a, b []byte) []byte {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// commitEntry runs under the chain lock, after line was written at offset.
// If the ref is behind the file (an earlier commit failed, or the ref was
// deleted) it first catches up with one commit holding the missing lines.
func (r *Record) commitEntry(writer, path, rel string, prev *refState, e chain.Entry, line []byte, offset int64) error {
	st, err := r.checkExtends(writer, path, rel, prev)
	if err != nil {
		return err
	}
	cr, seg := st.cr, st.seg
	if cr.Size > offset {
		return tamperError(rel, cr.Name, fmt.Sprintf("the ref holds %d bytes but the entry was written at byte %d", cr.Size, offset))
	}
	if cr.Exists() && cr.Chain != rel {
		return fmt.Errorf("%s holds chain %s, not %s — it was moved by hand; delete it (`git update-ref -d %s`) to rebuild it from the file", cr.Name, cr.Chain, rel, cr.Name)
	}
	ident := r.repo.Identity()
	if cr.Size < offset {
		if cr, err = r.catchUp(cr, seg, path, rel, offset, ident); err != nil {
			return err
		}
		if seg, _, err = r.repo.LastSegment(cr); err != nil {
			return err
		}
	}
	_, err = r.repo.AppendChain(cr, seg, gitx.ChainCommit{
		Chain: rel, Lines: [][]byte{line}, Head: e.Hash,
		Subject: Subject(e), Author: ident, When: r.Now(),
	})
	return err
}

// catchUp commits the file's bytes [cr.Size, upTo) — entries on the record
// whose own commits were never made — in one commit.
func (r *Record) catchUp(cr *gitx.ChainRef, seg []byte, path, rel string, upTo int64, ident gitx.Identity) (*gitx.ChainRef, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	buf := make([]byte, upTo-cr.Size)
	if _, err := fh.ReadAt(buf, cr.Size); err != nil && err != io.EOF {
		return nil, err
	}
	lines := splitLines(buf)
	last, _, err := chain.ParseEntry(bytes.TrimSuffix(lines[len(lines)-1], []byte("\n")))
	if err != nil {
		return nil, fmt.Errorf("%s:%d: cannot catch %s up past an unparsable line (%v) — run `gitwarrant record verify`", rel, cr.Lines+int64(len(lines)), cr.Name, err)
	}
	why := "their own commits were not made (an earlier append could not move the ref)"
	if !cr.Exists() {
		why = "the ref did not exist; rebuilt from the chain file"
	}
	return r.repo.AppendChain(cr, seg, gitx.ChainCommit{
		Chain: rel, Lines: lines, Head: last.Hash, Author: ident, When: r.Now(),
		Subject: fmt.Sprintf("warrant: catch up %d entries (#%d..#%d)", len(lines), cr.Lines+1, cr.Lines+int64(len(lines))),
		Body:    "These entries were already on the record; " + why + ".",
	})
}

// splitLines splits b after each "\n", keeping the newlines.
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}

// Subject is a record commit's first line, naming the entry, e.g.
// `warrant: check ask send "git push origin main" [appeal] #42`.
func Subject(e chain.Entry) string {
	var parts []string
	parts = append(parts, "warrant:", e.Kind)
	switch e.Kind {
	case chain.KindCheck:
		parts = append(parts, e.Verdict, e.Action, quote(e.Target))
	case chain.KindNote:
		for _, f := range []struct{ k, v string }{{"did", e.Did}, {"saw", e.Saw}, {"skipped", e.Skipped}, {"stopped", e.Stopped}, {"note", e.Note}} {
			if f.v != "" {
				parts = append(parts, f.k, quote(f.v))
				break
			}
		}
	}
	parts = append(parts, "["+e.Loop+"]", fmt.Sprintf("#%d", e.Seq))
	return strings.Join(parts, " ")
}

// quote keeps subjects on one short line.
func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
