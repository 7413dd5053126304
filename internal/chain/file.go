package chain

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// MaxLine is the longest line, in bytes without its newline, that Verify
// reads; Append refuses to write a longer one.
const MaxLine = 1 << 20

// tailBlock is the size of each backwards read when looking for the last line.
const tailBlock = 4096

// TSLayout is the entry timestamp format: RFC 3339, UTC, milliseconds, as in
// the spec's example ("2026-07-03T10:15:00.000Z").
const TSLayout = "2006-01-02T15:04:05.000Z"

// TornError reports a chain file whose last line lacks its newline: an
// interrupted write, or an edit. gitwarrant never repairs it silently
// (docs/design.md#the-record); a person inspects it.
type TornError struct {
	Path string
	Line int
}

func (e *TornError) Error() string {
	return fmt.Sprintf("%s:%d: last line is torn (no trailing newline), probably an interrupted write; refusing to append after it. Inspect that line and run `gitwarrant record verify`", e.Path, e.Line)
}

// Append implements Appender. Under an exclusive lock on LockPath it reads
// only the tail of the chain (O(1) in its size, docs/design.md#the-record), fills Seq, Prev,
// TS (if empty) and Hash, writes the line with one write call, fsyncs, and
// unlocks.
func (c *File) Append(e Entry) (Entry, error) {
	if e.Kind == "" {
		return Entry{}, fmt.Errorf("append to %s: entry has no kind; set Kind (e.g. %q)", c.Path, KindNote)
	}
	unlock, err := c.lock()
	if err != nil {
		return Entry{}, err
	}
	defer unlock()

	f, created, err := openChain(c.Path)
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	last, _, err := readTail(f, c.Path)
	if err != nil {
		return Entry{}, err
	}
	line, e, err := c.seal(e, last)
	if err != nil {
		if created {
			// Nothing was written: leave no empty chain behind (a refused
			// signature changes nothing, docs/signing.md#amending-a-loop-file).
			os.Remove(c.Path)
		}
		return Entry{}, err
	}
	if err := writeLine(f, c.Path, line, created); err != nil {
		return Entry{}, err
	}
	return e, nil
}

// lock takes the chain's lock (LockPath, default Path + ".lock").
func (c *File) lock() (func(), error) {
	path := c.LockPath
	if path == "" {
		path = c.Path + ".lock"
	}
	return Lock(path)
}

// openChain opens (creating as needed) the chain file for appending.
func openChain(path string) (f *os.File, created bool, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, false, fmt.Errorf("create directory for %s: %w", path, err)
	}
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		created = true
	}
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("open %s: %w; check the file's permissions", path, err)
	}
	return f, created, nil
}

// seal fills the chain fields of e after last (nil for an empty chain) and
// returns the exact line to write, newline included.
func (c *File) seal(e Entry, last *Entry) ([]byte, Entry, error) {
	e.Seq, e.Prev = 1, Genesis
	if last != nil {
		e.Seq, e.Prev = last.Seq+1, last.Hash
	}
	if e.TS == "" {
		now := time.Now
		if c.Now != nil {
			now = c.Now
		}
		e.TS = now().UTC().Format(TSLayout)
	}
	if c.Prepare != nil {
		pos := e
		var err error
		if e, err = c.Prepare(e); err != nil {
			return nil, Entry{}, err
		}
		if e.Seq != pos.Seq || e.Prev != pos.Prev || e.TS != pos.TS {
			return nil, Entry{}, fmt.Errorf("append to %s: preparing the entry changed its seq, prev or ts", c.Path)
		}
	}
	line, e, err := Seal(e)
	if err != nil {
		return nil, Entry{}, fmt.Errorf("append to %s: %w", c.Path, err)
	}
	if len(line) > MaxLine {
		return nil, Entry{}, fmt.Errorf("append to %s: entry is %d bytes, over the %d-byte line limit; shorten its fields", c.Path, len(line), MaxLine)
	}
	return append(line, '\n'), e, nil
}

// writeLine writes line with a single write call so a crash leaves at most
// one torn last line (docs/design.md#the-record), then makes it durable.
func writeLine(f *os.File, path string, line []byte, created bool) error {
	n, err := f.Write(line)
	if err != nil || n != len(line) {
		return fmt.Errorf("%s: write failed after %d of %d bytes (%v); the last line may be torn — run `gitwarrant record verify`", path, n, len(line), err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("%s: fsync failed: %w; the entry may not survive a crash — check the disk", path, err)
	}
	if created {
		// A new file's directory entry must be durable too.
		if d, err := os.Open(filepath.Dir(path)); err == nil {
			d.Sync()
			d.Close()
		}
	}
	return nil
}

// Tail returns the last entry of the chain at path, reading only the end of
// the file. ok is false when the file is missing or empty. A torn or
// unparsable last line is an error.
func Tail(path string) (e Entry, ok bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return Entry{}, false, nil
	}
	if err != nil {
		return Entry{}, false, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	last, _, err := readTail(f, path)
	if err != nil || last == nil {
		return Entry{}, false, err
	}
	return *last, true, nil
}

// readTail parses the last line of f. It returns nil for an empty file, and
// the file's size.
func readTail(f *os.File, path string) (*Entry, int64, error) {
	line, size, err := lastLine(f, path)
	if err != nil || size == 0 {
		return nil, size, err
	}
	e, _, err := ParseEntry(line)
	if err != nil {
		return nil, size, fmt.Errorf("%s: last line is unparsable (%v); refusing to append after it. Inspect it and run `gitwarrant record verify`", path, err)
	}
	if e.Hash == "" {
		return nil, size, fmt.Errorf("%s: last entry (seq %d) has no hash; refusing to append after it. Run `gitwarrant record verify`", path, e.Seq)
	}
	return &e, size, nil
}

// lastLine returns the last line of f without its newline, reading
// backwards from the end in tailBlock steps, so its cost does not grow with
// the file. A file not ending in "\n" has a torn last line: a *TornError.
func lastLine(f *os.File, path string) ([]byte, int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, fmt.Errorf("stat %s: %w", path, err)
	}
	size := fi.Size()
	if size == 0 {
		return nil, 0, nil
	}
	end := size - 1 // index of the final newline
	var tail []byte
	for pos := end; ; {
		start := max(pos-tailBlock, 0)
		block := make([]byte, pos-start+boolInt(pos == end))
		if _, err := f.ReadAt(block, start); err != nil && err != io.EOF {
			return nil, size, fmt.Errorf("read %s: %w", path, err)
		}
		tail = append(block, tail...)
		if pos == end && tail[len(tail)-1] != '\n' {
			return nil, size, &TornError{Path: path, Line: countLines(f) + 1}
		}
		if i := bytes.LastIndexByte(tail[:len(tail)-1], '\n'); i >= 0 {
			return tail[i+1 : len(tail)-1], size, nil
		}
		if start == 0 {
			return tail[:len(tail)-1], size, nil
		}
		if len(tail) > MaxLine+1 {
			return nil, size, fmt.Errorf("%s: last line is longer than %d bytes; refusing to append after it. Run `gitwarrant record verify`", path, MaxLine)
		}
		pos = start
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// countLines counts newlines in f. It reads the whole file, so it runs only
// to name the line in an error.
func countLines(f *os.File) int {
	n := 0
	buf := make([]byte, 64*1024)
	for off := int64(0); ; {
		k, err := f.ReadAt(buf, off)
		n += bytes.Count(buf[:k], []byte{'\n'})
		off += int64(k)
		if err != nil {
			return n
		}
	}
}
