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
	p     *project.Project
	once  sync.Once
	state *State
	err   error
}

// New returns p's vouching; nothing is read until it is used.
func New(p *project.Project) *Project { return &Project{p: p} }

// CacheDir is where the signed entries found are kept for a repository
// whose common git dir is commonDir (docs/signing.md#the-cache).
func CacheDir(commonDir string) string { return filepath.Join(commonDir, "gitwarrant", "vouch") }

// State works out what the record vouches for (once).
func (v *Project) State() (*State, error) {
	v.once.Do(func() { v.state, v.err = compute(v.p) })
	return v.state, v.err
}

func compute(p *project.Project) (*State, error) {
	cur, err := os.ReadFile(p.AllowedSigners())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading %s: %w", p.AllowedSigners(), err)
	}
	// Undrained: vouching reads signed entries, which never pass through a
	// server's journal (docs/record.md#the-journal).
	r, err := record.OpenUndrained(p)
	if err != nil {
		return nil, err
	}
	dir := ""
	var blob func(string) ([]byte, error)
	if repo := r.Repo(); repo != nil {
		dir = CacheDir(repo.CommonDir)
		blob = repo.Blob
	}
	col, err := Collect(r, dir)
	if err != nil {
		return nil, err
	}
	st := Compute(col, cur, blob)
	col.Save()
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
