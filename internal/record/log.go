package record

import (
	"bufio"
	"bytes"
	"container/heap"
	"fmt"
	"io"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// LogFilter selects entries for `record log`; empty fields match all.
type LogFilter struct {
	Loop, Verdict, Via string
	Since              string // entries with ts >= Since (same layout as ts)
}

func (f LogFilter) match(e *chain.Entry) bool {
	return (f.Loop == "" || e.Loop == f.Loop) && (f.Verdict == "" || e.Verdict == f.Verdict) &&
		(f.Via == "" || e.Via == f.Via) && (f.Since == "" || e.TS >= f.Since)
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
		its = append(its, &streamIter{name: s.Name, path: s.Path, br: bufio.NewReaderSize(rc, 256<<10), f: f})
	}
	return merge(its, emit)
}

// tailMatching reads a source's tail in growing windows until it holds n
// matching entries or the whole chain.
func (r *Record) tailMatching(s Source, f LogFilter, n int64) ([]LoggedEntry, error) {
	for window := max(n, 64); ; window *= 4 {
		b, err := r.Tail(s, window)
		if err != nil {
			return nil, err
		}
		var out []LoggedEntry
		lines := splitLines(b)
		for _, l := range lines {
			e, err := chain.DecodeEntry(bytes.TrimSuffix(l, []byte("\n")))
			if err != nil {
				return nil, fmt.Errorf("%s: unparsable entry (%v) — run `gitwarrant record verify`", s.Path, err)
			}
			if f.match(&e) {
				out = append(out, LoggedEntry{Chain: s.Name, Entry: e})
			}
		}
		all := s.Lines() >= 0 && window >= s.Lines() || int64(len(lines)) < window
		if int64(len(out)) >= n || all {
			if int64(len(out)) > n {
				out = out[int64(len(out))-n:]
			}
			return out, nil
		}
	}
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
	line       int
}

func (s *streamIter) next() (LoggedEntry, bool, error) {
	for {
		l, err := s.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			rest, err2 := s.br.ReadBytes('\n')
			l, err = append(append([]byte(nil), l...), rest...), err2
		}
		if len(l) == 0 && err == io.EOF {
			return LoggedEntry{}, false, nil
		}
		if err != nil && err != io.EOF {
			return LoggedEntry{}, false, err
		}
		s.line++
		e, perr := chain.DecodeEntry(bytes.TrimSuffix(l, []byte("\n")))
		if perr != nil {
			return LoggedEntry{}, false, fmt.Errorf("%s: line %d: unparsable entry (%v) — run `gitwarrant record verify`", s.path, s.line, perr)
		}
		if s.f.match(&e) {
			return LoggedEntry{Chain: s.name, Entry: e}, true, nil
		}
	}
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
