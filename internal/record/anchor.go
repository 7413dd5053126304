package record

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// Anchoring the record in the branch (docs/design.md#the-record): the pre-commit hook
// makes the commit carry this writer's chain and refuses a chain that no
// longer extends its ref; the commit-msg hook pins each changed chain's
// head in a Warrant-Head trailer; `verify --git` checks every pin in
// history is still present.

// RefusalError is a pre-commit refusal: the commit must not go ahead.
type RefusalError struct{ Problems []string }

func (e *RefusalError) Error() string {
	return "commit refused — the record is not intact:\n  " + strings.Join(e.Problems, "\n  ")
}

// PreCommit runs the pre-commit hook's work. It does nothing outside Git
// and while a rebase, merge, cherry-pick or revert is in progress (those
// replay commits that were checked when first made). It returns the chain
// files it staged.
//
// Only the current branch's writer is held to its ref: another branch's
// chain file in this work tree is at whatever version this branch's
// history holds, which is legitimately older than that writer's ref.
func (r *Record) PreCommit() ([]string, error) {
	if r.repo == nil || r.repo.Operation() != "" {
		return nil, nil
	}
	w, err := r.currentWriter()
	if err != nil {
		return nil, err
	}
	var problems []string
	if w != "" {
		if err := r.syncRef(w); err != nil {
			problems = append(problems, err.Error())
		}
	}
	reports, err := r.VerifyAll()
	if err != nil {
		return nil, err
	}
	for _, rep := range reports {
		if !rep.OK() {
			problems = append(problems, describeBreak(r.rel(rep.Path), rep.Break))
		}
	}
	if len(problems) > 0 {
		return nil, &RefusalError{Problems: problems}
	}
	return r.stage(w)
}

// currentWriter is the writer already chosen for the current branch (or
// the detached writer), without choosing one: "" when this branch has
// never appended here.
func (r *Record) currentWriter() (string, error) {
	head, err := r.repo.ReadHead()
	if err != nil {
		return "", err
	}
	if head.Detached {
		id, err := r.writerIDIfAny()
		if err != nil || id == "" {
			return "", err
		}
		return "detached-" + id, nil
	}
	known, err := r.knownWriters()
	if err != nil {
		return "", err
	}
	for _, kw := range known {
		if kw.branch == head.Branch {
			return kw.writer, nil
		}
	}
	return "", nil
}

// writerIDIfAny returns the writer id without creating one.
func (r *Record) writerIDIfAny() (string, error) {
	path := filepath.Join(r.repo.CommonDir, stateDir, cloneIDFile)
	if r.repo.Linked() {
		path = filepath.Join(r.repo.GitDir, stateDir, worktreeID)
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	return strings.TrimSpace(string(b)), err
}

// stage stages writer w's chain file, if it has one.
func (r *Record) stage(w string) ([]string, error) {
	if w == "" {
		return nil, nil
	}
	path := r.ChainPath(w)
	if _, err := os.Stat(path); err != nil {
		return nil, nil
	}
	rel := r.rel(path)
	if _, err := r.repo.Git("add", "--", rel); err != nil {
		return nil, fmt.Errorf("staging %s: %v — if the record is gitignored on purpose, remove the ignore rule or commit with --no-verify", rel, err)
	}
	return []string{rel}, nil
}

func (r *Record) rel(path string) string {
	if r.repo != nil {
		if rel, err := r.repo.Rel(path); err == nil {
			return rel
		}
	}
	return path
}

// syncRef holds the writer lock, checks byte for byte that the chain file
// extends refs/gitwarrant/<w>, and catches the ref up if it is behind.
func (r *Record) syncRef(w string) error {
	path, ref := r.ChainPath(w), gitx.RecordRef(w)
	cr, err := r.repo.ReadChainRef(ref)
	if err != nil {
		return err
	}
	_, statErr := os.Stat(path)
	if !cr.Exists() && statErr != nil {
		return nil
	}
	unlock, err := lockWriter(r.lockPath(w))
	if err != nil {
		return err
	}
	defer unlock()
	if cr, err = r.repo.ReadChainRef(ref); err != nil {
		return err
	}
	rel := r.rel(path)
	if err := r.extendsRef(cr, path, rel); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() == cr.Size {
		return err
	}
	seg, _, err := r.repo.LastSegment(cr)
	if err != nil {
		return err
	}
	if _, err := r.catchUp(cr, seg, path, rel, completeLines(path, fi.Size()), r.repo.Identity()); err != nil {
		return fmt.Errorf("catching %s up: %w", ref, err)
	}
	return nil
}

// completeLines is the size up to the last newline (a torn last line is
// left for verify to report, never committed to the ref).
func completeLines(path string, size int64) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return int64(bytes.LastIndexByte(b[:size], '\n') + 1)
}

// extendsRef compares the ref's whole content with the file's start.
func (r *Record) extendsRef(cr *gitx.ChainRef, path, rel string) error {
	if !cr.Exists() {
		return nil
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return tamperError(rel, cr.Name, fmt.Sprintf("the file was deleted, but the ref holds %d entries", cr.Lines))
	}
	if err != nil {
		return err
	}
	defer f.Close()
	cmp := &prefixWriter{file: bufio.NewReaderSize(f, 1<<16), line: 1}
	if err := r.repo.ChainContent(cr, cmp); err != nil && !errors.Is(err, errDiffer) {
		return err
	}
	if cmp.differ {
		what := fmt.Sprintf("entry %d (line %d) was edited or dropped", cmp.line, cmp.line)
		if cmp.short {
			what = fmt.Sprintf("the file ends at line %d but the ref holds %d entries: entries were deleted", cmp.line, cr.Lines)
		}
		err := tamperError(rel, cr.Name, what)
		err.(*tamperErr).short = cmp.short
		return err
	}
	return nil
}

var errDiffer = errors.New("content differs")

// prefixWriter checks that what is written to it is a prefix of file,
// counting lines to name the first difference.
type prefixWriter struct {
	file          *bufio.Reader
	line          int64
	differ, short bool
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	for i, c := range b {
		got, err := p.file.ReadByte()
		if err == io.EOF {
			p.differ, p.short = true, true
			return i, errDiffer
		}
		if err != nil {
			return i, err
		}
		if got != c {
			p.differ = true
			return i, errDiffer
		}
		if c == '\n' {
			p.line++
		}
	}
	return len(b), nil
}

func describeBreak(rel string, b *chain.Break) string {
	s := fmt.Sprintf("%s:%d: %s", rel, b.Line, b.Reason)
	if b.Seq > 0 {
		s += fmt.Sprintf(" at entry %d", b.Seq)
	}
	if b.Detail != "" {
		s += " (" + b.Detail + ")"
	}
	if b.Reason == chain.ReasonTorn {
		return s + " — an interrupted write; inspect the line, then remove it or complete it, and run `gitwarrant record verify`"
	}
	return s + " — run `gitwarrant record verify`; restore the file from Git (`git checkout -- " + rel + "`) if the change was not intended"
}

// CommitMsg runs the commit-msg hook's work: one Warrant-Head trailer per
// chain changed in the commit being made, naming its staged head.
func (r *Record) CommitMsg(msgFile string) ([]gitx.Pin, error) {
	if r.repo == nil || r.repo.Operation() != "" {
		return nil, nil
	}
	pins, err := r.StagedHeads()
	if err != nil {
		return nil, err
	}
	return pins, r.repo.SetHeadTrailers(msgFile, pins)
}

// StagedHeads lists, for each chain file staged with changes against HEAD,
// the hash of its last staged entry.
func (r *Record) StagedHeads() ([]gitx.Pin, error) {
	args := []string{"diff", "--cached", "--name-only", "-z", "--diff-filter=AM", "--", r.rel(r.p.RecordDir()), r.rel(r.p.LegacyRecord())}
	out, err := r.repo.Git(args...)
	if err != nil {
		return nil, err
	}
	var pins []gitx.Pin
	for _, path := range strings.Split(string(out), "\x00") {
		if !strings.HasSuffix(path, ".jsonl") {
			continue
		}
		blob, err := r.repo.Git("cat-file", "blob", ":"+path)
		if err != nil {
			return nil, err
		}
		blob = bytes.TrimRight(blob, "\n")
		if len(blob) == 0 {
			continue
		}
		last := blob[bytes.LastIndexByte(blob, '\n')+1:]
		e, _, err := chain.ParseEntry(last)
		if err != nil || e.Hash == "" {
			return nil, fmt.Errorf("%s: the staged last entry cannot be read (%v) — run `gitwarrant record verify`", path, err)
		}
		pins = append(pins, gitx.Pin{Path: path, Hash: e.Hash})
	}
	return pins, nil
}

// PinCheck is the outcome of one pinned head in history.
type PinCheck struct {
	gitx.Pin
	Status chain.HeadStatus
	Seq    int64 // where the head sits, when present
}

// VerifyGit walks HEAD's history and checks every Warrant-Head pin against
// the chain in the work tree (docs/design.md#the-record): missing means the chain was
// truncated or rewritten since that commit; present but not last means it
// grew, which is fine.
func (r *Record) VerifyGit() ([]PinCheck, error) {
	if r.repo == nil {
		return nil, fmt.Errorf("%s is not in a Git repository, so there is no history to check — drop --git", r.p.Dir)
	}
	pins, err := r.repo.PinnedHeads("HEAD")
	if err != nil {
		return nil, err
	}
	reports := map[string]*chain.Report{}
	var out []PinCheck
	for _, p := range pins {
		rep, seen := reports[p.Path]
		if !seen {
			rep, _ = chain.VerifyFile(filepath.Join(r.repo.WorkTree, filepath.FromSlash(p.Path)))
			reports[p.Path] = rep
		}
		pc := PinCheck{Pin: p, Status: chain.HeadMissing}
		if rep != nil {
			pc.Status, pc.Seq = rep.HeadStatus(p.Hash)
		}
		out = append(out, pc)
	}
	return out, nil
}

// Push pushes every refs/gitwarrant/* ref to remote with an explicit
// refspec, leaving the user's push configuration alone.
func (r *Record) Push(remote string) (string, error) {
	if r.repo == nil {
		return "", fmt.Errorf("%s is not in a Git repository: there are no record refs to push", r.p.Dir)
	}
	if remote == "" {
		remote = "origin"
	}
	out, err := r.repo.Git("push", "--porcelain", remote, "refs/gitwarrant/*:refs/gitwarrant/*")
	if err != nil {
		return string(out), fmt.Errorf("%w — check the remote name (`git remote -v`) and your access", err)
	}
	return string(out), nil
}
