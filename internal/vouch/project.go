package vouch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
)

// Project is one project's vouching, worked out from its record on first
// use and then kept for the process. It is a loops.Voucher.
type Project struct {
	p *project.Project
	// rec is the record already opened for this decision (opened here
	// when nil), recErr why it could not be.
	rec    *record.Record
	recErr error
	// memo keeps what a long-lived process worked out (nil: none).
	memo  *Memo
	once  sync.Once
	state *State
	err   error
}

// New returns p's vouching; nothing is read until it is used.
func New(p *project.Project) *Project { return &Project{p: p} }

// NewIn is New for a decision that opened p's record already (r, or err
// when it could not: the same error then puts no loop in force), in a
// long-lived process whose memo (nil: none) keeps what was worked out
// for the same bytes (Memo).
func NewIn(p *project.Project, r *record.Record, err error, memo *Memo) *Project {
	return &Project{p: p, rec: r, recErr: err, memo: memo}
}

// CacheDir is where the signed entries found are kept for a repository
// whose common git dir is commonDir (docs/signing.md#the-cache).
func CacheDir(commonDir string) string { return filepath.Join(commonDir, "gitwarrant", "vouch") }

// State works out what the record vouches for (once).
func (v *Project) State() (*State, error) {
	v.once.Do(func() { v.state, v.err = v.compute() })
	return v.state, v.err
}

func (v *Project) compute() (*State, error) {
	p := v.p
	cur, err := os.ReadFile(p.AllowedSigners())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading %s: %w", p.AllowedSigners(), err)
	}
	r, err := v.rec, v.recErr
	if r == nil && err == nil {
		// Undrained: vouching reads signed entries, which never pass
		// through a server's journal (docs/record.md#the-journal).
		r, err = record.OpenUndrained(p)
	}
	if err != nil {
		return nil, err
	}
	dir := ""
	var blob func(string) ([]byte, error)
	if repo := r.Repo(); repo != nil {
		dir = CacheDir(repo.CommonDir)
		blob = repo.Blob
	}
	srcs, err := r.SourcesVia(v.memo.chainRefs(r.Repo()))
	if err != nil {
		return nil, err
	}
	key, keyed := sourceKeys(srcs)
	if st := v.memo.get(p.Dir, cur, key, keyed); st != nil {
		return st.with(blob), nil
	}
	col, err := collectFrom(r, srcs, dir)
	if err != nil {
		return nil, err
	}
	// A State that needed a blob the object store did not give is not
	// kept: the blob may arrive (a fetch) while the refs stay put.
	missed := false
	read := blob
	if blob != nil {
		read = func(h string) ([]byte, error) {
			b, err := blob(h)
			missed = missed || err != nil
			return b, err
		}
	}
	st := Compute(col, cur, read)
	col.Save()
	if !missed {
		v.memo.put(p.Dir, cur, key, keyed, st.with(blob))
	}
	return st, nil
}

// Vouch is loops.Voucher: the version of loop name in force when its
// file holds data. A record whose signed entries cannot be read puts no
// version in force: the entries it holds may be what replaced these bytes.
func (v *Project) Vouch(name string, data []byte) loops.Vouched {
	st, err := v.State()
	if err != nil {
		return loops.Vouched{Note: fmt.Sprintf("loop %s is not in force: the record's signed entries cannot be read (%v)", name, err)}
	}
	return st.Decide(name, data)
}

// Loader returns c (nil for no parse cache) loading p's loops as the
// record puts them in force.
func Loader(c *loops.Cache, p *project.Project) *loops.Cache {
	return c.WithVoucher(New(p))
}
