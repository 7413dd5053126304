package gitx

import (
	"bytes"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
)

// chunkReader reads a record ref's chunks in order, parsing each directory
// tree once (a directory holds SegmentsPerDir chunks).
type chunkReader struct {
	r       *Repo
	root    map[string]plumbing.Hash
	dirName string
	dir     map[string]plumbing.Hash
}

func (r *Repo) newChunkReader(c *ChainRef) (*chunkReader, error) {
	root, err := r.treeEntries(c.root)
	if err != nil {
		return nil, err
	}
	return &chunkReader{r: r, root: root}, nil
}

func (cr *chunkReader) chunk(i int64) ([]byte, error) {
	dir, file := segPath(i)
	if dir != cr.dirName {
		sub, ok := cr.root[dir]
		if !ok {
			return nil, fmt.Errorf("record tree has no segment %s/%s: the ref was written by hand", dir, file)
		}
		entries, err := cr.r.treeEntries(sub)
		if err != nil {
			return nil, err
		}
		cr.dirName, cr.dir = dir, entries
	}
	h, ok := cr.dir[file]
	if !ok {
		return nil, fmt.Errorf("record tree has no segment %s/%s: the ref was written by hand", dir, file)
	}
	b, err := cr.r.readTyped(h, typeBlob)
	if err != nil {
		return nil, fmt.Errorf("record segment %s/%s: %w", dir, file, err)
	}
	return b, nil
}

// WriteRange writes the ref's lines from..to (1-based, inclusive) to w,
// reading only the chunks that hold them.
func (r *Repo) WriteRange(c *ChainRef, from, to int64, w io.Writer) error {
	if from < 1 || to > c.Lines || from > to {
		return fmt.Errorf("%s holds lines 1..%d, not %d..%d", c.Name, c.Lines, from, to)
	}
	cr, err := r.newChunkReader(c)
	if err != nil {
		return err
	}
	for i := (from - 1) / SegmentLines; i <= (to-1)/SegmentLines; i++ {
		b, err := cr.chunk(i)
		if err != nil {
			return err
		}
		first := i*SegmentLines + 1 // line number of b's first line
		lo, hi := max(from, first), min(to, first+SegmentLines-1)
		b = lineSlice(b, lo-first, hi-first+1)
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// ReadRange is WriteRange into memory (for at most a segment's worth).
func (r *Repo) ReadRange(c *ChainRef, from, to int64) ([]byte, error) {
	var b bytes.Buffer
	err := r.WriteRange(c, from, to, &b)
	return b.Bytes(), err
}

// lineSlice returns lines [a, b) (0-based) of chunk, newlines included.
func lineSlice(chunk []byte, a, b int64) []byte {
	start, n := 0, int64(0)
	for n < a {
		i := bytes.IndexByte(chunk[start:], '\n')
		if i < 0 {
			return nil
		}
		start += i + 1
		n++
	}
	end := start
	for n < b {
		i := bytes.IndexByte(chunk[end:], '\n')
		if i < 0 {
			end = len(chunk)
			break
		}
		end += i + 1
		n++
	}
	return chunk[start:end]
}
