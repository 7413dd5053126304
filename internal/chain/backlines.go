package chain

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// backBlock is the size of each backwards read of BackLines: about 140
// entries of the ~470 bytes an entry takes, so `record log -n 20` reads
// one block.
const backBlock = 64 << 10

// BackLines reads a chain's lines from its end: the bytes of its files
// concatenated in order, read backwards a block at a time, so reading the
// last lines costs their bytes, not the chain's
// (docs/record.md#reading-the-record). Lines are split as a forward read
// splits them: after each "\n", which stays on its line, and any bytes
// after the last "\n" are one more line (a torn last line, or a file
// without its final newline). Close it when done.
type BackLines struct {
	files []string
	i     int      // files[i] is being read; len(files) before the first read
	f     *os.File // files[i], open
	off   int64    // how many bytes of files[i] are not read yet
	buf   []byte   // read and not yet returned: the chain's bytes just before what Prev returned
}

// NewBackLines reads the chain made of files, in order, from its end.
func NewBackLines(files []string) *BackLines {
	return &BackLines{files: files, i: len(files)}
}

// Prev returns the line before the one it returned last (the last line on
// the first call), with its newline if it has one. At the start of the
// chain it returns io.EOF. The bytes stay valid after later calls.
func (b *BackLines) Prev() ([]byte, error) {
	for {
		if n := len(b.buf); n > 0 {
			// The line ends at the end of buf; it starts after the
			// newline before its own.
			if j := bytes.LastIndexByte(b.buf[:n-1], '\n'); j >= 0 {
				line := b.buf[j+1:]
				b.buf = b.buf[:j+1]
				return line, nil
			}
		}
		more, err := b.fill()
		if err != nil {
			return nil, err
		}
		if !more {
			if len(b.buf) == 0 {
				return nil, io.EOF
			}
			line := b.buf
			b.buf = nil
			return line, nil
		}
	}
}

// fill reads the block before buf into a new array in front of it (the
// lines already returned keep theirs). It reports false at the chain's
// start.
func (b *BackLines) fill() (bool, error) {
	for b.off == 0 {
		if b.f != nil {
			b.f.Close()
			b.f = nil
		}
		if b.i == 0 {
			return false, nil
		}
		b.i--
		f, err := os.Open(b.files[b.i])
		if err != nil {
			return false, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return false, fmt.Errorf("stat %s: %w", b.files[b.i], err)
		}
		b.f, b.off = f, fi.Size()
	}
	k := min(b.off, backBlock)
	block := make([]byte, k, k+int64(len(b.buf)))
	if _, err := b.f.ReadAt(block, b.off-k); err != nil {
		// A file cut while read: io.EOF before the size Stat gave.
		return false, fmt.Errorf("read %s: %w", b.files[b.i], err)
	}
	b.off -= k
	b.buf = append(block, b.buf...)
	return true, nil
}

// Close closes the file being read.
func (b *BackLines) Close() error {
	if b.f == nil {
		return nil
	}
	err := b.f.Close()
	b.f = nil
	return err
}
