package gitx

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// BlobTail streams blob id from byte offset on to fn, line by line,
// without holding the blob in memory: a loose blob is inflated in process,
// a packed one through `git cat-file`.
func (r *Repo) BlobTail(id string, offset int64, fn func(line []byte) error) error {
	// Small loose blobs are inflated in process (no process to start);
	// git's C zlib inflates large ones faster than compress/zlib.
	if rc, size, err := r.openLoose(id); err == nil {
		defer rc.Close()
		if size <= maxInProcessBlob {
			return scanFrom(rc, offset, fn)
		}
	}
	cmd := exec.Command("git", "cat-file", "blob", id)
	cmd.Dir = r.WorkTree
	var se bytes.Buffer
	cmd.Stderr = &se
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	ferr := scanFrom(out, offset, fn)
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git cat-file blob %s: %s", id, strings.TrimSpace(se.String()))
	}
	return ferr
}

// maxInProcessBlob is the largest loose blob BlobTail inflates itself.
const maxInProcessBlob = 8 << 20

// scanFrom skips offset bytes of rd, then calls fn on each line.
func scanFrom(rd io.Reader, offset int64, fn func([]byte) error) error {
	if _, err := io.CopyN(io.Discard, rd, offset); err != nil {
		return err
	}
	br := bufio.NewReaderSize(rd, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if ferr := fn(bytes.TrimSuffix(line, []byte("\n"))); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// FileTail is BlobTail for a file in the work tree.
func FileTail(path string, offset int64, fn func(line []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return err
	}
	return scanFrom(f, 0, fn)
}
