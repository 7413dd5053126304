package chain

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// VerifyParallel is VerifyStream at the disk's speed
// (docs/record.md#verification): every line carries its own prev and hash,
// so workers parse and hash lines of 1 MB blocks independently; only the
// links (seq, prev) are checked in order. Memory holds a few blocks, not
// the chain. The result is the same Report VerifyStream gives.
func VerifyParallel(r io.Reader, path string, first int64, prev string) *Report {
	v := NewParallelVerifier(path, first, prev)
	if _, err := v.ReadFrom(r); err != nil {
		return v.CloseWithError(err)
	}
	return v.Close()
}

// blockSize is how many bytes of whole lines a ParallelVerifier hands a
// worker at a time.
const blockSize = 1 << 20

// ParallelVerifier is VerifyParallel as an io.Writer, for a chain that is
// written rather than read — the record's chain assembled from work-tree
// segments and the ref's chunks — so it reaches the workers without a
// pipe between. Bytes may be written in pieces of any size; after a
// break, writes are accepted and dropped, so a writer that feeds other
// consumers too can run to its end. Block buffers are reused once
// checked, so verifying a chain allocates a few blocks, not the chain.
type ParallelVerifier struct {
	rep    *Report
	cur    *block // being filled: whole lines, then a partial one
	line   int    // the chain line number of cur's first line
	blocks chan *block
	work   chan *block
	free   chan *block
	done   chan struct{} // the checker has returned
	stop   atomic.Bool   // the checker found a break: drop what follows
	wg     sync.WaitGroup
	closed bool
}

type block struct {
	data  []byte
	line  int // 1-based line number of its first line
	last  bool
	res   []lineResult
	done  chan struct{}
	rdErr error
}

// NewParallelVerifier starts verifying a chain, or a run of one starting
// at entry first after the entry whose hash is prev (as VerifyFrom).
// path only labels the report. Close it to get the report.
func NewParallelVerifier(path string, first int64, prev string) *ParallelVerifier {
	workers := runtime.GOMAXPROCS(0)
	v := &ParallelVerifier{
		rep:    &Report{Path: path, LastSeq: first - 1},
		line:   1,
		blocks: make(chan *block, 2*workers),
		work:   make(chan *block, 2*workers),
		free:   make(chan *block, 2*workers+2),
		done:   make(chan struct{}),
	}
	v.cur = v.newBlock()
	for range workers {
		v.wg.Add(1)
		go func() {
			defer v.wg.Done()
			f := newFastHasher()
			for b := range v.work {
				b.res = hashLines(f, b.data, b.last, b.res[:0])
				close(b.done)
			}
		}()
	}
	go v.check(prev)
	return v
}

// newBlock is a recycled block, or a new one.
func (v *ParallelVerifier) newBlock() *block {
	select {
	case b := <-v.free:
		b.data, b.last, b.rdErr, b.done = b.data[:0], false, nil, make(chan struct{})
		return b
	default:
		return &block{data: make([]byte, 0, 2*blockSize), done: make(chan struct{})}
	}
}

// Write takes the next bytes of the chain.
func (v *ParallelVerifier) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && !v.stop.Load() {
		k := min(len(p), blockSize)
		v.cur.data = append(v.cur.data, p[:k]...)
		p = p[k:]
		v.cut(false)
	}
	return n, nil
}

// ReadFrom reads the rest of the chain from r straight into the blocks.
// A read error is returned, not reported: pass it to CloseWithError.
func (v *ParallelVerifier) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	for !v.stop.Load() {
		buf := v.cur.data
		if cap(buf)-len(buf) < blockSize { // a long line: room for more
			buf = append(make([]byte, 0, len(buf)+2*blockSize), buf...)
		}
		n, err := io.ReadFull(r, buf[len(buf):len(buf)+blockSize])
		v.cur.data = buf[:len(buf)+n]
		total += int64(n)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
		v.cut(false)
	}
	return total, nil
}

// cut hands the whole lines of the current block to the workers once it
// holds a block's worth (or all of it at the end), and carries its
// partial last line over to the next block.
func (v *ParallelVerifier) cut(eof bool) {
	if !eof && len(v.cur.data) < blockSize {
		return
	}
	v.cutAt(eof, false)
}

// cutAt hands the current block's whole lines to the workers (all of it at
// the end); whole, it hands them on whatever their size.
func (v *ParallelVerifier) cutAt(eof, whole bool) {
	b := v.cur
	cut := len(b.data)
	if !eof {
		cut = bytes.LastIndexByte(b.data, '\n') + 1
		if cut == 0 && (whole || len(b.data) <= MaxLine+1) {
			return // a long line: read on
		}
		if cut == 0 {
			cut = len(b.data) // over MaxLine: hashLines reports it
		}
	}
	next := v.newBlock()
	next.data = append(next.data, b.data[cut:]...)
	b.data, b.line, b.last = b.data[:cut], v.line, eof
	v.line += bytes.Count(b.data, []byte("\n"))
	v.cur = next
	v.blocks <- b
	v.work <- b
}

// Close verifies what is left and returns the report.
func (v *ParallelVerifier) Close() *Report {
	if !v.closed && !v.stop.Load() {
		v.cut(true)
	}
	return v.finish()
}

// CloseWithError ends the chain with a read error: the whole lines
// before it are verified, and the entry after them is a ReasonReadError
// break (as Verify reports a reader that fails).
func (v *ParallelVerifier) CloseWithError(err error) *Report {
	if !v.closed && !v.stop.Load() {
		v.cutAt(false, true)
		b := &block{line: v.line, rdErr: err, done: make(chan struct{})}
		close(b.done)
		v.blocks <- b
	}
	return v.finish()
}

func (v *ParallelVerifier) finish() *Report {
	if !v.closed {
		v.closed = true
		close(v.blocks)
		close(v.work)
	}
	<-v.done
	v.wg.Wait()
	return v.rep
}

// check takes the blocks in order, checks their links and recycles them.
// The links are compared as bytes into the blocks, so no line costs an
// allocation; the head becomes a string once, at the end.
func (v *ParallelVerifier) check(prev string) {
	defer close(v.done)
	rep := v.rep
	prevB := []byte(prev)
	head := make([]byte, 0, 80) // prevB, kept past its block's reuse
	defer func() {
		if rep.Entries > 0 {
			rep.Head = string(prevB)
		}
		for b := range v.blocks { // drain, so the writer and workers end
			<-b.done
		}
	}()
	for b := range v.blocks {
		<-b.done
		if b.rdErr != nil {
			rep.fail(rep.LastSeq+1, b.line, ReasonReadError, b.rdErr.Error())
			v.stop.Store(true)
			return
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
				v.stop.Store(true)
				return
			}
			prevB = lr.hash
			rep.Entries++
			rep.LastSeq = want
			rep.Unterminated = !lr.terminated
		}
		head = append(head[:0], prevB...)
		prevB = head
		select { // its bytes are checked: the block can be filled again
		case v.free <- b:
		default:
		}
	}
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
func hashLines(f *fastHasher, data []byte, last bool, out []lineResult) []lineResult {
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
