package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// Append adds e to this writer's chain. In a Git repository the live
// record is refs/gitwarrant/<writer> (docs/record.md#the-live-record): under
// the writer's lock it reads the ref's last chunk, seals e after its last
// entry and commits it to the ref, touching neither the work tree nor the
// index; the branch receives the entry at the next commit. Outside Git the
// chain file is the record.
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
	if r.repo == nil {
		f := &chain.File{Path: r.ChainPath(w), Now: r.Now, Prepare: prepare}
		return f.Append(e)
	}
	if e.Kind == "" {
		return chain.Entry{}, fmt.Errorf("entry has no kind; set Kind (e.g. %q)", chain.KindNote)
	}
	return r.enqueue(w, &appendReq{e: e, prepare: prepare, now: r.Now, done: make(chan struct{}), lead: make(chan struct{})})
}

// Appends from one process to one writer are combined
// (docs/record.md#batched-appends): a caller that finds another append of
// the same writer under way queues its entry, and whoever holds the lock
// takes every queued entry at once — one lock, one read of the ref, one
// commit per entry, each on the previous, and one move of the ref to the
// last. An answer is given only once the ref holds the entry, exactly as
// for an append alone. Fifty concurrent checks thus cost about what a few
// appends in a row cost, not fifty.

// maxBatch bounds the entries one lock holder commits before it answers.
const maxBatch = 256

// appendReq is one queued append and, once done is closed, its result.
type appendReq struct {
	e       chain.Entry
	prepare func(chain.Entry) (chain.Entry, error)
	now     func() time.Time
	out     chain.Entry
	err     error
	done    chan struct{} // closed with the result
	lead    chan struct{} // closed when this caller is to commit the queue
}

// appendQueue is the queue of one writer's chain in this process.
type appendQueue struct {
	mu      sync.Mutex
	pending []*appendReq
	leading bool
}

// queues maps a writer's lock path and chain to its *appendQueue.
var queues sync.Map

func (r *Record) enqueue(w string, req *appendReq) (chain.Entry, error) {
	v, _ := queues.LoadOrStore(r.lockPath(w)+"\x00"+r.chainName(w), &appendQueue{})
	q := v.(*appendQueue)
	q.mu.Lock()
	q.pending = append(q.pending, req)
	lead := !q.leading
	q.leading = true
	q.mu.Unlock()
	if !lead {
		select {
		case <-req.done:
			return req.out, req.err
		case <-req.lead:
		}
	}
	q.mu.Lock()
	batch := q.pending[:min(len(q.pending), maxBatch)]
	q.pending = append([]*appendReq(nil), q.pending[len(batch):]...)
	q.mu.Unlock()
	func() {
		// handed on even if the batch panics, so the queue never stalls
		defer func() {
			q.mu.Lock()
			if len(q.pending) > 0 {
				close(q.pending[0].lead) // the next caller commits the rest
			} else {
				q.leading = false
			}
			q.mu.Unlock()
		}()
		r.appendBatch(w, batch)
	}()
	<-req.done
	return req.out, req.err
}

// appendBatch commits batch under the writer's lock and answers each
// caller. A caller whose entry is not on the ref is always answered with
// an error: a batch cut short answers the rest that nothing was recorded.
func (r *Record) appendBatch(w string, batch []*appendReq) {
	var stopped error // why the batch ended before an entry
	var once sync.Once
	answer := func() {
		once.Do(func() {
			for _, req := range batch {
				if req.err == nil && req.out.Hash == "" {
					why := stopped
					if why == nil {
						why = errors.New("the append was interrupted")
					}
					req.err = fmt.Errorf("nothing was recorded: %w", why)
				}
				close(req.done)
			}
		})
	}
	defer answer()
	unlock, err := r.lockWriter(w)
	if err != nil {
		for _, req := range batch {
			req.err = err
		}
		return
	}
	defer unlock()
	cr, err := r.liveRef(w)
	if err != nil {
		stopped = err
		return
	}
	seg, _, err := r.repo.LastSegment(cr)
	if err != nil {
		stopped = err
		return
	}
	start, next := cr, cr
	ident := r.repo.Identity()
	var done []*appendReq // committed, not yet on the ref
	for _, req := range batch {
		line, e, err := r.seal(req.e, next, seg, req.prepare, req.now)
		if err != nil {
			req.err = fmt.Errorf("nothing was recorded: %w", err)
			continue // this entry only; the others go on
		}
		c, err := r.repo.CommitChain(next, seg, gitx.ChainCommit{
			Chain: r.chainName(w), Lines: [][]byte{line}, Head: e.Hash,
			Subject: Subject(e), Author: ident, When: req.now(),
		})
		if err != nil {
			// the entries after it would not follow it
			stopped = fmt.Errorf("an entry before it in the same batch could not be committed: %w", err)
			req.err = fmt.Errorf("nothing was recorded: %w", err)
			break
		}
		if next.Lines%gitx.SegmentLines == 0 {
			seg = line
		} else {
			seg = append(seg[:len(seg):len(seg)], line...)
		}
		req.out, next = e, c
		done = append(done, req)
	}
	if next == start {
		return
	}
	if err := r.repo.UpdateRef(next.Name, next.Commit, start.Commit); err != nil {
		for _, req := range done {
			req.out, req.err = chain.Entry{}, fmt.Errorf("nothing was recorded: %w", err)
		}
		return
	}
	if !start.Exists() {
		if err := r.markStarted(w); err != nil {
			for _, req := range done {
				req.err = err // recorded, as a lone append reports it
			}
		}
	}
	answer()
	r.maybePack(w, next)
}

// chainName is the Warrant-Chain trailer of a writer's ref commits: the
// folder of its branch copy, slash-terminated.
func (r *Record) chainName(w string) string {
	return r.rel(r.WriterDir(w)) + "/"
}

// seal fills e's chain fields after the ref's last entry (the last line of
// its last chunk), runs prepare (a signature over its own position) when
// set, and returns its line, newline included.
func (r *Record) seal(e chain.Entry, cr *gitx.ChainRef, seg []byte, prepare func(chain.Entry) (chain.Entry, error), now func() time.Time) ([]byte, chain.Entry, error) {
	seq, prev, err := lastOf(cr, seg)
	if err != nil {
		return nil, e, err
	}
	return sealAfter(e, seq, prev, prepare, now)
}

// sealAfter fills e's chain fields after entry seq (hash prev), runs
// prepare when set, and returns its line, newline included.
func sealAfter(e chain.Entry, seq int64, prev string, prepare func(chain.Entry) (chain.Entry, error), now func() time.Time) ([]byte, chain.Entry, error) {
	e.Seq, e.Prev = seq+1, prev
	if e.TS == "" {
		e.TS = now().UTC().Format(chain.TSLayout)
	}
	if prepare != nil {
		ts := e.TS
		var err error
		if e, err = prepare(e); err != nil {
			return nil, e, err
		}
		if e.Seq != seq+1 || e.Prev != prev || e.TS != ts {
			return nil, e, fmt.Errorf("preparing the entry changed its chain position")
		}
	}
	line, e, err := chain.Seal(e)
	if err != nil {
		return nil, e, err
	}
	if len(line) > chain.MaxLine {
		return nil, e, fmt.Errorf("entry is %d bytes, over the %d-byte line limit; shorten its fields", len(line), chain.MaxLine)
	}
	return append(line, '\n'), e, nil
}

// liveRef reads writer w's ref under its lock. A writer that has recorded
// before and whose ref is gone is refused (docs/record.md#writers: never
// rebuilt from a file). A single-file chain left by an earlier version
// that is ahead of its ref (its ref commit failed) first catches the ref
// up, only ever by extending it.
func (r *Record) liveRef(w string) (*gitx.ChainRef, error) {
	ref := gitx.RecordRef(w)
	cr, err := r.repo.ReadChainRef(ref)
	if err != nil {
		return nil, err
	}
	if !cr.Exists() {
		if why := r.refGoneWhy(w); why != "" {
			return nil, refGoneError(w, why)
		}
		return cr, nil
	}
	legacy := r.ChainPath(w)
	if fi, err := os.Stat(legacy); err == nil && fi.Size() > cr.Size {
		rel := r.rel(legacy)
		if err := r.extendsRef(cr, legacy, rel); err != nil {
			return nil, err
		}
		seg, _, err := r.repo.LastSegment(cr)
		if err != nil {
			return nil, err
		}
		return r.catchUp(cr, seg, legacy, rel, completeLines(legacy, fi.Size()), r.repo.Identity())
	}
	return cr, nil
}

// refGoneWhy says why writer w must have a ref, or "" when it may start
// one: it is listed as started, or its chain is in the work tree.
func (r *Record) refGoneWhy(w string) string {
	if r.started(w) {
		return "this clone has recorded as " + w + " before"
	}
	if _, err := os.Stat(r.ChainPath(w)); err == nil {
		return r.rel(r.ChainPath(w)) + " holds its entries"
	}
	if segs, _, _ := listSegs(r.WriterDir(w)); len(segs) > 0 {
		return r.rel(r.WriterDir(w)) + "/ holds its entries"
	}
	return ""
}

// RefGoneError is a known writer whose ref no longer exists.
type RefGoneError struct{ Writer, Why string }

func (e *RefGoneError) Error() string {
	return fmt.Sprintf("writer %s: %s is gone, but %s. The record is never rebuilt from a file: restore the ref from a remote (`gitwarrant record fetch`) or a backup, and run `gitwarrant record verify`", e.Writer, gitx.RecordRef(e.Writer), e.Why)
}

func refGoneError(w, why string) error { return &RefGoneError{Writer: w, Why: why} }

// lockPath keeps the writer's lock out of the work tree (under
// <common dir>/gitwarrant/locks/).
func (r *Record) lockPath(writer string) string {
	return r.statePath("locks", writer+".lock")
}

// tamperError is a chain file that no longer extends its ref.
func tamperError(rel, ref, what string) error {
	return &tamperErr{msg: fmt.Sprintf("%s no longer extends %s: %s — run `gitwarrant record restore` to bring it back to the ref (the old copy is saved aside)", rel, ref, what)}
}

// tamperErr is a chain file that does not extend its ref. short means the
// file is a strict prefix of the ref: entries were cut, none were changed.
type tamperErr struct {
	msg   string
	short bool
}

func (e *tamperErr) Error() string { return e.msg }

// catchUp commits the legacy chain file's bytes [cr.Size, upTo) — entries
// an earlier version wrote to the file whose ref commits were never made —
// in one commit.
func (r *Record) catchUp(cr *gitx.ChainRef, seg []byte, path, rel string, upTo int64, ident gitx.Identity) (*gitx.ChainRef, error) {
	if upTo <= cr.Size {
		return cr, nil
	}
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
	return r.repo.AppendChain(cr, seg, gitx.ChainCommit{
		Chain: cr.Chain, Lines: lines, Head: last.Hash, Author: ident, When: r.Now(),
		Subject: fmt.Sprintf("warrant: catch up %d entries (#%d..#%d)", len(lines), cr.Lines+1, cr.Lines+int64(len(lines))),
		Body:    "These entries were already on the record in " + rel + "; their own commits were not made.",
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
	var b strings.Builder
	b.Grow(96)
	b.WriteString("warrant: ")
	b.WriteString(e.Kind)
	switch e.Kind {
	case chain.KindCheck:
		b.WriteString(" " + e.Verdict + " " + e.Action + " ")
		b.WriteString(quote(e.Target))
	case chain.KindNote:
		for _, f := range []struct{ k, v string }{{"did", e.Did}, {"saw", e.Saw}, {"skipped", e.Skipped}, {"stopped", e.Stopped}, {"note", e.Note}} {
			if f.v != "" {
				b.WriteString(" " + f.k + " ")
				b.WriteString(quote(f.v))
				break
			}
		}
	}
	b.WriteString(" [" + e.Loop + "] #")
	b.WriteString(strconv.FormatInt(e.Seq, 10))
	return b.String()
}

// quote keeps subjects on one short line. `record log` quotes a field of
// every entry, so the common case — short, printable ASCII, single
// spaces — skips the general path, which gives the same result.
func quote(s string) string {
	if plainShort(s) {
		return `"` + s + `"`
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return strconv.Quote(s)
}

// plainShort reports whether quote(s) is s in double quotes: at most 60
// bytes of printable ASCII other than " and \, no leading, trailing or
// double space.
func plainShort(s string) bool {
	if len(s) > 60 || s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || (c == ' ' && s[i+1] == ' ') {
			return false
		}
	}
	return true
}

var errDiffer = errors.New("content differs")
