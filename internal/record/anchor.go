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
	"github.com/gitwarrant/gitwarrant/internal/fsx"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

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
	id, _, err := readID(path)
	return id, err
}

func (r *Record) rel(path string) string {
	if r.repo != nil {
		if rel, err := r.repo.Rel(path); err == nil {
			return rel
		}
	} else if rel, err := filepath.Rel(r.p.Root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
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
	return s + " — run `gitwarrant record verify`; `gitwarrant record restore` brings a chain back to its ref"
}

// CommitMsg runs the commit-msg hook's work: one Warrant-Head trailer per
// chain changed in the commit being made, naming its staged head.
func (r *Record) CommitMsg(msgFile string) ([]gitx.Pin, error) {
	if r.repo == nil || r.repo.Operation() != "" {
		return nil, nil
	}
	pins, ok := r.takeHandoff()
	if !ok {
		var err error
		if pins, err = r.StagedHeads(); err != nil {
			return nil, err
		}
	}
	return pins, r.repo.SetHeadTrailers(msgFile, pins)
}

// The pre-commit hook hands the pins it computed to the commit-msg hook of
// the same `git commit` (docs/record.md#commit-hooks), saving commit-msg a
// `git diff --cached`: a file naming the git process both hooks run under
// and HEAD. Anything else (a hook manager between git and gitwarrant, a
// merge's commit-msg without pre-commit) finds no matching handoff and
// asks Git.
const handoffFile = "commit-pins"

func (r *Record) handoffKey() string {
	return fmt.Sprintf("%d %s", os.Getppid(), r.repo.HeadCommit())
}

// trailersFile hands the pre-commit hook's pins to the commit-msg shim
// (hooks/commit-msg), which adds them with `git interpret-trailers`
// without starting gitwarrant: "<pid> <start time>" of the git process
// both hooks run under — the start time, read from /proc, makes a reused
// pid a different process — then one "Warrant-Head: <path> <hash>" line
// per pin.
const trailersFile = "commit-trailers"

// parentKey names the git process that runs this hook, or "" where /proc
// does not say when it started.
func parentKey() string {
	ppid := os.Getppid()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", ppid))
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndex(s, ") ")
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 20 {
		return ""
	}
	return fmt.Sprintf("%d %s", ppid, f[19]) // field 22, starttime
}

func (r *Record) writeHandoff(pins []gitx.Pin, key string) {
	note := filepath.Join(r.repo.GitDir, stateDir, trailersFile)
	if pk := parentKey(); pk != "" {
		var b strings.Builder
		b.WriteString(pk + "\n")
		for _, p := range pins {
			fmt.Fprintf(&b, "%s: %s %s\n", gitx.HeadTrailer, p.Path, p.Hash)
		}
		fsx.WriteReplace(note, []byte(b.String()), 0o644)
	} else {
		os.Remove(note)
	}
	var b strings.Builder
	b.WriteString(key + "\n")
	for _, p := range pins {
		b.WriteString(p.Path + "\t" + p.Hash + "\n")
	}
	path := filepath.Join(r.repo.GitDir, stateDir, handoffFile)
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		fsx.WriteReplace(path, []byte(b.String()), 0o644)
	}
}

func (r *Record) takeHandoff() ([]gitx.Pin, bool) {
	path := filepath.Join(r.repo.GitDir, stateDir, handoffFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	os.Remove(path)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	key := fmt.Sprintf("%d ", os.Getppid())
	if !strings.HasPrefix(lines[0], key) || lines[0] != r.handoffKey() {
		return nil, false
	}
	var pins []gitx.Pin
	for _, l := range lines[1:] {
		if path, hash, ok := strings.Cut(l, "\t"); ok {
			pins = append(pins, gitx.Pin{Path: path, Hash: hash})
		}
	}
	return pins, true
}

// StagedHeads lists, for each chain staged with changes against HEAD,
// the hash of its last staged entry: per writer folder, the last line of
// its last file (the hook has just made the folder equal to the index).
func (r *Record) StagedHeads() ([]gitx.Pin, error) {
	recRel := r.rel(r.p.RecordDir())
	legacy := r.rel(r.p.LegacyRecord())
	out, err := r.repo.Git("diff", "--cached", "--name-only", "-z", "--diff-filter=AM", "--", recRel, legacy)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var pins []gitx.Pin
	for _, path := range strings.Split(string(out), "\x00") {
		if !strings.HasSuffix(path, ".jsonl") {
			continue
		}
		chainPath, file := path, filepath.Join(r.repo.WorkTree, filepath.FromSlash(path))
		if rest, ok := strings.CutPrefix(path, recRel+"/"); ok {
			if w, _, inFolder := strings.Cut(rest, "/"); inFolder {
				chainPath = recRel + "/" + w + "/"
				segs, _, err := listSegs(r.WriterDir(w))
				if err != nil || len(segs) == 0 {
					continue
				}
				file = filepath.Join(r.WriterDir(w), lastSeg(segs).Name)
			}
		}
		if seen[chainPath] {
			continue
		}
		seen[chainPath] = true
		e, ok, err := chain.Tail(file)
		if err != nil || !ok || e.Hash == "" {
			return nil, fmt.Errorf("%s: the staged last entry cannot be read (%v) — run `gitwarrant record verify`", r.rel(file), err)
		}
		pins = append(pins, gitx.Pin{Path: chainPath, Hash: e.Hash})
	}
	return pins, nil
}

// lastSeg is the file holding the highest entries.
func lastSeg(segs []segFile) segFile {
	last := segs[0]
	for _, s := range segs {
		if s.To > last.To {
			last = s
		}
	}
	return last
}

// PinCheck is the outcome of one pinned head in history.
type PinCheck struct {
	gitx.Pin
	Status chain.HeadStatus
}

// VerifyGit walks HEAD's history and checks every Warrant-Head pin is in
// its writer's live record, the ref (docs/record.md#commit-hooks): a
// commit a rebase dropped drops nothing from the ref, so its pins stay
// present; a missing one means the ref was rewritten. docket's file and
// chains without a ref here are looked up in the work tree.
func (r *Record) VerifyGit() ([]PinCheck, error) {
	if r.repo == nil {
		return nil, fmt.Errorf("%s is not in a Git repository, so there is no history to check — drop --git", r.p.Dir)
	}
	pins, err := r.repo.PinnedHeads("HEAD")
	if err != nil {
		return nil, err
	}
	want := map[string]map[string]bool{} // source → hashes
	for _, p := range pins {
		src := r.pinSource(p.Path)
		if want[src] == nil {
			want[src] = map[string]bool{}
		}
		want[src][p.Hash] = false
	}
	for src, hashes := range want {
		if err := r.findHashes(src, hashes); err != nil {
			return nil, err
		}
	}
	var out []PinCheck
	for _, p := range pins {
		pc := PinCheck{Pin: p, Status: chain.HeadMissing}
		if want[r.pinSource(p.Path)][p.Hash] {
			pc.Status = chain.HeadPresent
		}
		out = append(out, pc)
	}
	return out, nil
}

// pinSource maps a pinned chain path to the writer's ref name when the
// path is a writer's folder or single file and the ref exists here, else
// to the path itself.
func (r *Record) pinSource(path string) string {
	recRel := r.rel(r.p.RecordDir()) + "/"
	if rest, ok := strings.CutPrefix(path, recRel); ok {
		w := strings.TrimSuffix(strings.TrimSuffix(rest, "/"), ".jsonl")
		if !strings.Contains(w, "/") {
			if h, err := r.repo.ReadRef(gitx.RecordRef(w)); err == nil && !h.IsZero() {
				return gitx.RecordRef(w)
			}
		}
	}
	return path
}

// findHashes marks which of hashes appear as an entry hash in src (a ref
// name or a work-tree path), streaming it.
func (r *Record) findHashes(src string, hashes map[string]bool) error {
	scan := &hashScanner{want: hashes}
	if strings.HasPrefix(src, "refs/") {
		cr, err := r.repo.ReadChainRef(src)
		if err != nil {
			return err
		}
		return r.repo.ChainContent(cr, scan)
	}
	full := filepath.Join(r.repo.WorkTree, filepath.FromSlash(src))
	files := []string{full}
	if strings.HasSuffix(src, "/") {
		segs, _, _ := listSegs(full)
		files = files[:0]
		for _, s := range segs {
			files = append(files, filepath.Join(full, s.Name))
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		scan.Write(b)
	}
	return nil
}

// hashScanner marks hashes seen as entry hashes.
type hashScanner struct {
	want map[string]bool
	ls   lineSplitter
}

func (h *hashScanner) Write(b []byte) (int, error) {
	h.ls.each = func(line []byte) {
		if v := entryHash(line); v != "" {
			if _, ok := h.want[v]; ok {
				h.want[v] = true
			}
		}
	}
	return h.ls.Write(b)
}

// entryHash is a line's own "hash" field ("" when it does not parse).
func entryHash(line []byte) string {
	e, _, err := chain.ParseEntry(line)
	if err != nil {
		return ""
	}
	return e.Hash
}

// lineSplitter calls each for every whole line written to it.
type lineSplitter struct {
	each func(line []byte)
	rest []byte
}

func (l *lineSplitter) Write(b []byte) (int, error) {
	data := b
	if len(l.rest) > 0 {
		data = append(l.rest, b...)
	}
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		l.each(data[:i])
		data = data[i+1:]
	}
	l.rest = append(l.rest[:0:0], data...)
	return len(b), nil
}

// Push pushes this clone's writers' refs to remote (docs/record.md#push-and-fetch)
// with explicit refspecs, leaving the user's push configuration alone.
// Other writers' refs are theirs to push: a copy of one here may be older
// than the remote's, which a push would try to rewind.
func (r *Record) Push(remote string) (string, error) {
	if r.repo == nil {
		return "", fmt.Errorf("%s is not in a Git repository: there are no record refs to push", r.p.Dir)
	}
	if remote == "" {
		remote = "origin"
	}
	args := []string{"push", "--porcelain", remote}
	for _, w := range r.startedWriters() {
		if r.hasRef(w) {
			args = append(args, gitx.RecordRef(w)+":"+gitx.RecordRef(w))
		}
	}
	if len(args) == 3 {
		args = append(args, "refs/gitwarrant/*:refs/gitwarrant/*") // refs made before writers were listed
	}
	out, err := r.repo.Git(args...)
	if err != nil {
		if strings.Contains(err.Error(), "non-fast-forward") || strings.Contains(string(out), "[rejected]") || strings.Contains(err.Error(), "fetch first") {
			return string(out), fmt.Errorf("%s refused a record ref as non-fast-forward: its copy of that writer's chain has entries this clone does not. A chain only ever grows, so two checkouts wrote as one writer (a copy made before copies were detected) or the remote was rewritten. Run `gitwarrant record fetch %s` and `gitwarrant record verify`; never force-push a record ref", remote, remote)
		}
		return string(out), fmt.Errorf("%w — check the remote name (`git remote -v`) and your access", err)
	}
	return string(out), nil
}

// Fetch fetches remote's refs/gitwarrant/* (the counterpart of Push) into
// refs/gitwarrant-remotes/<remote>/ and moves each local ref only forward:
// a new writer's ref is created, a ref the remote extends is
// fast-forwarded, one the remote is behind is kept, and one that diverged
// is reported and kept.
func (r *Record) Fetch(remote string) (string, error) {
	if r.repo == nil {
		return "", fmt.Errorf("%s is not in a Git repository: there are no record refs to fetch", r.p.Dir)
	}
	if remote == "" {
		remote = "origin"
	}
	ns := "refs/gitwarrant-remotes/" + strings.NewReplacer("/", "-", ":", "-").Replace(remote) + "/"
	if _, err := r.repo.Git("fetch", "-q", "--no-write-fetch-head", remote, "+refs/gitwarrant/*:"+ns+"*"); err != nil {
		return "", fmt.Errorf("%w — check the remote name (`git remote -v`) and your access", err)
	}
	out, err := r.repo.Git("for-each-ref", "--format=%(refname) %(objectname)", ns)
	if err != nil {
		return "", err
	}
	var report strings.Builder
	var diverged []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, obj, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		w := strings.TrimPrefix(name, ns)
		local := gitx.RecordRef(w)
		cur, err := r.repo.ReadRef(local)
		if err != nil {
			return report.String(), err
		}
		switch {
		case cur.String() == obj:
			continue
		case cur.IsZero():
			fmt.Fprintf(&report, "new      %s\n", local)
		case r.isAncestor(cur.String(), obj):
			fmt.Fprintf(&report, "forward  %s\n", local)
		case r.isAncestor(obj, cur.String()):
			fmt.Fprintf(&report, "ahead    %s (the remote has fewer entries; `gitwarrant record push` sends ours)\n", local)
			continue
		default:
			diverged = append(diverged, local)
			fmt.Fprintf(&report, "DIVERGED %s (kept; the remote's is %s)\n", local, name)
			continue
		}
		if _, err := r.repo.Git("update-ref", local, obj, cur.String()); err != nil {
			return report.String(), err
		}
	}
	if len(diverged) > 0 {
		return report.String(), fmt.Errorf("%s holds record refs that do not extend the local ones: %s — two checkouts wrote as one writer, or one copy was rewritten; compare with `git log <ref>` and run `gitwarrant record verify`", remote, strings.Join(diverged, ", "))
	}
	return report.String(), nil
}

func (r *Record) isAncestor(a, b string) bool {
	_, err := r.repo.Git("merge-base", "--is-ancestor", a, b)
	return err == nil
}
