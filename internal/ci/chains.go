package ci

import (
	"bytes"
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/go-git/go-git/v5/plumbing"
)

// A writer's chain in a revision is either one file
// .gitwarrant/record/<writer>.jsonl or a folder .gitwarrant/record/<writer>/
// of "<first seq>-<last seq>.jsonl" files; both are the same chain
// (docs/ci.md#chains). A piece is one file of either layout.
type piece struct {
	from, to int64  // to is 0 for a single file until it is read
	id       string // blob id
	path     string
	single   bool
}

// layout lists each writer's pieces at commit c. Writer folders are read
// straight from their trees (gitx.EachTreeEntry): each holds hundreds of
// segment files, at two revisions and at every pinning commit.
func layout(repo *gitx.Repo, c plumbing.Hash, projRel string) (map[string][]piece, error) {
	out := map[string][]piece{}
	recRel := path.Join(projRel, "record")
	if nt, err := repo.NonTreeAt(c, recRel); err != nil || nt != "" {
		if err != nil {
			return nil, err
		}
		// a checkout follows a link there, to what the gate does not read
		return nil, fmt.Errorf("commit %s: %s is a symbolic link, a file or a submodule, not a folder: the warrant and the record are read from Git, where a checkout would read what it points at — make %s a folder", c.String()[:12], nt, nt)
	}
	top, err := repo.DirAt(c, projRel)
	if err != nil {
		return nil, err
	}
	if id, ok := top["record.jsonl"]; ok {
		out["record"] = append(out["record"], piece{from: 1, id: id, path: path.Join(projRel, "record.jsonl"), single: true})
	}
	rs, err := repo.DirAt(c, recRel)
	if err != nil {
		return nil, err
	}
	for name, id := range rs {
		if strings.HasPrefix(name, ".") {
			continue
		}
		if w, ok := strings.CutSuffix(name, ".jsonl"); ok {
			out[w] = append(out[w], piece{from: 1, id: id, path: path.Join(recRel, name), single: true})
			continue
		}
		dir := path.Join(recRel, name) + "/"
		var ps []piece
		err := repo.EachTreeEntry(plumbing.NewHash(id), func(_, f []byte, fid plumbing.Hash) error {
			if from, to, ok := chain.ParseSegName(f); ok {
				ps = append(ps, piece{from: from, to: to, id: fid.String(), path: dir + string(f)})
			}
			return nil
		})
		if err != nil {
			continue // not a folder (a file named like a writer): no pieces, as DirAt lists it
		}
		if len(ps) > 0 {
			out[name] = append(out[name], ps...)
		}
	}
	for w := range out {
		sortPieces(out[w])
	}
	return out, nil
}

// sortPieces orders pieces by first seq, the longest first on ties (a
// sealed segment before the deltas it replaced); a single file first.
func sortPieces(ps []piece) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].single != ps[j].single {
			return ps[i].single
		}
		if ps[i].from != ps[j].from {
			return ps[i].from < ps[j].from
		}
		return ps[i].to > ps[j].to
	})
}

// ChainFinding is one way a head chain fails to extend its base.
type ChainFinding struct {
	Chain  string `json:"chain"`
	Seq    int64  `json:"seq"`
	Commit string `json:"commit"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
	Path   string `json:"path,omitempty"`
}

// Reasons a chain check fails.
const (
	ReasonRewritten = "rewritten"
	ReasonTruncated = "truncated"
	ReasonDeleted   = "deleted"
	ReasonGap       = "missing entries"
	ReasonBadEntry  = "new entry does not verify"
	ReasonBadFile   = "segment file does not match its name"
	ReasonPin       = "pinned head absent"
)

// ChainResult is one chain's comparison.
type ChainResult struct {
	Chain    string `json:"chain"`
	BaseLast int64  `json:"base_last"`
	HeadLast int64  `json:"head_last"`
	New      int64  `json:"new"`
	OK       bool   `json:"ok"`
	// Unchanged: head holds the very files of the merge base (a single
	// file is then not read, so its length is not counted).
	Unchanged bool `json:"unchanged"`
}

// chainSide reads one side's pieces on demand, caching the lines of each
// blob read.
type chainSide struct {
	repo   *gitx.Repo
	pieces []piece
	lines  map[string][][]byte
	read   int64 // bytes read (for the cost accounting in tests)
}

func (s *chainSide) linesOf(p *piece) ([][]byte, error) {
	ls, ok := s.lines[p.id]
	if !ok {
		b, err := s.repo.Blob(p.id)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.path, err)
		}
		s.read += int64(len(b))
		ls = splitLines(b)
		if s.lines == nil {
			s.lines = map[string][][]byte{}
		}
		s.lines[p.id] = ls
	}
	if p.single {
		p.to = int64(len(ls))
	}
	return ls, nil
}

// prefetch reads, in one `git cat-file --batch`, the files the comparison
// reads first: base's last piece (or its single file) and head's pieces
// that are not base's very files. Git inflates a packed clone's delta
// chains in about half the CPU time the in-process reader takes; a file
// it does not return is read in process later, and fails there. The lines
// of head's files are parsed and hashed as each file arrives, while git
// reads the next (pre); verifyNew uses those checks.
func prefetch(repo *gitx.Repo, lines map[string][][]byte, basePs, headPs []piece, baseIDs map[string]piece) (*prechecks, error) {
	var ids []string
	var last *piece
	single := false
	for i := range basePs {
		if p := &basePs[i]; p.single {
			ids = append(ids, p.id)
			single = true
		} else if last == nil || p.to > last.to {
			last = p
		}
	}
	var baseEnd int64
	if last != nil {
		ids = append(ids, last.id)
		baseEnd = last.to
	}
	// checked ahead: files wholly past base's end, when base's end is
	// known from file names (not a single file's length)
	fresh := map[string]bool{}
	for _, p := range headPs {
		if bp, ok := baseIDs[p.id]; p.single || !ok || bp != p {
			ids = append(ids, p.id)
			fresh[p.id] = !single && !p.single && p.from > baseEnd
		}
	}
	pre := &prechecks{byID: map[string][]lineCheck{}, sem: make(chan struct{}, runtime.GOMAXPROCS(0))}
	if len(ids) < 2 {
		return pre, nil // one file: reading it in process costs no process
	}
	_, err := repo.ReadBlobsEach(ids, func(id string, b []byte) {
		ls := splitLines(b)
		lines[id] = ls
		if fresh[id] {
			pre.start(id, ls)
		}
	})
	pre.wg.Wait()
	return pre, err
}

// prechecks are line checks made ahead, by blob id and line index.
type prechecks struct {
	mu   sync.Mutex
	wg   sync.WaitGroup
	sem  chan struct{}
	byID map[string][]lineCheck
}

func (pc *prechecks) start(id string, ls [][]byte) {
	pc.wg.Add(1)
	pc.sem <- struct{}{}
	go func() {
		defer func() { <-pc.sem; pc.wg.Done() }()
		cs := make([]lineCheck, len(ls))
		v := chain.NewLineVerifier()
		for i, l := range ls {
			cs[i] = checkLine(v, l)
		}
		pc.mu.Lock()
		pc.byID[id] = cs
		pc.mu.Unlock()
	}()
}

// lookup returns the check made ahead for line i of blob id, if any.
func (pc *prechecks) lookup(id string, i int) (lineCheck, bool) {
	if pc == nil {
		return lineCheck{}, false
	}
	cs := pc.byID[id]
	if i < len(cs) {
		return cs[i], true
	}
	return lineCheck{}, false
}

func splitLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

// last returns the side's last seq and the hash of that entry.
func (s *chainSide) last() (int64, string, error) {
	var best *piece
	for i := range s.pieces {
		p := &s.pieces[i]
		if p.single {
			if _, err := s.linesOf(p); err != nil {
				return 0, "", err
			}
		}
		if best == nil || p.to > best.to {
			best = p
		}
	}
	if best == nil || best.to == 0 {
		return 0, chain.Genesis, nil
	}
	ls, err := s.linesOf(best)
	if err != nil {
		return 0, "", err
	}
	e, _, err := chain.ParseEntry(ls[len(ls)-1])
	if err != nil {
		return 0, "", fmt.Errorf("%s: the last entry does not parse: %v", best.path, err)
	}
	return best.to, e.Hash, nil
}

// line returns the entry at seq (1-based), or nil when the side lacks it.
func (s *chainSide) line(seq int64) ([]byte, error) {
	for i := range s.pieces {
		p := &s.pieces[i]
		if !p.single && (seq < p.from || seq > p.to) {
			continue
		}
		ls, err := s.linesOf(p)
		if err != nil {
			return nil, err
		}
		if k := seq - p.from; k >= 0 && k < int64(len(ls)) {
			return ls[k], nil
		}
	}
	return nil, nil
}

func samePieces(a, b []piece) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].id != b[i].id || a[i].from != b[i].from || a[i].to != b[i].to || a[i].single != b[i].single {
			return false
		}
	}
	return true
}

// compareChain checks that head's chain extends base's: every base entry
// is in head unchanged and in place, and every new entry verifies after
// base's last. A piece of head identical to one of base (same range, same
// blob) is not read; the work is what the pull request adds. It returns
// at most one finding (the first break, in the order the pieces are
// read) and the new amend entries (up to a break), for the warrant
// check: each new file is read once.
func compareChain(repo *gitx.Repo, writer string, basePs, headPs []piece) (ChainResult, *ChainFinding, []chain.Entry, error) {
	res := ChainResult{Chain: writer}
	if samePieces(basePs, headPs) {
		res.OK, res.Unchanged = true, true
		for _, p := range headPs {
			res.BaseLast, res.HeadLast = max(res.BaseLast, p.to), max(res.HeadLast, p.to)
		}
		return res, nil, nil, nil
	}
	lines := map[string][][]byte{}
	base := &chainSide{repo: repo, pieces: basePs, lines: lines}
	head := &chainSide{repo: repo, pieces: headPs, lines: lines}
	baseIDs := make(map[string]piece, len(basePs))
	for _, p := range basePs {
		if !p.single {
			baseIDs[p.id] = p
		}
	}
	pre, err := prefetch(repo, lines, basePs, headPs, baseIDs)
	if err != nil {
		return res, nil, nil, err
	}
	B, prev, err := base.last()
	if err != nil {
		return res, nil, nil, err
	}
	res.BaseLast = B
	finding := func(seq int64, reason, p, detail string) *ChainFinding {
		return &ChainFinding{Chain: writer, Seq: seq, Reason: reason, Path: p, Detail: detail}
	}
	if len(headPs) == 0 {
		return res, finding(1, ReasonDeleted, "", fmt.Sprintf("the chain held %d entries at the merge base and is gone in head", B)), nil, nil
	}
	// First pass, in order: what head holds of base is base's, byte for
	// byte; the entries past base's end are collected (a second copy of
	// one, a delta next to the sealed file that replaced it, must be the
	// same line) and verified together after.
	var done int64
	fresh := make([]newLine, 0, newLines(headPs, baseIDs))
	var brk *ChainFinding
pieces:
	for i := range headPs {
		p := &headPs[i]
		if !p.single {
			if p.to <= done {
				continue // a delta a sealed file already covers (checked through it)
			}
			if p.from > done+1 {
				brk = finding(done+1, ReasonGap, p.path, fmt.Sprintf("entries %d to %d are in no file (a segment file was deleted)", done+1, p.from-1))
				break
			}
			if bp, ok := baseIDs[p.id]; ok && bp.from == p.from && bp.to == p.to && p.from == done+1 {
				done = p.to // unchanged since the merge base
				continue
			}
		}
		ls, err := head.linesOf(p)
		if err != nil {
			return res, nil, nil, err
		}
		if !p.single && int64(len(ls)) != p.to-p.from+1 {
			brk = finding(p.from, ReasonBadFile, p.path, fmt.Sprintf("named for %d entries, holds %d lines", p.to-p.from+1, len(ls)))
			break
		}
		for k, l := range ls {
			seq := p.from + int64(k)
			switch {
			case seq <= B:
				bl, err := base.line(seq)
				if err != nil {
					return res, nil, nil, err
				}
				if !bytes.Equal(bl, l) {
					brk = finding(seq, ReasonRewritten, p.path, fmt.Sprintf("entry %d differs from the merge base's", seq))
					break pieces
				}
			case seq <= done:
				// new entries run from B+1 on, one after the other
				if !bytes.Equal(fresh[seq-B-1].line, l) {
					brk = finding(seq, ReasonRewritten, p.path, fmt.Sprintf("entry %d differs between two files of the chain", seq))
					break pieces
				}
			default:
				fresh = append(fresh, newLine{line: l, seq: seq, path: p.path, id: p.id, idx: k})
			}
			done = max(done, seq)
		}
	}
	// The new entries come before any break of the first pass: a bad one
	// is the first break.
	n, amends, bad := verifyNew(fresh, prev, pre)
	res.New = n
	if bad != nil {
		bad.Chain = writer
		return res, bad, amends, nil
	}
	if brk != nil {
		return res, brk, amends, nil
	}
	res.HeadLast = done
	if done < B {
		return res, finding(done+1, ReasonTruncated, "", fmt.Sprintf("head ends at entry %d; the merge base holds entries up to %d", done, B)), amends, nil
	}
	res.OK = true
	return res, nil, amends, nil
}

// newLine is an entry past the merge base's end of its chain.
// newLines is how many lines head's files that are not base's are named
// to hold (a single file's length is not known before it is read), within
// a bound: file names are the pull request's to choose.
func newLines(headPs []piece, baseIDs map[string]piece) int {
	const most = 1 << 16
	n := int64(0)
	for _, p := range headPs {
		if bp, ok := baseIDs[p.id]; !p.single && !(ok && bp.from == p.from && bp.to == p.to) {
			n += min(p.to-p.from+1, most)
		}
	}
	return int(min(n, most))
}

type newLine struct {
	line []byte
	seq  int64 // the seq its place gives it
	path string
	id   string // the file's blob id, and the line's index in it
	idx  int
}

// lineCheck is what one line says about itself: its links, the hash of
// its fields after its own prev, and the whole entry when it is an amend
// (the warrant check reads those; the rest are not kept).
type lineCheck struct {
	seq        int64
	prev, hash string
	got        string
	amend      *chain.Entry
	parseErr   error
	hashErr    error
}

// checkLine checks one line: by the verify fast path when the line is
// canonical and verifies, and is not an amend (whose entry the warrant
// check needs); else parsed and hashed in full, which alone reports what
// is wrong. In canonical JSON a quote inside a string is escaped, so
// `"kind":"amend"` appears in an amend's line and in no string value.
func checkLine(v *chain.LineVerifier, line []byte) lineCheck {
	if !bytes.Contains(line, []byte(`"kind":"amend"`)) {
		if seq, prev, hash, ok := v.Verify(line); ok {
			return lineCheck{seq: seq, prev: prev, hash: hash, got: hash}
		}
	}
	e, m, err := chain.ParseEntry(line)
	if err != nil {
		return lineCheck{parseErr: err}
	}
	c := lineCheck{seq: e.Seq, prev: e.Prev, hash: e.Hash}
	if e.Kind == chain.KindAmend {
		c.amend = &e
	}
	c.got, c.hashErr = chain.ComputeHash(e.Prev, m)
	return c
}

// verifyNew checks the new entries in order: each parses, its seq is its
// place, its prev is the previous entry's hash (prev for the first), and
// its hash is that of its own fields. Every line carries its own prev and
// hash, so parsing and hashing run on every CPU and only the links are
// walked in order (as chain.VerifyParallel does); hashing a line after
// its own prev is hashing it after the expected one once the two are
// found equal. It returns how many verified, the amend entries among
// them, and the first that does not (Chain left to the caller).
func verifyNew(fresh []newLine, prev string, pre *prechecks) (int64, []chain.Entry, *ChainFinding) {
	// the lines not checked ahead are checked here, in order
	var todo []int
	for i, f := range fresh {
		if _, ok := pre.lookup(f.id, f.idx); !ok {
			todo = append(todo, i)
		}
	}
	done := make([]lineCheck, len(todo))
	workers := min(runtime.GOMAXPROCS(0), 1+len(todo)/256)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := chain.NewLineVerifier()
			for k := w; k < len(todo); k += workers {
				done[k] = checkLine(v, fresh[todo[k]].line)
			}
		}()
	}
	wg.Wait()
	var n int64
	var amends []chain.Entry
	k := 0
	for _, f := range fresh {
		c, ok := pre.lookup(f.id, f.idx)
		if !ok {
			c = done[k]
			k++
		}
		want, p := f.seq, f.path
		bad := func(detail string) (int64, []chain.Entry, *ChainFinding) {
			return n, amends, &ChainFinding{Seq: want, Reason: ReasonBadEntry, Path: p, Detail: detail}
		}
		switch {
		case c.parseErr != nil:
			return bad(fmt.Sprintf("entry %d does not parse: %v", want, c.parseErr))
		case c.seq != want:
			return bad(fmt.Sprintf("expected seq %d, found %d", want, c.seq))
		case c.prev != prev:
			return bad(fmt.Sprintf("entry %d: expected prev %s, found %q", want, prev, c.prev))
		case c.hashErr != nil:
			return bad(c.hashErr.Error())
		case c.hash != c.got:
			return bad(fmt.Sprintf("entry %d: the hash of its fields is %s, the line says %q", want, c.got, c.hash))
		}
		prev = c.got
		n++
		if c.amend != nil {
			amends = append(amends, *c.amend)
		}
	}
	return n, amends, nil
}

// holdsHash reports whether a chain's pieces hold an entry with hash h,
// reading from the last piece back (a pin usually names the last entry).
func holdsHash(repo *gitx.Repo, ps []piece, h string) (bool, error) {
	needle := []byte(`"hash":"` + h + `"`)
	for i := len(ps) - 1; i >= 0; i-- {
		b, err := repo.Blob(ps[i].id)
		if err != nil {
			return false, err
		}
		for _, l := range bytes.Split(b, []byte("\n")) {
			if bytes.Contains(l, needle) {
				if e, _, err := chain.ParseEntry(l); err == nil && e.Hash == h {
					return true, nil
				}
			}
		}
	}
	return false, nil
}
