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
	h, err := cr.id(i)
	if err != nil {
		return nil, err
	}
	b, err := cr.r.readTyped(h, typeBlob)
	if err != nil {
		dir, file := segPath(i)
		return nil, fmt.Errorf("record segment %s/%s: %w", dir, file, err)
	}
	return b, nil
}

// id is chunk i's blob id, read from the trees alone.
func (cr *chunkReader) id(i int64) (plumbing.Hash, error) {
	dir, file := segPath(i)
	if dir != cr.dirName {
		sub, ok := cr.root[dir]
		if !ok {
			return plumbing.ZeroHash, fmt.Errorf("record tree has no segment %s/%s: the ref was written by hand", dir, file)
		}
		entries, err := cr.r.treeEntries(sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		cr.dirName, cr.dir = dir, entries
	}
	h, ok := cr.dir[file]
	if !ok {
		return plumbing.ZeroHash, fmt.Errorf("record tree has no segment %s/%s: the ref was written by hand", dir, file)
	}
	return h, nil
}

// Chunks reads a record ref's content chunk by chunk (SegmentLines lines
// each), or only the chunks' blob ids, for `record verify`
// (docs/record.md#verification).
type Chunks struct {
	cr *chunkReader
	// N is the number of chunks.
	N int64
}

// Chunks opens the ref's chunks.
func (r *Repo) Chunks(c *ChainRef) (*Chunks, error) {
	cr, err := r.newChunkReader(c)
	if err != nil {
		return nil, err
	}
	return &Chunks{cr: cr, N: (c.Lines + SegmentLines - 1) / SegmentLines}, nil
}

// ID is chunk i's blob id (0-based), read from the trees alone.
func (ch *Chunks) ID(i int64) (plumbing.Hash, error) { return ch.cr.id(i) }

// Read is chunk i's content.
func (ch *Chunks) Read(i int64) ([]byte, error) { return ch.cr.chunk(i) }

// BlobID is Git's id of a blob holding data: equal ids, equal content.
func BlobID(data []byte) plumbing.Hash { return objectID(typeBlob, data) }

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
