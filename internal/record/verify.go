package record

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// ChainState is one verified chain.
type ChainState struct {
	Name    string // writer, or "record" for docket's file
	Path    string // its work-tree copy
	Ref     string // its ref, "" for a file chain
	Entries int64  // entries that verified
	Head    string // hash of the last verified entry
	Note    string // e.g. why a chain has no ref here
}

// Verification is the outcome of `record verify`: every chain, and every
// finding (docs/record.md#verification).
type Verification struct {
	Chains   []ChainState
	Findings []Finding
}

// OK reports whether nothing was found.
func (v *Verification) OK() bool { return len(v.Findings) == 0 }

// Verify verifies the live record: every ref's chain in full, every
// work-tree copy against its ref (a copy may be shorter, never different),
// every known writer's ref present, and the record folder unchanged since
// HEAD but for what the next commit adds.
func (r *Record) Verify() (*Verification, error) {
	srcs, err := r.Sources()
	if err != nil {
		return nil, err
	}
	v := &Verification{}
	withRef := map[string]bool{}
	for _, s := range srcs {
		switch {
		case s.Ref != nil:
			withRef[s.Name] = true
			r.verifyRef(v, s)
		case strings.HasSuffix(s.Path, "/"):
			r.verifyFolder(v, s)
		default:
			r.verifyFile(v, s)
		}
	}
	if r.repo == nil {
		return v, nil
	}
	for _, w := range r.startedWriters() {
		if !withRef[w] && !r.hasCopy(w) {
			v.Findings = append(v.Findings, Finding{Path: gitx.RecordRef(w), Kind: KindRefGone,
				Detail: "writer " + w + " recorded in this clone, but its ref is gone and no copy is left"})
		}
	}
	cur, err := r.currentWriter()
	if err != nil {
		return nil, err
	}
	st, err := r.recordStatus()
	if err != nil {
		return nil, err
	}
	fs, _ := r.statusFindings(st, cur)
	v.Findings = append(v.Findings, fs...)
	v.Findings = append(v.Findings, r.journalFindings()...)
	return v, nil
}

func (r *Record) hasCopy(w string) bool {
	if _, err := os.Stat(r.ChainPath(w)); err == nil {
		return true
	}
	segs, _, _ := listSegs(r.WriterDir(w))
	return len(segs) > 0
}

// verifyRef verifies a ref's chain and, in the same pass, holds its
// work-tree copy to it.
func (r *Record) verifyRef(v *Verification, s Source) {
	dir := r.WriterDir(s.Name)
	segs, strays, _ := listSegs(dir)
	cover := coverFiles(segs)
	cmp := newCopyCompare(r, dir, cover)
	// The chain is written straight into the verifier's blocks; past a
	// break it drops what follows, and the compare still sees the whole ref.
	pv := chain.NewParallelVerifier(s.Ref.Name, 1, chain.Genesis)
	var rep *chain.Report
	if err := r.feedRef(s.Ref, dir, cover, pv, cmp); err != nil {
		rep = pv.CloseWithError(err)
	} else {
		rep = pv.Close()
	}
	v.Chains = append(v.Chains, ChainState{Name: s.Name, Path: s.Path, Ref: s.Ref.Name, Entries: int64(rep.Entries), Head: rep.Head})
	if rep.Break != nil {
		v.Findings = append(v.Findings, breakFinding(s.Ref.Name, rep.Break, 0))
	} else if int64(rep.Entries) != s.Ref.Lines {
		v.Findings = append(v.Findings, Finding{Path: s.Ref.Name, Kind: chain.ReasonUnparsable,
			Detail: fmt.Sprintf("its commit says %d entries, its content holds %d", s.Ref.Lines, rep.Entries)})
	}
	v.Findings = append(v.Findings, cmp.finish(s.Ref.Lines)...)
	for _, name := range strays {
		v.Findings = append(v.Findings, Finding{Path: r.rel(filepath.Join(dir, name)), Kind: KindStray,
			Detail: "not a record segment: a writer's folder holds only <first>-<last>.jsonl files"})
	}
	inCover := map[string]bool{}
	for _, f := range cover {
		inCover[f.Name] = true
	}
	for _, f := range segs { // overlapping files a merge left: held one by one
		if !inCover[f.Name] {
			if fd := r.checkSegment(s.Name, f.Name, s.Ref); fd != nil {
				v.Findings = append(v.Findings, *fd)
			}
		}
	}
	if legacy := r.ChainPath(s.Name); fileExists(legacy) {
		if fd := r.prefixOfRef(s.Ref, legacy); fd != nil {
			v.Findings = append(v.Findings, *fd)
		}
	}
}

// chunksPerSegment is how many of the ref's chunks a sealed segment spans.
const chunksPerSegment = SegmentEntries / gitx.SegmentLines

// feedRef writes the ref's chain to w, in order, and to cmp, which holds
// the work-tree files to it. A sealed segment in the work tree whose
// 128-line slices have the blob ids of the ref's chunks for its range is
// the ref's content byte for byte (docs/record.md#verification): its own
// bytes are verified instead of inflating the ref's, and need no
// line-by-line comparison. Anything else — a delta, the ref's tail, a
// segment that differs — is read from the ref and compared line by line,
// which names the first entry that differs. cmp may be nil (`record log`
// reads the same way, for the same speed).
func (r *Record) feedRef(cr *gitx.ChainRef, dir string, cover []segFile, w io.Writer, cmp *copyCompare) error {
	ch, err := r.repo.Chunks(cr)
	if err != nil {
		return err
	}
	var scratch []byte // one segment file at a time: w keeps none of it
	sealed := map[int64]segFile{}
	for _, s := range cover {
		if s.sealed() && s.To <= cr.Lines {
			sealed[(s.From-1)/gitx.SegmentLines] = s
		}
	}
	for i := int64(0); i < ch.N; {
		if s, ok := sealed[i]; ok {
			var b []byte
			if b, scratch = sameAsRef(ch, i, filepath.Join(dir, s.Name), scratch); b != nil {
				if _, err := w.Write(b); err != nil {
					return err
				}
				if cmp != nil {
					cmp.matched(s)
				}
				i += chunksPerSegment
				continue
			}
		}
		b, err := ch.Read(i)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		if cmp != nil {
			cmp.Write(b)
		}
		i++
	}
	return nil
}

// sameAsRef returns the file at path when its 128-line slices are the
// ref's chunks first, first+1, … by blob id, else nil. The file is read
// into buf, grown as needed and returned for the next file.
func sameAsRef(ch *gitx.Chunks, first int64, path string, buf []byte) ([]byte, []byte) {
	b, err := readInto(path, buf)
	if err != nil {
		return nil, buf
	}
	rest := b
	for k := int64(0); k < chunksPerSegment; k++ {
		end := 0
		for range gitx.SegmentLines {
			j := bytes.IndexByte(rest[end:], '\n')
			if j < 0 {
				return nil, b
			}
			end += j + 1
		}
		id, err := ch.ID(first + k)
		if err != nil || gitx.BlobID(rest[:end]) != id {
			return nil, b
		}
		rest = rest[end:]
	}
	if len(rest) != 0 {
		return nil, b
	}
	return b, b
}

// readInto reads the file at path into buf, growing it when the file is
// larger than its capacity (os.ReadFile allocates, and zeroes, anew).
func readInto(path string, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return buf, err
	}
	if size := int(fi.Size()) + 1; cap(buf) < size { // +1: see the end
		buf = make([]byte, 0, size)
	}
	buf = buf[:0]
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) { // grew since Stat
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// prefixOfRef holds a single-file chain to its ref: it may be shorter.
func (r *Record) prefixOfRef(cr *gitx.ChainRef, path string) *Finding {
	rel := r.rel(path)
	got, err := os.ReadFile(path)
	if err != nil {
		return &Finding{Path: rel, Kind: KindUnreadable, Detail: err.Error()}
	}
	n := int64(bytes.Count(got, []byte("\n")))
	if n > cr.Lines {
		return &Finding{Path: rel, Line: cr.Lines + 1, Seq: cr.Lines + 1, Kind: KindBeyondRef, Detail: fmt.Sprintf("%s holds %d entries", cr.Name, cr.Lines)}
	}
	var want []byte
	if n > 0 {
		if want, err = r.repo.ReadRange(cr, 1, n); err != nil {
			return &Finding{Path: rel, Kind: KindUnreadable, Detail: err.Error()}
		}
	}
	if !bytes.Equal(got, want) {
		line := int64(bytes.Count(commonPrefix(got, want), []byte("\n"))) + 1
		return &Finding{Path: rel, Line: line, Seq: line, Kind: KindDiffers, Detail: "differs from entry #" + fmt.Sprint(line) + " of " + cr.Name}
	}
	return nil
}

// verifyFolder verifies a writer's folder that has no ref here: a writer
// of this clone whose ref is gone, or another clone's not fetched.
func (r *Record) verifyFolder(v *Verification, s Source) {
	cs := ChainState{Name: s.Name, Path: s.Path}
	if r.repo != nil && r.ownWriter(s.Name) {
		v.Findings = append(v.Findings, Finding{Path: gitx.RecordRef(s.Name), Kind: KindRefGone,
			Detail: "writer " + s.Name + " is this clone's, its chain is in " + s.Path + ", but its ref is gone"})
	}
	cs.Note = "no ref here (another clone's writer): run `gitwarrant record fetch` to verify it against its ref"
	prev := ""
	for _, f := range s.Files {
		path := filepath.Join(r.abs(s.Path), f.Name)
		b, err := os.ReadFile(path)
		if err != nil {
			v.Findings = append(v.Findings, Finding{Path: r.rel(path), Kind: KindUnreadable, Detail: err.Error()})
			break
		}
		first := chain.Genesis
		if f.From > 1 {
			first = prev
		}
		var rep *chain.Report
		if f.From == 1 || (prev != "" && f.From == cs.Entries+1) {
			rep = chain.VerifyStream(bytes.NewReader(b), r.rel(path), f.From, first)
		} else {
			if bk := verifyRun(b, f.From); bk != nil {
				v.Findings = append(v.Findings, breakFinding(r.rel(path), bk, 0))
				break
			}
			rep = &chain.Report{Entries: int(f.To - f.From + 1), LastSeq: f.To}
			tail, _, _ := chain.ParseEntry(bytes.TrimSuffix(splitLines(b)[len(splitLines(b))-1], []byte("\n")))
			rep.Head = tail.Hash
		}
		if rep.Break != nil {
			v.Findings = append(v.Findings, breakFinding(r.rel(path), rep.Break, 0))
			break
		}
		cs.Entries, cs.Head, prev = rep.LastSeq, rep.Head, rep.Head
	}
	v.Chains = append(v.Chains, cs)
}

// ownWriter reports whether w is a writer of this clone: started here,
// chosen by this work tree, or carrying this clone's id.
func (r *Record) ownWriter(w string) bool {
	if r.started(w) {
		return true
	}
	known, _ := r.knownWriters()
	for _, kw := range known {
		if kw.writer == w {
			return true
		}
	}
	id, _ := r.writerIDIfAny()
	return id != "" && (strings.HasSuffix(w, "-"+id) || strings.Contains(w, "-"+id+"-"))
}

// verifyFile verifies a single-file chain (docket's, outside Git, or a
// single-file chain whose writer has no ref here).
func (r *Record) verifyFile(v *Verification, s Source) {
	path := r.abs(s.Path)
	w := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if r.repo != nil && filepath.Dir(path) == r.p.RecordDir() && r.ownWriter(w) {
		v.Findings = append(v.Findings, Finding{Path: gitx.RecordRef(w), Kind: KindRefGone,
			Detail: "writer " + w + " is this clone's, its chain is in " + s.Path + ", but its ref is gone"})
	}
	f, err := os.Open(path)
	if err != nil {
		v.Findings = append(v.Findings, Finding{Path: s.Path, Kind: KindUnreadable, Detail: err.Error()})
		return
	}
	defer f.Close()
	rep := chain.VerifyParallel(f, s.Path, 1, chain.Genesis)
	v.Chains = append(v.Chains, ChainState{Name: s.Name, Path: s.Path, Entries: int64(rep.Entries), Head: rep.Head})
	if rep.Break != nil {
		v.Findings = append(v.Findings, breakFinding(s.Path, rep.Break, 0))
	}
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// FindHead says where a head hash sits: the last entry of a chain, an
// earlier entry, or in none; with the chain's name and the entry's seq.
func (r *Record) FindHead(hash string) (st chain.HeadStatus, path string, seq, total int64, err error) {
	hash = strings.ToLower(strings.TrimSpace(hash))
	if !strings.HasPrefix(hash, "sha256:") {
		hash = "sha256:" + hash
	}
	srcs, err := r.Sources()
	if err != nil {
		return chain.HeadMissing, "", 0, 0, err
	}
	for _, s := range srcs {
		rc := r.OpenSource(s)
		sc := &seqScanner{want: hash}
		_, err := io.Copy(sc, rc)
		rc.Close()
		if err != nil {
			return chain.HeadMissing, "", 0, 0, err
		}
		if sc.found > 0 {
			if sc.found == sc.lines {
				return chain.HeadIsLast, s.Path, sc.found, sc.lines, nil
			}
			return chain.HeadPresent, s.Path, sc.found, sc.lines, nil
		}
	}
	return chain.HeadMissing, "", 0, 0, nil
}

// seqScanner finds the line whose entry hash is want.
type seqScanner struct {
	want  string
	lines int64
	found int64
	ls    lineSplitter
}

func (s *seqScanner) Write(b []byte) (int, error) {
	s.ls.each = func(line []byte) {
		s.lines++
		if s.found == 0 && entryHash(line) == s.want {
			s.found = s.lines
		}
	}
	return s.ls.Write(b)
}
