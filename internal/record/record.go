// Package record is a project's record: the set of hash chains in
// .gitwarrant/record/ (one per writer, docs/design.md#the-record) plus a docket
// record.jsonl, and their anchoring in Git — a commit per event on
// refs/gitwarrant/<writer>, pre-commit and commit-msg hooks, `verify --git`
// and push. Outside a Git repository it degrades to one plain chain.
package record

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/project"
)

// Record is one project's set of chains.
type Record struct {
	p    *project.Project
	repo *gitx.Repo // nil outside any Git repository
	// Now is the clock for entry timestamps and record commits.
	Now func() time.Time
	// Warn receives notices for the person (a copied checkout taking a
	// new writer id); nil drops them.
	Warn io.Writer
}

// Open finds whether the project lives in a Git work tree. It reads a few
// small files and starts no process. In a repository it first commits
// every writer's non-empty journal (docs/record.md#the-journal), so what
// it reads holds every entry a server has answered.
func Open(p *project.Project) (*Record, error) {
	r, err := OpenUndrained(p)
	if err == nil && r.repo != nil {
		r.drainAll()
	}
	return r, err
}

// OpenUndrained is Open without committing the journals first: for the
// gate, whose appends commit the writer's journal under its lock anyway
// (lockWriter), for a server's own Journal, and for vouching, which reads
// signed entries only — a journal holds hook checks, never an amend.
func OpenUndrained(p *project.Project) (*Record, error) {
	r := &Record{p: p, Now: time.Now, Warn: os.Stderr}
	repo, err := gitx.Discover(p.Dir)
	switch {
	case err == nil:
		r.repo = repo
	case errors.Is(err, gitx.ErrNotRepo):
	default:
		return nil, err
	}
	return r, nil
}

// Repo returns the Git repository, or nil outside one.
func (r *Record) Repo() *gitx.Repo { return r.repo }

// Project returns the project.
func (r *Record) Project() *project.Project { return r.p }

// ChainPath is a writer's single-file chain: the whole record outside
// Git, and the layout earlier versions kept in the branch (migrated to a
// folder by the next commit, docs/record.md#migration).
func (r *Record) ChainPath(writer string) string {
	return filepath.Join(r.p.RecordDir(), writer+".jsonl")
}

// ChainName is how a chain file is named in output: its file name without
// .jsonl ("main-3f2a9c0d1e4b", or "record" for docket's file).
func ChainName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".jsonl")
}

// LoggedEntry is an entry with the chain it came from.
type LoggedEntry struct {
	Chain string // the writer, or the file chain's name
	chain.Entry
}

// Entries returns every entry of every chain merged by time (for
// --replay; `record log` streams with Log).
func (r *Record) Entries() ([]LoggedEntry, error) {
	var out []LoggedEntry
	err := r.Log(LogFilter{}, 0, func(e LoggedEntry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}
