// Package record is a project's record: the set of hash chains in
// .gitwarrant/record/ (one per writer, docs/design.md#the-record) plus a docket
// record.jsonl, and their anchoring in Git — a commit per event on
// refs/gitwarrant/<writer>, pre-commit and commit-msg hooks, `verify --git`
// and push. Outside a Git repository it degrades to one plain chain.
package record

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
}

// Open finds whether the project lives in a Git work tree. It reads a few
// small files and starts no process.
func Open(p *project.Project) (*Record, error) {
	r := &Record{p: p, Now: time.Now}
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

// ChainPath is the file of a writer's chain.
func (r *Record) ChainPath(writer string) string {
	return filepath.Join(r.p.RecordDir(), writer+".jsonl")
}

// Chains lists every chain file: record/*.jsonl in name order, then a
// docket record.jsonl if present (docs/design.md#repository-layout: read as one more chain).
func (r *Record) Chains() ([]string, error) {
	matches, err := filepath.Glob(filepath.Join(r.p.RecordDir(), "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(matches)
	if fi, err := os.Stat(r.p.LegacyRecord()); err == nil && fi.Mode().IsRegular() {
		matches = append(matches, r.p.LegacyRecord())
	}
	return matches, nil
}

// ChainName is how a chain is named in output: its file name without
// .jsonl ("main-3f2a9c0d1e4b", or "record" for docket's file).
func ChainName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".jsonl")
}

// VerifyAll verifies every chain. A chain that cannot be read at all is an
// error; a chain that reads but breaks is a report with Break set.
func (r *Record) VerifyAll() ([]*chain.Report, error) {
	paths, err := r.Chains()
	if err != nil {
		return nil, err
	}
	reports := make([]*chain.Report, 0, len(paths))
	for _, p := range paths {
		rep, err := chain.VerifyFile(p)
		if err != nil {
			return nil, err
		}
		reports = append(reports, rep)
	}
	return reports, nil
}

// LoggedEntry is an entry with the chain it came from.
type LoggedEntry struct {
	Chain string // ChainName of its file
	Path  string
	chain.Entry
}

// Entries merges all chains by timestamp (ties: chain name, then seq), so
// the log reads as one history (docs/design.md#reading-the-record).
func (r *Record) Entries() ([]LoggedEntry, error) {
	paths, err := r.Chains()
	if err != nil {
		return nil, err
	}
	var out []LoggedEntry
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		es, err := chain.ReadEntries(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w — run `gitwarrant record verify` to see where the chain breaks", p, err)
		}
		for _, e := range es {
			out = append(out, LoggedEntry{Chain: ChainName(p), Path: p, Entry: e})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.TS != b.TS {
			return a.TS < b.TS
		}
		if a.Chain != b.Chain {
			return a.Chain < b.Chain
		}
		return a.Seq < b.Seq
	})
	return out, nil
}
