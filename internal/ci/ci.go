// Package ci is the CI gate (docs/ci.md): what a pull request changes in
// the warrants and the record, read from Git objects only, between the
// merge base of base and head and head. A widening needs a signed amend
// new in head, verified against the merge base's allowed_signers; every
// chain of the merge base must be a prefix of the same chain in head; every
// Warrant-Head trailer of the pull request's commits must name a head its
// commit's chain holds; head's loops must lint clean; and removing the
// gate itself is reported.
package ci

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/lint"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/sign"
	"github.com/gitwarrant/gitwarrant/internal/warrantdiff"
	"github.com/go-git/go-git/v5/plumbing"
)

// Options selects what is compared.
type Options struct {
	Base, Head string // revisions; Head defaults to HEAD
	ProjRel    string // the project directory, relative to the root (".gitwarrant")
	// RequireUserPresence counts only signatures by FIDO keys (whose
	// user-presence flag verification always requires).
	RequireUserPresence bool
	// Strict fails on gate warnings too.
	Strict bool
	// OtherGates are other project folders (slash-separated, relative to
	// the root) that gates of their own compare: changes under them are
	// not Unreviewed here.
	OtherGates []string
	// Home is the home directory `~` in a typed entry names when head's
	// loops' examples are decided (lint.Options.Home).
	Home string
}

// Report is the gate's whole finding.
type Report struct {
	Base, Head string // as given
	MergeBase  string
	HeadCommit string
	Changes    []warrantdiff.Change
	Summary    warrantdiff.Summary
	Chains     []ChainResult
	Findings   []ChainFinding // chain breaks and absent pins
	Lint       []lint.Finding // errors only
	Gate       []GateWarning
	Strict     bool
	// Unreviewed are paths gitwarrant may read as a warrant that this
	// gate does not compare (outside.go).
	Unreviewed []Unreviewed
	// LoopErrors are loop files of the merge base that did not parse.
	LoopErrors []string
}

// Uncovered lists the widenings no verified amend covers.
func (r *Report) Uncovered() []warrantdiff.Change {
	var out []warrantdiff.Change
	for _, c := range r.Changes {
		if c.Kind == warrantdiff.Widening && c.Cover == nil {
			out = append(out, c)
		}
	}
	return out
}

// ChainOK reports whether every chain and every pin held.
func (r *Report) ChainOK() bool { return len(r.Findings) == 0 }

// OK is the verdict: exit 0 when it holds.
func (r *Report) OK() bool {
	return len(r.Uncovered()) == 0 && r.ChainOK() && len(r.Lint) == 0 && len(r.Unreviewed) == 0 && (!r.Strict || len(r.Gate) == 0)
}

// ErrShallow is a clone too shallow to hold the merge base.
var ErrShallow = errors.New("the clone is too shallow to hold the merge base of base and head: " + gitx.FetchHistory)

// Run compares the merge base of opt.Base and opt.Head with opt.Head.
func Run(repo *gitx.Repo, opt Options) (*Report, error) {
	if opt.Head == "" {
		opt.Head = "HEAD"
	}
	if opt.ProjRel == "" {
		opt.ProjRel = ".gitwarrant"
	}
	// the gate reads a few dozen packed objects, many deep in delta
	// chains: git reads them (gitx/batch.go)
	if repo.StartBatch() {
		defer repo.StopBatch()
	}
	// git walks the history while the revisions are peeled and head's
	// record is listed. When both name refs read here, git starts on the
	// ids the refs hold, before the first object read waits for the batch
	// process; the same ids are then peeled, and git's answer is kept only
	// when neither was a tag (else git is asked again, on the commits).
	type rangeResult struct {
		mb      string
		commits []gitx.RangeCommit
		err     error
	}
	walk := func(base, head plumbing.Hash) chan rangeResult {
		ch := make(chan rangeResult, 1)
		go func() {
			mb, commits, err := repo.MergeBaseRange(base.String(), head.String())
			ch <- rangeResult{mb, commits, err}
		}()
		return ch
	}
	baseRev, headRev := opt.Base, opt.Head
	var early chan rangeResult
	baseRef, berr := repo.RefHash(baseRev)
	headRef, herr0 := repo.RefHash(headRev)
	if berr == nil && herr0 == nil && !baseRef.IsZero() && !headRef.IsZero() {
		early = walk(baseRef, headRef)
		baseRev, headRev = baseRef.String(), headRef.String()
	}
	baseC, err := repo.ResolveCommit(baseRev)
	if errors.Is(err, gitx.ErrShallow) {
		return nil, fmt.Errorf("base: %w", named(err, baseRev, opt.Base))
	}
	if err != nil {
		return nil, fmt.Errorf("base: %w (in CI, fetch the base branch; locally, e.g. --base origin/main)", named(err, baseRev, opt.Base))
	}
	headC, err := repo.ResolveCommit(headRev)
	if err != nil {
		return nil, fmt.Errorf("head: %w", named(err, headRev, opt.Head))
	}
	ranged := early
	if early == nil || baseC != baseRef || headC != headRef {
		ranged = walk(baseC, headC)
	}
	hl, herr := layout(repo, headC, opt.ProjRel)
	rr := <-ranged
	mb, commits := rr.mb, rr.commits
	if rr.err != nil {
		if repo.IsShallow() {
			return nil, ErrShallow
		}
		return nil, fmt.Errorf("%s and %s share no history, so there is nothing to compare against: %v", opt.Base, opt.Head, rr.err)
	}
	if herr != nil {
		return nil, herr
	}
	r := &Report{Base: opt.Base, Head: opt.Head, MergeBase: mb, HeadCommit: headC.String(), Strict: opt.Strict}
	bl, err := layout(repo, plumbing.NewHash(mb), opt.ProjRel)
	if err != nil {
		return nil, err
	}
	amends, err := r.chains(repo, opt.ProjRel, plumbing.NewHash(mb), bl, hl)
	if err != nil {
		return nil, err
	}
	if err := r.warrants(repo, opt, mb, headC.String(), amends); err != nil {
		return nil, err
	}
	if err := r.pins(repo, opt.ProjRel, commits); err != nil {
		return nil, err
	}
	if err := r.lint(repo, opt.ProjRel, opt.Home, plumbing.NewHash(mb), headC); err != nil {
		return nil, err
	}
	if err := r.unreviewed(repo, opt.ProjRel, opt.OtherGates, plumbing.NewHash(mb), headC); err != nil {
		return nil, err
	}
	if r.Gate, err = gateWarnings(repo, plumbing.NewHash(mb), headC); err != nil {
		return nil, err
	}
	return r, nil
}

// named puts the revision as given back into an error about the id it
// was read as.
func named(err error, asRead, given string) error {
	if asRead == given {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), asRead, given))
}

// warrants is the semantic diff from the merge base to head, each
// widening covered only by an amend past the base's end of its chain
// (amends: what the chain check found new, chain by chain) and verified
// against the merge base's allowed_signers.
func (r *Report) warrants(repo *gitx.Repo, opt Options, mb, head string, amends map[string][]chain.Entry) error {
	base, err := warrantdiff.FromRev(repo, opt.ProjRel, mb)
	if err != nil {
		return err
	}
	hs, err := warrantdiff.FromRev(repo, opt.ProjRel, head)
	if err != nil {
		return err
	}
	base.Label, hs.Label = "merge base", opt.Head
	signers, err := warrantdiff.ParseSigners(base)
	if err != nil {
		return fmt.Errorf("the merge base's allowed_signers cannot be read, so no amend can be verified: %w", err)
	}
	r.Changes = warrantdiff.Compare(base, hs)
	var found []warrantdiff.Found
	for _, w := range slices.Sorted(maps.Keys(amends)) {
		for _, e := range amends[w] {
			f := warrantdiff.CheckAmend(w, e, signers)
			if opt.RequireUserPresence && f.Verified != nil && !securityKey(signers, f.Verified.Line) {
				f.Verified, f.Err = nil, errors.New("not signed by a FIDO key with user presence (require-user-presence)")
			}
			found = append(found, f)
		}
	}
	warrantdiff.Attach(r.Changes, found)
	r.Summary = warrantdiff.Summarize(r.Changes)
	for _, e := range base.Errors {
		r.LoopErrors = append(r.LoopErrors, e.Error())
	}
	return nil
}

func securityKey(as *sign.AllowedSigners, line int) bool {
	for _, s := range as.Signers {
		if s.Line == line {
			return sign.IsSecurityKey(s.Key)
		}
	}
	return false
}

// chains compares every chain of the merge base and head, and returns
// the amend entries new in head, by chain. A chain kept as one file at the
// merge base and as a folder in head (migrated) holds the merge base's
// entries again in its folder; only those past its end are new.
func (r *Report) chains(repo *gitx.Repo, projRel string, mb plumbing.Hash, bl, hl map[string][]piece) (map[string][]chain.Entry, error) {
	names := map[string]bool{}
	for w := range bl {
		names[w] = true
	}
	for w := range hl {
		names[w] = true
	}
	amends := map[string][]chain.Entry{}
	for _, w := range slices.Sorted(maps.Keys(names)) {
		res, f, as, err := compareChain(repo, w, clonePieces(bl[w]), clonePieces(hl[w]))
		if err != nil {
			return nil, fmt.Errorf("chain %s: %w", w, err)
		}
		r.Chains = append(r.Chains, res)
		if len(as) > 0 {
			amends[w] = as
		}
		if f != nil {
			f.Commit = r.breakingCommit(repo, projRel, w, bl[w], mb)
			r.Findings = append(r.Findings, *f)
		}
	}
	return amends, nil
}

// breakingCommit is the first commit of the pull request at which chain
// w no longer extends the merge base's (head when none is found).
func (r *Report) breakingCommit(repo *gitx.Repo, projRel, w string, basePs []piece, mb plumbing.Hash) string {
	out, err := repo.Git("rev-list", "--reverse", "--topo-order", mb.String()+".."+r.HeadCommit, "--",
		path.Join(projRel, "record", w), path.Join(projRel, "record", w+".jsonl"))
	if err != nil {
		return r.HeadCommit
	}
	for _, c := range strings.Fields(string(out)) {
		hl, err := layout(repo, plumbing.NewHash(c), projRel)
		if err != nil {
			continue
		}
		if _, f, _, err := compareChain(repo, w, clonePieces(basePs), hl[w]); err == nil && f != nil {
			return c
		}
	}
	return r.HeadCommit
}

func clonePieces(ps []piece) []piece { return append([]piece(nil), ps...) }

// pins checks every Warrant-Head trailer of the pull request's commits:
// the chain it names must hold that head at that commit.
func (r *Report) pins(repo *gitx.Repo, projRel string, commits []gitx.RangeCommit) error {
	for _, c := range commits {
		var ls map[string][]piece
		for _, v := range c.Pins {
			f := strings.Fields(v)
			if len(f) != 2 || !strings.HasPrefix(f[1], "sha256:") {
				r.Findings = append(r.Findings, ChainFinding{Commit: c.ID, Reason: ReasonPin,
					Detail: fmt.Sprintf("the %s trailer %q is not \"<chain path> sha256:<hash>\"", gitx.HeadTrailer, v)})
				continue
			}
			w := pinWriter(projRel, f[0])
			if ls == nil {
				var err error
				if ls, err = layout(repo, plumbing.NewHash(c.ID), projRel); err != nil {
					return err
				}
			}
			held, err := holdsHash(repo, ls[w], f[1])
			if err != nil {
				return err
			}
			if !held {
				r.Findings = append(r.Findings, ChainFinding{Chain: w, Commit: c.ID, Reason: ReasonPin, Path: f[0],
					Detail: fmt.Sprintf("the commit pins %s, which the chain at this commit does not hold (rewritten or truncated)", f[1])})
			}
		}
	}
	return nil
}

// pinWriter names the chain a pinned path refers to, in either layout.
func pinWriter(projRel, p string) string {
	p = strings.TrimSuffix(p, "/")
	if p == path.Join(projRel, "record.jsonl") {
		return "record"
	}
	rel, ok := strings.CutPrefix(p, path.Join(projRel, "record")+"/")
	if !ok {
		rel = path.Base(p)
	}
	w, _, _ := strings.Cut(rel, "/")
	return strings.TrimSuffix(w, ".jsonl")
}

// exampleGate is lint's options for head's loops written into the scratch
// project at root: each example decided by the gate, with the typed
// allower, in an environment that holds only the home directory — the
// runner's other variables must not change what the gate decides.
func exampleGate(root, home string) lint.Options {
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	env := gate.Env{Getenv: getenv, Cwd: root, Err: io.Discard, Allower: gate.TypedAllower}
	return lint.Options{Home: home, Examples: func(f *lint.File, e loops.Example) (loops.Verdict, string) {
		x := gate.ExplainExample(env, f.Loop, e, root)
		return x.Verdict, x.Rule
	}}
}

// lint runs lint on head's loops, written from Git objects to a scratch
// folder; its errors fail the gate. When head's loops folder is the merge
// base's, lint has nothing new to say about the change and does not run
// (docs/ci.md#lint).
func (r *Report) lint(repo *gitx.Repo, projRel, home string, mb, head plumbing.Hash) error {
	rel := path.Join(projRel, "loops")
	ents, err := repo.DirAt(head, rel)
	if err != nil {
		return err
	}
	if base, err := repo.DirAt(mb, rel); err == nil && maps.Equal(base, ents) {
		return nil
	}
	tmp, err := os.MkdirTemp("", "gitwarrant-ci-lint-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// The loops go into a scratch project (<tmp>/.gitwarrant/loops), so
	// their examples are decided by the hook's own gate there, as lint and
	// doctor decide them in a checkout: self-protection and the gate's
	// screens included (docs/typed-entries.md#examples).
	dir := filepath.Join(tmp, ".gitwarrant", "loops")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	n := 0
	for name, id := range ents {
		if !strings.HasSuffix(name, loops.FileSuffix) || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\`) {
			continue
		}
		b, err := repo.Blob(id)
		if err != nil {
			continue // a folder named like a loop file: not a loop
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return nil
	}
	files, err := lint.Load([]string{dir})
	if err != nil {
		return err
	}
	for _, f := range lint.Run(files, exampleGate(tmp, home)) {
		if f.Severity != lint.Error {
			continue
		}
		if rp, err := filepath.Rel(dir, f.File); err == nil && !strings.HasPrefix(rp, "..") {
			f.File = path.Join(rel, filepath.ToSlash(rp))
		}
		f.Msg = strings.ReplaceAll(f.Msg, dir+string(filepath.Separator), rel+"/")
		r.Lint = append(r.Lint, f)
	}
	return nil
}
