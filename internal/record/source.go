package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// Source is one chain as the live record holds it
// (docs/record.md#the-live-record): a writer's ref, or — for docket's
// record.jsonl, outside Git, and for another clone's writer whose ref was
// not fetched — its files.
type Source struct {
	Name string         // writer, or the file chain's name ("record", "local")
	Ref  *gitx.ChainRef // nil for a file chain
	// Path is the work-tree copy: a single chain file, or a writer's
	// folder (slash-terminated).
	Path string
	// Files are a folder's segment files, in order, when Ref is nil.
	Files []segFile
}

// Lines is how many entries the source holds (-1 when unknown without
// reading it).
func (s Source) Lines() int64 {
	if s.Ref != nil {
		return s.Ref.Lines
	}
	if len(s.Files) > 0 {
		return s.Files[len(s.Files)-1].To
	}
	return -1
}

// Sources lists every chain: the refs, then work-tree chains with no ref
// here, then docket's file. A missing or misplaced record folder never
// hides a ref.
func (r *Record) Sources() ([]Source, error) { return r.SourcesVia(nil) }

// SourcesVia is Sources with each ref's chain read by read instead of
// Repo.ReadChainRef (nil): a long-lived process passes one that reuses
// what it read before from the same commit (vouch.Memo).
func (r *Record) SourcesVia(read func(ref string) (*gitx.ChainRef, error)) ([]Source, error) {
	var out []Source
	seen := map[string]bool{}
	if r.repo != nil {
		if read == nil {
			read = r.repo.ReadChainRef
		}
		refs, err := r.recordRefs()
		if err != nil {
			return nil, err
		}
		for _, ref := range refs {
			cr, err := read(ref)
			if err != nil {
				return nil, err
			}
			w := strings.TrimPrefix(ref, "refs/gitwarrant/")
			seen[w] = true
			out = append(out, Source{Name: w, Ref: cr, Path: r.rel(r.WriterDir(w)) + "/"})
		}
	}
	ents, err := os.ReadDir(r.p.RecordDir())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, e := range ents {
		name := e.Name()
		switch {
		case e.IsDir() && !seen[name]:
			segs, _, err := listSegs(filepath.Join(r.p.RecordDir(), name))
			if err != nil {
				return nil, err
			}
			if len(segs) > 0 {
				seen[name] = true
				out = append(out, Source{Name: name, Path: r.rel(r.WriterDir(name)) + "/", Files: coverFiles(segs)})
			}
		case !e.IsDir() && strings.HasSuffix(name, ".jsonl"):
			w := strings.TrimSuffix(name, ".jsonl")
			if !seen[w] {
				seen[w] = true
				out = append(out, Source{Name: w, Path: r.rel(filepath.Join(r.p.RecordDir(), name))})
			}
		}
	}
	if fi, err := os.Stat(r.p.LegacyRecord()); err == nil && fi.Mode().IsRegular() {
		out = append(out, Source{Name: ChainName(r.p.LegacyRecord()), Path: r.rel(r.p.LegacyRecord())})
	}
	return out, nil
}

// coverFiles picks, from files that may overlap (a sealed segment next to
// the deltas it replaced, after a merge), a run that covers each entry
// once, in order.
func coverFiles(segs []segFile) []segFile {
	var out []segFile
	next := int64(1)
	for _, s := range segs { // by From, longest first
		if s.To < next {
			continue
		}
		if s.From < next { // overlaps what is covered: take a fitting one later
			continue
		}
		out = append(out, s)
		next = s.To + 1
	}
	return out
}

// recordRefs lists refs/gitwarrant/*, sorted, in process (the hook reads
// them to find the signed entries).
func (r *Record) recordRefs() ([]string, error) {
	refs, err := r.repo.RefsUnder("refs/gitwarrant/")
	if err != nil {
		return nil, fmt.Errorf("listing refs/gitwarrant/*: %w", err)
	}
	return refs, nil
}

// WriteSourceFrom writes a source's entries from line from (1-based) to
// its end to w. A ref is read from the chunks that hold them; a folder
// or a file chain is read whole and its first from-1 lines skipped.
func (r *Record) WriteSourceFrom(s Source, from int64, w io.Writer) error {
	if s.Ref != nil && r.repo != nil {
		if from > s.Ref.Lines {
			return nil
		}
		return r.repo.WriteRange(s.Ref, max(from, 1), s.Ref.Lines, w)
	}
	if from <= 1 {
		return r.WriteSource(s, w)
	}
	skip := &skipLines{n: from - 1, w: w}
	return r.WriteSource(s, skip)
}

// skipLines drops the first n lines written to it.
type skipLines struct {
	n int64
	w io.Writer
}

func (s *skipLines) Write(b []byte) (int, error) {
	total := len(b)
	for s.n > 0 && len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return total, nil
		}
		b = b[i+1:]
		s.n--
	}
	if len(b) > 0 {
		if _, err := s.w.Write(b); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// OpenSource streams a source's whole chain.
func (r *Record) OpenSource(s Source) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(r.WriteSource(s, pw)) }()
	return pr
}

// WriteSource writes a source's whole chain to w.
func (r *Record) WriteSource(s Source, w io.Writer) error {
	if s.Ref != nil && r.repo != nil {
		dir := r.WriterDir(s.Name)
		segs, _, _ := listSegs(dir)
		return r.feedRef(s.Ref, dir, coverFiles(segs), w, nil)
	}
	for _, f := range r.sourceFiles(s) {
		fh, err := os.Open(f)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, fh)
		fh.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// sourceFiles is a file chain's files, in order: the chain file, or a
// folder's segment files.
func (r *Record) sourceFiles(s Source) []string {
	if !strings.HasSuffix(s.Path, "/") {
		return []string{r.abs(s.Path)}
	}
	var files []string
	for _, f := range s.Files {
		files = append(files, filepath.Join(r.abs(s.Path), f.Name))
	}
	return files
}

func (r *Record) abs(rel string) string {
	if r.repo != nil {
		return filepath.Join(r.repo.WorkTree, filepath.FromSlash(rel))
	}
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(r.p.Root, filepath.FromSlash(rel))
}
