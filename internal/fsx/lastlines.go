package fsx

import (
	"bytes"
	"io"
)

// ReadLastLines reads f, of size bytes (a log), whole when it holds at
// most limit bytes; else the whole lines among its last limit bytes.
func ReadLastLines(f io.ReaderAt, size, limit int64) ([]byte, error) {
	from := max(size-limit, 0)
	if from > 0 {
		from-- // the byte before says whether from starts a line
	}
	b := make([]byte, size-from)
	n, err := f.ReadAt(b, from)
	if err != nil && err != io.EOF {
		return nil, err
	}
	b = b[:n]
	if size > limit {
		_, b, _ = bytes.Cut(b, []byte("\n"))
	}
	return b, nil
}
