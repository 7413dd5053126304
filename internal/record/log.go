package record

import (
	"bufio"
	"bytes"
	"container/heap"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// LogFilter selects entries for `record log`; empty fields match all.
type LogFilter struct {
	Loop, Verdict, Via string
	Since              string // entries with ts >= Since (same layout as ts)
}

func (f LogFilter) match(e *chain.Entry) bool {
	return (f.Loop == "" || e.Loop == f.Loop) && (f.Verdict == "" || e.Verdict == f.Verdict) &&
		f.viaMatch(e.Via) && (f.Since == "" || e.TS >= f.Since)
}

// viaMatch: "hook" selects every agent hook's entries — Claude Code's
// ("hook") and the other clients' ("hook codex" …, docs/agents.md#the-record).
func (f LogFilter) viaMatch(via string) bool {
	return f.Via == "" || via == f.Via || f.Via == "hook" && strings.HasPrefix(via, "hook ")
}

// Log emits the entries of every chain that match f, merged by time (ties:
// chain, then seq) with a k-way merge of the chains' streams, never
// holding a chain in memory (docs/record.md#reading-the-record). With
// n > 0 only the last n are emitted, read from the chains' tails.
func (r *Record) Log(f LogFilter, n int, emit func(LoggedEntry) error) error {
	srcs, err := r.Sources()
	if err != nil {
		return err
	}
	var its []entryIter
	if n > 0 {
		for _, s := range srcs {
			es, err := r.tailMatching(s, f, int64(n))
			if err != nil {
				return err
			}
			its = append(its, &sliceIter{es: es})
		}
		var last []LoggedEntry
		err := merge(its, func(e LoggedEntry) error {
			last = append(last, e)
			if len(last) > 2*n {
				last = append(last[:0], last[len(last)-n:]...)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(last) > n {
			last = last[len(last)-n:]
		}
		for _, e := range last {
			if err := emit(e); err != nil {
				return err
			}
		}
		return nil
	}
	for _, s := range srcs {
		rc := r.OpenSource(s)
		defer rc.Close()
		// Each chain is read and decoded ahead on a goroutine of its own
		// while the entries are formatted here: a million entries to
		// /dev/null took 2.0 s on one CPU, twice what verify takes on two.
		p := prefetch(&streamIter{name: s.Name, path: s.Path, br: bufio.NewReaderSize(rc, 256<<10), f: f})
		defer p.stop() // before rc.Close: the goroutine reads rc
		its = append(its, p)
	}
	return merge(its, emit)
}

// prefetchIter reads a chain ahead: one goroutine reads its lines in
// batches, workers on every CPU decode and filter the batches, and next
// hands the entries out in the chain's order — so reading, decoding and
// formatting overlap.
type prefetchIter struct {
	queue  chan chan logBatch // the batches' results, in chain order
	done   chan struct{}
	wg     sync.WaitGroup
	cur    []LoggedEntry
	err    error
	closed bool
}

type logBatch struct {
	es  []LoggedEntry
	err error
}

type logJob struct {
	lines [][]byte
	first int // the chain line number of lines[0]
	res   chan logBatch
}

const prefetchBatch = 512

func prefetch(s *streamIter) *prefetchIter {
	p := &prefetchIter{queue: make(chan chan logBatch, 8), done: make(chan struct{})}
	jobs := make(chan logJob, 8)
	workers := max(1, runtime.GOMAXPROCS(0))
	p.wg.Add(1 + workers)
	for range workers {
		go func() {
			defer p.wg.Done()
			for j := range jobs {
				j.res <- s.decode(j.lines, j.first)
			}
		}()
	}
	go func() {
		defer p.wg.Done()
		defer close(p.queue)
		defer close(jobs)
		line := 1
		send := func(res chan logBatch) bool {
			select {
			case p.queue <- res:
				return true
			case <-p.done:
				return false
			}
		}
		for {
			lines, err := s.readLines(prefetchBatch)
			if len(lines) > 0 {
				res := make(chan logBatch, 1)
				select {
				case jobs <- logJob{lines: lines, first: line, res: res}:
				case <-p.done:
					return
				}
				if !send(res) {
					return
				}
				line += len(lines)
			}
			if err != nil {
				res := make(chan logBatch, 1)
				res <- logBatch{err: fmt.Errorf("%s: %v", s.path, err)}
				send(res)
				return
			}
			if len(lines) < prefetchBatch {
				return // the end of the chain
			}
		}
	}()
	return p
}

// readLines reads up to n lines (without their newlines); err is io.EOF
// only when no line is left.
func (s *streamIter) readLines(n int) ([][]byte, error) {
	var out [][]byte
	for len(out) < n {
		l, err := s.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			rest, err2 := s.br.ReadBytes('\n')
			l, err = append(append([]byte(nil), l...), rest...), err2
		} else {
			l = append([]byte(nil), l...)
		}
		if len(l) > 0 {
			out = append(out, bytes.TrimSuffix(l, []byte("\n")))
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// decode decodes and filters a batch of lines, first being the chain line
// number of the first.
func (s *streamIter) decode(lines [][]byte, first int) logBatch {
	es := make([]LoggedEntry, 0, len(lines))
	for i, l := range lines {
		e, err := chain.DecodeEntry(l)
		if err != nil {
			return logBatch{es: es, err: fmt.Errorf("%s: line %d: unparsable entry (%v) — run `gitwarrant record verify`", s.path, first+i, err)}
		}
		if s.f.match(&e) {
			es = append(es, LoggedEntry{Chain: s.name, Entry: e})
		}
	}
	return logBatch{es: es}
}

func (p *prefetchIter) next() (LoggedEntry, bool, error) {
	for {
		if len(p.cur) > 0 {
			e := p.cur[0]
			p.cur = p.cur[1:]
			return e, true, nil
		}
		if p.err != nil || p.closed {
			return LoggedEntry{}, false, p.err
		}
		res, ok := <-p.queue
		if !ok {
			p.closed = true
			continue
		}
		b := <-res
		p.cur, p.err = b.es, b.err
	}
}

// stop ends the goroutines (a reader that stopped early, an output that
// failed) and waits for them, so the source can be closed after.
func (p *prefetchIter) stop() {
	close(p.done)
	p.wg.Wait()
}

// tailMatching reads a source's tail in growing windows — max(n, 64)
// lines, then four times as many — until it holds n matching entries or
// the whole chain. Every line of the windows read is decoded, so an
// unparsable line among them is reported in either layout.
func (r *Record) tailMatching(s Source, f LogFilter, n int64) ([]LoggedEntry, error) {
	if s.Ref == nil {
		return r.fileTailMatching(s, f, n)
	}
	if s.Ref.Lines == 0 {
		return nil, nil
	}
	for window := max(n, 64); ; window *= 4 {
		b, err := r.repo.ReadRange(s.Ref, max(1, s.Ref.Lines-window+1), s.Ref.Lines)
		if err != nil {
			return nil, err
		}
		var out []LoggedEntry
		for _, l := range splitLines(b) {
			e, err := decodeTail(s, l)
			if err != nil {
				return nil, err
			}
			if f.match(&e) {
				out = append(out, LoggedEntry{Chain: s.Name, Entry: e})
			}
		}
		if int64(len(out)) >= n || window >= s.Ref.Lines {
			if int64(len(out)) > n {
				out = out[int64(len(out))-n:]
			}
			return out, nil
		}
	}
}

// fileTailMatching is tailMatching for a file chain (docket's file, a
// chain outside Git, a folder with no ref): its lines are read from the
// end (chain.BackLines), so -n costs the tail's bytes, not the chain's,
// and holds at most n entries.
func (r *Record) fileTailMatching(s Source, f LogFilter, n int64) ([]LoggedEntry, error) {
	bl := chain.NewBackLines(r.sourceFiles(s))
	defer bl.Close()
	var rev []LoggedEntry // the last matching entries, last first
	read := int64(0)
	for window := max(n, 64); int64(len(rev)) < n; window *= 4 {
		for ; read < window; read++ {
			l, err := bl.Prev()
			if err == io.EOF {
				return reverse(rev), nil
			}
			if err != nil {
				return nil, err
			}
			e, err := decodeTail(s, l)
			if err != nil {
				return nil, err
			}
			if int64(len(rev)) < n && f.match(&e) {
				rev = append(rev, LoggedEntry{Chain: s.Name, Entry: e})
			}
		}
	}
	return reverse(rev), nil
}

// decodeTail decodes one line of a chain's tail.
func decodeTail(s Source, l []byte) (chain.Entry, error) {
	e, err := chain.DecodeEntry(bytes.TrimSuffix(l, []byte("\n")))
	if err != nil {
		return e, fmt.Errorf("%s: unparsable entry (%v) — run `gitwarrant record verify`", s.Path, err)
	}
	return e, nil
}

func reverse(es []LoggedEntry) []LoggedEntry {
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es
}

type entryIter interface {
	next() (LoggedEntry, bool, error)
}

type sliceIter struct{ es []LoggedEntry }

func (s *sliceIter) next() (LoggedEntry, bool, error) {
	if len(s.es) == 0 {
		return LoggedEntry{}, false, nil
	}
	e := s.es[0]
	s.es = s.es[1:]
	return e, true, nil
}

type streamIter struct {
	name, path string
	br         *bufio.Reader
	f          LogFilter
}

// merge is a k-way merge by (ts, chain, seq) of sorted iterators.
func merge(its []entryIter, emit func(LoggedEntry) error) error {
	h := &entryHeap{}
	for _, it := range its {
		e, ok, err := it.next()
		if err != nil {
			return err
		}
		if ok {
			h.items = append(h.items, heapItem{e, it})
		}
	}
	heap.Init(h)
	for h.Len() > 0 {
		top := h.items[0]
		if err := emit(top.e); err != nil {
			return err
		}
		e, ok, err := top.it.next()
		if err != nil {
			return err
		}
		if ok {
			h.items[0].e = e
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return nil
}

type heapItem struct {
	e  LoggedEntry
	it entryIter
}

type entryHeap struct{ items []heapItem }

func (h *entryHeap) Len() int { return len(h.items) }
func (h *entryHeap) Less(i, j int) bool {
	a, b := h.items[i].e, h.items[j].e
	if a.TS != b.TS {
		return a.TS < b.TS
	}
	if a.Chain != b.Chain {
		return a.Chain < b.Chain
	}
	return a.Seq < b.Seq
}
func (h *entryHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *entryHeap) Push(x any)    { h.items = append(h.items, x.(heapItem)) }
func (h *entryHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
