package gitx

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// A long-running `git cat-file --batch` serves the packed objects of the
// CI gate, which reads many (a clone is all packs): Git inflates a clone's deep delta chains in C, in its own
// process, while this one works. Measured on the CI gate's repository
// (bench/ci.sh: a 52 MB pack, trees and segment files 30 to 46 deltas
// deep), the gate took 34 ms through git and 41 ms reading the same
// objects in process (docs/record.md#reading-packs), in the same run.
// Loose objects are still read in process: no round trip.
type catBatch struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	err error // the process failed: later reads go in process
}

// StartBatch routes the reads of packed objects through one `git cat-file
// --batch` until StopBatch, and reports whether it started one (false
// when one runs already: its starter stops it). A failure to start leaves
// reads in process.
func (r *Repo) StartBatch() bool {
	if r.batch != nil {
		return false
	}
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = r.WorkTree
	in, err := cmd.StdinPipe()
	if err != nil {
		return false
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return false
	}
	if err := cmd.Start(); err != nil {
		return false
	}
	r.batch = &catBatch{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}
	return true
}

// StopBatch ends the process StartBatch started.
func (r *Repo) StopBatch() {
	b := r.batch
	if b == nil {
		return
	}
	r.batch = nil
	b.in.Close()
	io.Copy(io.Discard, b.out)
	b.cmd.Wait()
}

// blobs reads many blobs in one exchange (the requests written while the
// answers are read, so neither pipe fills), calling fn on each as it
// arrives; ok is false when the process cannot answer. Missing ids and
// other types are left out.
func (b *catBatch) blobs(ids []string, fn func(id string, data []byte)) (map[string][]byte, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return nil, false
	}
	werr := make(chan error, 1)
	go func() {
		var sb strings.Builder
		for _, id := range ids {
			sb.WriteString(id + "\n")
		}
		_, err := io.WriteString(b.in, sb.String())
		werr <- err
	}()
	out := map[string][]byte{}
	for _, id := range ids {
		hdr, err := b.out.ReadString('\n')
		if err != nil {
			b.err = err
			return nil, false
		}
		f := strings.Fields(hdr)
		if len(f) == 2 && f[1] == "missing" && f[0] == id {
			continue
		}
		n, perr := 0, error(nil)
		if len(f) == 3 {
			n, perr = strconv.Atoi(f[2])
		}
		if len(f) != 3 || f[0] != id || perr != nil || n < 0 {
			b.err = fmt.Errorf("git cat-file --batch: unexpected header %q", hdr)
			return nil, false
		}
		data := make([]byte, n+1)
		if _, err := io.ReadFull(b.out, data); err != nil {
			b.err = err
			return nil, false
		}
		if f[1] == typeBlob {
			out[id] = data[:n]
			if fn != nil {
				fn(id, data[:n])
			}
		}
	}
	if err := <-werr; err != nil {
		b.err = err
		return nil, false
	}
	return out, true
}

// get reads one object; ok is false when the process cannot answer (the
// caller then reads in process).
func (b *catBatch) get(h plumbing.Hash) (typ string, data []byte, ok bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return "", nil, false, nil
	}
	if _, err := io.WriteString(b.in, h.String()+"\n"); err != nil {
		b.err = err
		return "", nil, false, nil
	}
	hdr, err := b.out.ReadString('\n')
	if err != nil {
		b.err = err
		return "", nil, false, nil
	}
	f := strings.Fields(hdr)
	if len(f) == 2 && f[1] == "missing" {
		return "", nil, true, fmt.Errorf("object %s: %w", short(h), plumbing.ErrObjectNotFound)
	}
	n, perr := 0, error(nil)
	if len(f) == 3 {
		n, perr = strconv.Atoi(f[2])
	}
	if len(f) != 3 || f[0] != h.String() || perr != nil || n < 0 {
		b.err = fmt.Errorf("git cat-file --batch: unexpected header %q", hdr)
		return "", nil, false, nil
	}
	data = make([]byte, n+1) // content and its trailing newline
	if _, err := io.ReadFull(b.out, data); err != nil {
		b.err = err
		return "", nil, false, nil
	}
	return f[1], data[:n], true, nil
}
