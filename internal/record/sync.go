package record

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/gitwarrant/gitwarrant/internal/fsx"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// Anchoring the record in the branch (docs/record.md#commit-hooks): checks
// only ever write the ref, so between commits the work tree's copy of a
// chain is at most shorter than its ref. The pre-commit hook brings the
// current writer's folder up to its ref and stages it; the commit-msg hook
// pins the staged head in a Warrant-Head trailer.

// RefusalError is a pre-commit refusal: the commit must not go ahead.
type RefusalError struct{ Problems []string }

func (e *RefusalError) Error() string {
	return "commit refused — the record is not intact:\n  " + strings.Join(e.Problems, "\n  ")
}

// statusEntry is one line of `git status --porcelain -z` in the record.
type statusEntry struct {
	X, Y byte   // index vs HEAD, work tree vs index ('?' for untracked)
	Path string // slash-separated, relative to the work tree
}

// recordStatus lists what differs from HEAD in the record folder and
// docket's file, trusting Git's stat cache for everything else: a
// committed file that is unchanged was checked when it was committed
// (docs/record.md#commit-hooks).
func (r *Record) recordStatus() ([]statusEntry, error) {
	if r.recordClean() {
		return nil, nil
	}
	return r.gitStatus()
}

// gitStatus is recordStatus asked of Git.
func (r *Record) gitStatus() ([]statusEntry, error) {
	out, err := r.repo.Git("--no-optional-locks", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--",
		r.rel(r.p.RecordDir()), r.rel(r.p.LegacyRecord()))
	if err != nil {
		return nil, err
	}
	var st []statusEntry
	for _, rec := range strings.Split(string(out), "\x00") {
		if len(rec) > 3 {
			st = append(st, statusEntry{X: rec[0], Y: rec[1], Path: rec[3:]})
		}
	}
	return st, nil
}

// PreCommit runs the pre-commit hook's work and returns the paths it
// staged. It does nothing outside Git and while a rebase, merge,
// cherry-pick or revert is in progress.
func (r *Record) PreCommit() ([]string, error) {
	if r.repo == nil || r.repo.Operation() != "" {
		return nil, nil
	}
	w, err := r.currentWriter()
	if err != nil {
		return nil, err
	}
	clean := r.recordClean()
	var st []statusEntry
	if !clean {
		if st, err = r.gitStatus(); err != nil {
			return nil, err
		}
	}
	fs, fresh := r.statusFindings(st, w)
	var problems []string
	for _, f := range fs {
		problems = append(problems, f.Refusal())
	}
	changed := len(fresh) > 0
	if w != "" && len(problems) == 0 {
		unlock, err := r.lockWriter(w)
		if err != nil {
			return nil, err
		}
		n, perr := r.syncWriter(w, fresh)
		unlock()
		if perr != nil {
			problems = append(problems, perr.Error())
		}
		changed = changed || n > 0
	}
	if len(problems) > 0 {
		return nil, &RefusalError{Problems: problems}
	}
	key := r.handoffKey()
	if !changed {
		r.writeHandoff(r.stagedPins(st, fresh, ""), key)
		return nil, nil
	}
	rel := r.rel(r.p.RecordDir())
	if clean && r.stageWriter(w) == nil {
		r.writeHandoff(r.stagedPins(st, fresh, w), key)
		return []string{rel}, nil
	}
	if _, err := r.repo.Git("add", "-A", "--", rel); err != nil {
		return nil, fmt.Errorf("staging %s: %v — if the record is gitignored on purpose, remove the ignore rule or commit with --no-verify", rel, err)
	}
	r.writeHandoff(r.stagedPins(st, fresh, w), key)
	return []string{rel}, nil
}

// stagedPins is what StagedHeads would find after this hook: every chain
// the status showed changed in the index, plus the writer whose folder the
// hook just wrote ("" for none).
func (r *Record) stagedPins(st []statusEntry, fresh map[string][]string, wrote string) []gitx.Pin {
	recRel := r.rel(r.p.RecordDir())
	writers := map[string]bool{}
	if wrote != "" {
		writers[wrote] = true
	}
	for w := range fresh {
		writers[w] = true
	}
	var pins []gitx.Pin
	for _, e := range st {
		if e.Path == r.rel(r.p.LegacyRecord()) && (e.X == 'A' || e.X == 'M') {
			if t, ok, err := chain.Tail(r.p.LegacyRecord()); err == nil && ok {
				pins = append(pins, gitx.Pin{Path: e.Path, Hash: t.Hash})
			}
		}
	}
	names := make([]string, 0, len(writers))
	for w := range writers {
		names = append(names, w)
	}
	sort.Strings(names)
	for _, w := range names {
		segs, _, err := listSegs(r.WriterDir(w))
		if err != nil || len(segs) == 0 {
			continue
		}
		if t, ok, err := chain.Tail(filepath.Join(r.WriterDir(w), lastSeg(segs).Name)); err == nil && ok {
			pins = append(pins, gitx.Pin{Path: recRel + "/" + w + "/", Hash: t.Hash})
		}
	}
	return pins
}

// statusFindings judges what differs from HEAD in the record. Checks
// never write the work tree, so a modified, deleted or stray file there was
// changed by something else. Files added (staged or not) are returned by
// writer, to be held to their ref; those of writers other than current
// are held to theirs here.
func (r *Record) statusFindings(st []statusEntry, current string) (fs []Finding, fresh map[string][]string) {
	recRel := r.rel(r.p.RecordDir()) + "/"
	legacy := r.rel(r.p.LegacyRecord())
	fresh = map[string][]string{}
	add := func(path, kind, detail string) {
		fs = append(fs, Finding{Path: path, Kind: kind, Detail: detail})
	}
	for _, e := range st {
		if e.Path == legacy {
			if e.X != 'D' && e.Y != 'D' {
				if rep, err := chain.VerifyFile(filepath.Join(r.repo.WorkTree, legacy)); err == nil && !rep.OK() {
					fs = append(fs, breakFinding(legacy, rep.Break, 0))
				}
			}
			continue
		}
		rest, ok := strings.CutPrefix(e.Path, recRel)
		if !ok {
			continue
		}
		w, name, inFolder := strings.Cut(rest, "/")
		if !inFolder {
			if strings.TrimSuffix(rest, ".jsonl") == current && strings.HasSuffix(rest, ".jsonl") {
				continue // the writer's single-file chain: syncWriter migrates it
			}
			add(e.Path, KindModified, "changed outside gitwarrant; only the current writer's single-file chain may differ, until it moves to a folder")
			continue
		}
		_, segOK := parseSegName(name)
		switch {
		case !segOK || strings.Contains(name, "/"):
			add(e.Path, KindStray, "not a record segment: a writer's folder holds only <first>-<last>.jsonl files")
		case e.X == '?' || (e.X == 'A' && e.Y == ' '):
			fresh[w] = append(fresh[w], name)
		case e.X == 'D' && e.Y == ' ' && w == current && !parseSegMust(name).sealed():
			// a delta whose removal an interrupted hook staged: re-planned
		case (e.Y == 'M' || e.X == 'M') && r.hasRef(w):
			// restored to the ref (`record restore`) is fine; edited is not
			if f := r.checkSegment(w, name, nil); f != nil {
				f.Kind, f.Detail = KindModified, "a record segment was modified; segments are written once and never change: "+f.Detail
				fs = append(fs, *f)
			} else {
				fresh[w] = append(fresh[w], "")
			}
		case e.Y == 'M' || e.X == 'M':
			add(e.Path, KindModified, "a record segment was modified; segments are written once and never change")
		case e.Y == 'D' || e.X == 'D':
			add(e.Path, KindDeleted, "a record segment was deleted")
		default:
			add(e.Path, KindModified, fmt.Sprintf("unexpected change (%c%c)", e.X, e.Y))
		}
	}
	for w, names := range fresh {
		if w == current {
			continue
		}
		for _, n := range names {
			if f := r.checkSegment(w, n, nil); f != nil {
				fs = append(fs, *f)
			}
		}
	}
	return fs, fresh
}

func (r *Record) hasRef(w string) bool {
	h, err := r.repo.ReadRef(gitx.RecordRef(w))
	return err == nil && !h.IsZero()
}

func parseSegMust(name string) segFile {
	s, _ := parseSegName(name)
	return s
}

// checkSegment holds a file of writer w's folder to w's ref; without a
// ref here (another clone's writer, not fetched) the file must verify as
// a run of the chain on its own.
func (r *Record) checkSegment(w, name string, cr *gitx.ChainRef) *Finding {
	s, _ := parseSegName(name)
	path := filepath.Join(r.WriterDir(w), name)
	rel := r.rel(path)
	fail := func(line, seq int64, kind, detail string) *Finding {
		return &Finding{Path: rel, Line: line, Seq: seq, Kind: kind, Detail: detail}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		return fail(0, 0, KindUnreadable, err.Error())
	}
	if cr == nil {
		if cr, err = r.repo.ReadChainRef(gitx.RecordRef(w)); err != nil {
			return fail(0, 0, KindUnreadable, err.Error())
		}
	}
	if !cr.Exists() {
		if b := verifyRun(got, s.From); b != nil {
			f := breakFinding(rel, b, 0)
			return &f
		}
		return nil
	}
	if s.To > cr.Lines {
		return fail(cr.Lines-s.From+2, cr.Lines+1, KindBeyondRef, fmt.Sprintf("it holds entries up to #%d, %s only %d", s.To, cr.Name, cr.Lines))
	}
	want, err := r.repo.ReadRange(cr, s.From, s.To)
	if err != nil {
		return fail(0, 0, KindUnreadable, err.Error())
	}
	if !bytes.Equal(got, want) {
		line := int64(bytes.Count(commonPrefix(got, want), []byte("\n"))) + 1
		return fail(line, s.From+line-1, KindDiffers, "differs from entry #"+fmt.Sprint(s.From+line-1)+" of "+cr.Name)
	}
	return nil
}

// verifyRun verifies b as entries first, first+1, … of a chain whose
// earlier entries are elsewhere: every line's own hash, seq and link to
// the line before it (the first line's prev is taken as given).
func verifyRun(b []byte, first int64) *chain.Break {
	lines := splitLines(b)
	if len(lines) == 0 {
		return &chain.Break{Seq: first, Line: 1, Reason: chain.ReasonUnparsable, Detail: "empty segment"}
	}
	e, _, err := chain.ParseEntry(bytes.TrimSuffix(lines[0], []byte("\n")))
	if err != nil {
		return &chain.Break{Seq: first, Line: 1, Reason: chain.ReasonUnparsable, Detail: err.Error()}
	}
	rep := chain.VerifyFrom(bytes.NewReader(b), "", first, e.Prev)
	if rep.Break != nil {
		return rep.Break
	}
	if rep.LastSeq != first+int64(len(lines))-1 {
		return &chain.Break{Seq: rep.LastSeq + 1, Line: len(lines), Reason: chain.ReasonTorn, Detail: "no trailing newline"}
	}
	return nil
}

func commonPrefix(a, b []byte) []byte {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// syncWriter, under w's lock, brings w's folder up to its ref: it holds
// new files to the ref, migrates a single-file chain, writes what is
// missing and removes deltas a sealed segment replaced. It returns how
// many files it wrote or removed.
func (r *Record) syncWriter(w string, fresh map[string][]string) (int, error) {
	cr, err := r.liveRef(w)
	if err != nil || !cr.Exists() {
		return 0, err
	}
	for _, name := range fresh[w] {
		if name == "" {
			continue
		}
		if f := r.checkSegment(w, name, cr); f != nil {
			return 0, errors.New(f.Refusal())
		}
	}
	legacy := r.ChainPath(w)
	hasLegacy := false
	if _, err := os.Stat(legacy); err == nil {
		if f := r.prefixOfRef(cr, legacy); f != nil {
			return 0, errors.New(f.Refusal())
		}
		hasLegacy = true
	}
	dir := r.WriterDir(w)
	have, strays, err := listSegs(dir)
	if err != nil {
		return 0, err
	}
	if len(strays) > 0 {
		return 0, fmt.Errorf("%s: not a record segment (a writer's folder holds only <first>-<last>.jsonl files)", r.rel(filepath.Join(dir, strays[0])))
	}
	plan, err := planSegs(have, cr.Lines)
	if err != nil {
		return 0, tamperError(r.rel(dir), cr.Name, err.Error())
	}
	if err := r.writeSegs(w, cr, plan.write); err != nil {
		return 0, err
	}
	for _, s := range plan.del {
		if err := os.Remove(filepath.Join(dir, s.Name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, err
		}
	}
	n := len(plan.write) + len(plan.del)
	if hasLegacy {
		if err := os.Remove(legacy); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// writeSegs writes each file from the ref, atomically.
func (r *Record) writeSegs(w string, cr *gitx.ChainRef, segs []segFile) error {
	dir := r.WriterDir(w)
	if len(segs) > 0 {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	for _, s := range segs {
		b, err := r.repo.ReadRange(cr, s.From, s.To)
		if err != nil {
			return err
		}
		// not synced: a copy of the ref, which is the durable record
		// (docs/record.md#commit-hooks), as Git syncs no work-tree file
		path := filepath.Join(dir, s.Name)
		if err := fsx.WriteReplace(path, b, currentMode(path)); err != nil {
			return err
		}
	}
	return nil
}

// writeFileAtomic is fsx.WriteAtomic with the file's current mode kept.
func writeFileAtomic(path string, b []byte) error {
	return fsx.WriteAtomic(path, b, currentMode(path))
}

func currentMode(path string) os.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm()
	}
	return 0o644
}
