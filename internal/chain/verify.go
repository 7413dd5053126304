package chain

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// ReasonReadError is a Break caused by the reader failing, not by the data.
const ReasonReadError = "read error"

// Verify recomputes the chain read from r (spec "The hash chain";
// docs/design.md#the-record), line by line in constant memory apart from the list of hashes. It
// stops at the first entry that fails: unparsable, seq not previous+1
// (the first must be 1), prev not the previous hash (GENESIS first), or
// hash not the hash of the line's own fields. path only labels the report.
//
// A last line without a newline that fails to parse is ReasonTorn. One that
// parses and verifies counts as verified, but Unterminated is set: Append
// refuses to write after it until a person has looked.
func Verify(r io.Reader, path string) *Report {
	return VerifyFrom(r, path, 1, Genesis)
}

// VerifyFrom is Verify for a run of a chain that starts at entry first,
// after the entry whose hash is prev: a segment of a chain kept in several
// files (docs/record.md#the-branch-copy). LastSeq starts at first-1.
func VerifyFrom(r io.Reader, path string, first int64, prev string) *Report {
	return verify(r, path, first, prev, true)
}

// VerifyStream is VerifyFrom without the list of hashes, in memory that
// does not grow with the chain (docs/record.md#verification).
func VerifyStream(r io.Reader, path string, first int64, prev string) *Report {
	return verify(r, path, first, prev, false)
}

func verify(r io.Reader, path string, first int64, prev string, keepHashes bool) *Report {
	rep := &Report{Path: path, LastSeq: first - 1}
	lr := newLineReader(r)
	f := newFastHasher()
	for lineNo := 1; ; lineNo++ {
		line, terminated, err := lr.next()
		if err == io.EOF {
			return rep
		}
		want := rep.LastSeq + 1
		if err != nil {
			return rep.fail(want, lineNo, ReasonReadError, err.Error())
		}
		var hash string
		var b *Break
		if fe, ok := f.verify(line); ok && fe.seq == want && string(fe.prev) == prev {
			hash = string(fe.hash)
		} else {
			hash, b = checkLine(line, want, prev)
		}
		if b != nil && !terminated && b.Reason == ReasonUnparsable {
			b.Reason = ReasonTorn
			b.Detail = "no trailing newline and " + b.Detail + "; probably an interrupted write"
		}
		if b != nil {
			b.Line = lineNo
			rep.Break = b
			return rep
		}
		prev = hash
		rep.Entries++
		rep.LastSeq = want
		rep.Head = prev
		if keepHashes {
			rep.Hashes = append(rep.Hashes, prev)
		}
		rep.Unterminated = !terminated
	}
}

// checkLine verifies one line that should hold entry want after prev, and
// returns its hash, or the reason it does not verify (Line unset). A nil
// line is one longer than MaxLine.
func checkLine(line []byte, want int64, prev string) (string, *Break) {
	fail := func(reason, detail string) (string, *Break) {
		return "", &Break{Seq: want, Reason: reason, Detail: detail}
	}
	if line == nil {
		return fail(ReasonUnparsable, fmt.Sprintf("line is longer than %d bytes", MaxLine))
	}
	if strings.TrimSpace(string(line)) == "" {
		return fail(ReasonUnparsable, "empty line")
	}
	e, m, err := ParseEntry(line)
	if err != nil {
		return fail(ReasonUnparsable, err.Error())
	}
	if e.Seq != want {
		return fail(ReasonSeqGap, fmt.Sprintf("expected seq %d, found %d", want, e.Seq))
	}
	if e.Prev != prev {
		return fail(ReasonBadPrev, fmt.Sprintf("expected prev %s, found %q", prev, e.Prev))
	}
	got, err := ComputeHash(prev, m)
	if err != nil {
		return fail(ReasonUnparsable, err.Error())
	}
	if e.Hash != got {
		return fail(ReasonBadHash, fmt.Sprintf("hash of the entry's fields is %s, line says %q", got, e.Hash))
	}
	return got, nil
}

func (r *Report) fail(seq int64, line int, reason, detail string) *Report {
	r.Break = &Break{Seq: seq, Line: line, Reason: reason, Detail: detail}
	return r
}

// VerifyFile verifies the chain file at path. A missing or unreadable file
// is an error; a chain that fails is a Report with Break set.
func VerifyFile(path string) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such record file; check the path or run `gitwarrant record log` to list chains", path)
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	return Verify(f, path), nil
}

// HeadStatus says where a pinned head hash sits in the verified part of
// the chain, and its seq (0 when missing). The "sha256:" prefix may be
// omitted. docs/design.md#the-record: present but not last means the chain grew since it
// was pinned; missing means truncation or rewrite.
func (r *Report) HeadStatus(hash string) (HeadStatus, int64) {
	hash = strings.ToLower(strings.TrimSpace(hash))
	if !strings.HasPrefix(hash, "sha256:") {
		hash = "sha256:" + hash
	}
	if r.Entries > 0 && hash == r.Head {
		return HeadIsLast, r.LastSeq
	}
	if r.index == nil || len(r.index) != len(r.Hashes) {
		r.index = make(map[string]int64, len(r.Hashes))
		for i, h := range r.Hashes {
			r.index[h] = int64(i) + 1
		}
	}
	if seq, ok := r.index[hash]; ok {
		return HeadPresent, seq
	}
	return HeadMissing, 0
}

// ReadEntries parses every line of a chain (for `record log`) without
// verifying it. An unparsable line is an error naming its line number.
func ReadEntries(r io.Reader) ([]Entry, error) {
	var out []Entry
	lr := newLineReader(r)
	for lineNo := 1; ; lineNo++ {
		line, _, err := lr.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("line %d: %w", lineNo, err)
		}
		if line == nil {
			return out, fmt.Errorf("line %d: longer than %d bytes; run `gitwarrant record verify`", lineNo, MaxLine)
		}
		e, _, err := ParseEntry(line)
		if err != nil {
			return out, fmt.Errorf("line %d: unparsable entry (%v); run `gitwarrant record verify`", lineNo, err)
		}
		out = append(out, e)
	}
}

// lineReader yields lines up to MaxLine bytes from a stream.
type lineReader struct {
	br  *bufio.Reader
	buf []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64*1024)}
}

// next returns the next line without its newline and whether it had one.
// A line over MaxLine is consumed and returned as nil with a nil error;
// io.EOF means no more lines.
func (lr *lineReader) next() (line []byte, terminated bool, err error) {
	lr.buf = lr.buf[:0]
	tooLong := false
	for {
		chunk, err := lr.br.ReadSlice('\n')
		if !tooLong {
			lr.buf = append(lr.buf, chunk...)
			tooLong = len(lr.buf) > MaxLine+1
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(lr.buf) == 0 && !tooLong:
			return nil, false, io.EOF
		case err != nil && err != io.EOF:
			return nil, false, err
		}
		terminated = err == nil
		if tooLong || len(lr.buf)-boolIntN(terminated) > MaxLine {
			return nil, terminated, nil
		}
		return lr.buf[:len(lr.buf)-boolIntN(terminated)], terminated, nil
	}
}

func boolIntN(b bool) int {
	if b {
		return 1
	}
	return 0
}
