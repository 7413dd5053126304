package chain

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
)

// VerifyParallel is VerifyStream at the disk's speed
// (docs/record.md#verification): every line carries its own prev and hash,
// so workers parse and hash lines of 1 MB blocks independently; only the
// links (seq, prev) are checked in order. Memory holds a few blocks, not
// the chain. The result is the same Report VerifyStream gives.
func VerifyParallel(r io.Reader, path string, first int64, prev string) *Report {
	workers := runtime.GOMAXPROCS(0)
	type block struct {
		data  []byte
		line  int // 1-based line number of its first line
		last  bool
		res   []lineResult
		done  chan struct{}
		rdErr error
	}
	blocks := make(chan *block, 2*workers)
	work := make(chan *block, 2*workers)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := newFastHasher()
			for b := range work {
				b.res = hashLines(f, b.data, b.last)
				close(b.done)
			}
		}()
	}
	go func() { // reader: blocks cut after a newline, in order
		defer close(blocks)
		defer close(work)
		const blockSize = 1 << 20
		buf := make([]byte, 0, 2*blockSize)
		line := 1
		for {
			if cap(buf)-len(buf) < blockSize { // a long line: room for more
				buf = append(make([]byte, 0, len(buf)+2*blockSize), buf...)
			}
			n, err := io.ReadFull(r, buf[len(buf):len(buf)+blockSize])
			buf = buf[:len(buf)+n]
			eof := err == io.EOF || err == io.ErrUnexpectedEOF
			if err != nil && !eof {
				b := &block{line: line, rdErr: err, done: make(chan struct{})}
				close(b.done)
				blocks <- b
				return
			}
			cut := len(buf)
			if !eof {
				cut = bytes.LastIndexByte(buf, '\n') + 1
				if cut == 0 && len(buf) <= MaxLine+1 {
					continue // a long line: read on
				}
				if cut == 0 {
					cut = len(buf) // over MaxLine: hashLines reports it
				}
			}
			b := &block{data: buf[:cut], line: line, last: eof, done: make(chan struct{})}
			line += bytes.Count(b.data, []byte("\n"))
			blocks <- b
			work <- b
			buf = append(make([]byte, 0, 2*blockSize), buf[cut:]...) // the block's bytes stay with it
			if eof {
				return
			}
		}
	}()
	rep := &Report{Path: path, LastSeq: first - 1}
	// The links are compared as bytes into the blocks, so no line costs an
	// allocation; the head becomes a string once, at the end.
	prevB := []byte(prev)
	defer func() {
		if rep.Entries > 0 {
			rep.Head = string(prevB)
		}
		for b := range blocks { // drain, so the reader and workers end
			<-b.done
		}
		wg.Wait()
	}()
	for b := range blocks {
		<-b.done
		if b.rdErr != nil {
			return rep.fail(rep.LastSeq+1, b.line, ReasonReadError, b.rdErr.Error())
		}
		for i, lr := range b.res {
			want := rep.LastSeq + 1
			brk := lr.brk
			if brk == nil {
				switch {
				case lr.seq != want:
					brk = &Break{Reason: ReasonSeqGap, Detail: fmt.Sprintf("expected seq %d, found %d", want, lr.seq)}
				case !bytes.Equal(lr.prev, prevB):
					brk = &Break{Reason: ReasonBadPrev, Detail: fmt.Sprintf("expected prev %s, found %q", prevB, lr.prev)}
				default:
					brk = lr.badHash
				}
			}
			if brk != nil {
				brk.Seq, brk.Line = want, b.line+i
				rep.Break = brk
				return rep
			}
			prevB = lr.hash
			rep.Entries++
			rep.LastSeq = want
			rep.Unterminated = !lr.terminated
		}
	}
	return rep
}

// lineResult is one line verified on its own: its seq, prev and hash, or
// why it does not verify (seq and line left for the caller).
type lineResult struct {
	seq        int64
	prev, hash []byte // into the block (the full path's are copies)
	terminated bool
	brk        *Break // the line does not parse
	badHash    *Break // it parses, but its hash is not its fields' hash
}

// hashLines verifies each line of a block against its own prev; last says
// the block ends the stream (its last line may lack a newline).
func hashLines(f *fastHasher, data []byte, last bool) []lineResult {
	out := make([]lineResult, 0, len(data)/400+1)
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line, terminated := data, false
		if i >= 0 {
			line, terminated, data = data[:i], true, data[i+1:]
		} else {
			data = nil
		}
		if fe, ok := f.verify(line); ok && len(line) <= MaxLine {
			out = append(out, lineResult{seq: fe.seq, prev: fe.prev, hash: fe.hash, terminated: terminated})
			continue
		}
		out = append(out, hashLine(line, terminated))
	}
	return out
}

func hashLine(line []byte, terminated bool) lineResult {
	lr := lineResult{terminated: terminated}
	fail := func(reason, detail string) lineResult {
		if !terminated && reason == ReasonUnparsable {
			reason, detail = ReasonTorn, "no trailing newline and "+detail+"; probably an interrupted write"
		}
		lr.brk = &Break{Reason: reason, Detail: detail}
		return lr
	}
	if len(line) > MaxLine {
		return fail(ReasonUnparsable, fmt.Sprintf("line is longer than %d bytes", MaxLine))
	}
	if strings.TrimSpace(string(line)) == "" {
		return fail(ReasonUnparsable, "empty line")
	}
	e, m, err := ParseEntry(line)
	if err != nil {
		return fail(ReasonUnparsable, err.Error())
	}
	lr.seq, lr.prev = e.Seq, []byte(e.Prev)
	got, err := ComputeHash(e.Prev, m)
	if err != nil {
		return fail(ReasonUnparsable, err.Error())
	}
	if e.Hash != got {
		// reported after a bad seq or prev, as Verify does
		lr.badHash = &Break{Reason: ReasonBadHash, Detail: fmt.Sprintf("hash of the entry's fields is %s, line says %q", got, e.Hash)}
	}
	lr.hash = []byte(got)
	return lr
}
