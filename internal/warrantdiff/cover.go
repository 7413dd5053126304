package warrantdiff

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/amend"
	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/sign"
)

// Found is an amend entry new in head (past the end of the same chain in
// base), with its verdict against base's allowed_signers.
type Found struct {
	Chain    string // chain name (writer)
	Entry    chain.Entry
	Amend    amend.Amend
	Verified *sign.Verified // nil when refused
	Err      error          // why it was refused
}

// amendMarker is in every amend line: entries are canonical JSON.
var amendMarker = []byte(`"kind":"amend"`)

// NewAmends reads the amend entries head holds past base, reading each
// chain only from base's end on, and verifies each against signers (base's
// allowed_signers: a change cannot bring its own signer).
func NewAmends(repo *gitx.Repo, base, head *Snapshot, signers *sign.AllowedSigners) ([]Found, error) {
	var paths, baseIDs []string
	for p, id := range head.chains {
		if head.rev != "" && id == base.chains[p] {
			continue // same blob: nothing new
		}
		paths = append(paths, p)
		if b := base.chains[p]; b != "" {
			baseIDs = append(baseIDs, b)
		}
		if id != "" {
			baseIDs = append(baseIDs, id)
		}
	}
	sort.Strings(paths)
	sizes, err := repo.BlobSizes(baseIDs)
	if err != nil {
		return nil, err
	}
	var out []Found
	add := func(name string) func([]byte) error {
		return func(line []byte) error {
			if !bytes.Contains(line, amendMarker) {
				return nil
			}
			e, _, err := chain.ParseEntry(line)
			if err != nil || e.Kind != chain.KindAmend {
				return nil // the chain's own verification reports broken lines
			}
			out = append(out, CheckAmend(name, e, signers))
			return nil
		}
	}
	for _, w := range head.writers() {
		if err := folderAmends(base, head, w, add(w)); err != nil {
			return nil, fmt.Errorf("reading new entries of %s: %w", w, err)
		}
	}
	for _, p := range paths {
		from := sizes[base.chains[p]]
		if head.rev == "" && head.sizes[p] <= from || head.rev != "" && sizes[head.chains[p]] <= from {
			continue // nothing past base's end (a shorter chain is the chain check's finding)
		}
		fn := add(strings.TrimSuffix(path.Base(p), ".jsonl"))
		if head.rev == "" {
			err = gitx.FileTail(filepath.Join(repo.WorkTree, filepath.FromSlash(p)), from, fn)
		} else {
			err = repo.BlobTail(head.chains[p], from, fn)
		}
		if err != nil {
			return nil, fmt.Errorf("reading new entries of %s: %w", p, err)
		}
	}
	return out, nil
}

// CheckAmend reads amend entry e of chain name and verifies its signature
// against signers.
func CheckAmend(name string, e chain.Entry, signers *sign.AllowedSigners) Found {
	f := Found{Chain: name, Entry: e}
	f.Amend, f.Err = amend.FromEntry(e)
	if f.Err == nil {
		f.Verified, f.Err = amend.Verify(e, name, signers)
	}
	return f
}

// Attach fills each widening's Cover from the amends that sign it: same
// loop (the loop whose file changed), list, op and pattern.
func Attach(changes []Change, found []Found) {
	for i := range changes {
		c := &changes[i]
		if c.Kind != Widening {
			continue
		}
		loop := c.Loop
		if c.Via != "" {
			loop = c.Via
		}
		for _, f := range found {
			a := f.Amend
			if a.Loop != loop || a.List != c.List || a.Op != c.Op || !patternCovers(a.Pattern, c) {
				continue
			}
			if f.Verified != nil {
				c.Cover, c.Refused = &Cover{Signer: f.Verified.Principal, Chain: f.Chain, Seq: f.Entry.Seq}, ""
				break
			}
			if c.Refused == "" && f.Err != nil {
				c.Refused = fmt.Sprintf("%s#%d by %s: %v", f.Chain, f.Entry.Seq, a.Signer, f.Err)
			}
		}
	}
}

// patternCovers: an amend of allowed_signers may remove several lines at
// once (one per line of its pattern).
func patternCovers(pattern string, c *Change) bool {
	if c.List != SignersList {
		return pattern == c.Entry
	}
	for _, l := range strings.Split(pattern, "\n") {
		if strings.Trim(l, " \t\r") == strings.Trim(c.Entry, " \t\r") { // blanks only, as sign.IsSignerLine
			return true
		}
	}
	return false
}
