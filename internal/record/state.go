package record

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// Local state under <common git dir>/gitwarrant/ (never committed):
//
//	started       writers whose ref this clone created, one per line
//	locks/<w>.lock the writer's lock
//	clone-id      the clone id and the git dir it was made in
//	saved/        work-tree chains `record restore` moved aside
//	journal/<w>.jsonl a server's entries not yet committed (drain.go)
const startedFile = "started"

func (r *Record) statePath(parts ...string) string {
	return filepath.Join(append([]string{r.repo.CommonDir, stateDir}, parts...)...)
}

// started reports whether this clone created writer w's ref.
func (r *Record) started(w string) bool {
	for _, s := range r.startedWriters() {
		if s == w {
			return true
		}
	}
	return false
}

func (r *Record) startedWriters() []string {
	b, err := gitx.ReadFile(r.statePath(startedFile))
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if w := strings.TrimSpace(sc.Text()); w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// markStarted appends w with one O_APPEND write.
func (r *Record) markStarted(w string) error {
	path := r.statePath(startedFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return stateErr(path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return stateErr(path, err)
	}
	_, err = f.WriteString(w + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil && !errors.Is(err, os.ErrClosed) {
		return stateErr(path, err)
	}
	return nil
}
