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

// DefaultWriter is the writer commands act on when none is named: this
// work tree's writer for the current branch, "" when it has none yet.
func (r *Record) DefaultWriter() (string, error) {
	if r.repo == nil {
		return LocalWriter, nil
	}
	return r.currentWriter()
}

// Export writes writer w's whole chain, one spec-valid chain file, to out
// (docs/record.md#export): from its ref in Git, from its file outside.
func (r *Record) Export(w string, out io.Writer) error {
	if r.repo == nil {
		f, err := os.Open(r.ChainPath(w))
		if err != nil {
			return fmt.Errorf("no chain for writer %s: %w", w, err)
		}
		defer f.Close()
		_, err = io.Copy(out, f)
		return err
	}
	cr, err := r.repo.ReadChainRef(gitx.RecordRef(w))
	if err != nil {
		return err
	}
	if !cr.Exists() {
		return fmt.Errorf("writer %s has no ref here (%s) — `gitwarrant record verify` lists the chains", w, gitx.RecordRef(w))
	}
	return r.repo.ChainContent(cr, out)
}

// Restored is what Restore did.
type Restored struct {
	// Saved is where the old work-tree copy went, "" when there was none.
	Saved string
	// Files is how many files were written from the ref, and Entries how
	// many of its entries they hold (1 to Entries).
	Files   int
	Entries int64
	// RefEntries is the length of the writer's chain on its ref.
	RefEntries int64
}

// Restore brings writer w's work-tree copy back to its ref
// (docs/record.md#restore): the folder (and a single-file chain) is moved
// aside under <git dir>/gitwarrant/saved/, then every file HEAD holds for
// the writer is written again from the ref and its index entry reset to
// HEAD. What HEAD does not hold is left to the next commit, whose
// pre-commit hook carries the ref into the branch.
func (r *Record) Restore(w string) (Restored, error) {
	var done Restored
	if r.repo == nil {
		return done, errors.New("outside Git the chain file is the record: there is no ref to restore it from")
	}
	unlock, err := r.lockWriter(w)
	if err != nil {
		return done, err
	}
	defer unlock()
	cr, err := r.repo.ReadChainRef(gitx.RecordRef(w))
	if err != nil {
		return done, err
	}
	if !cr.Exists() {
		return done, refGoneError(w, "its chain is to be restored")
	}
	done.RefEntries = cr.Lines
	saved := r.statePath("saved", fmt.Sprintf("%s-%s", w, r.Now().UTC().Format("20060102T150405.000")))
	dir, legacy := r.WriterDir(w), r.ChainPath(w)
	for _, p := range []string{dir, legacy} {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if err := os.MkdirAll(saved, 0o755); err != nil {
			return done, err
		}
		if err := os.Rename(p, filepath.Join(saved, filepath.Base(p))); err != nil {
			return done, fmt.Errorf("moving %s aside: %w", r.rel(p), err)
		}
		done.Saved = saved
	}
	names, err := r.headFiles(w)
	if err != nil {
		return done, err
	}
	var segs []segFile
	for _, n := range names {
		if n.seg.Name != "" && n.seg.To <= cr.Lines {
			segs = append(segs, n.seg)
			done.Files++
			done.Entries = max(done.Entries, n.seg.To)
		}
	}
	if err := r.writeSegs(w, cr, segs); err != nil {
		return done, err
	}
	for _, n := range names {
		if n.legacyLines > 0 && n.legacyLines <= cr.Lines {
			b, err := r.repo.ReadRange(cr, 1, n.legacyLines)
			if err == nil {
				err = writeFileAtomic(legacy, b)
			}
			if err != nil {
				return done, err
			}
			done.Files++
			done.Entries = max(done.Entries, n.legacyLines)
		}
	}
	if len(names) > 0 {
		if _, err := r.repo.Git("reset", "-q", "--", r.rel(dir), r.rel(legacy)); err != nil {
			return done, err
		}
	}
	return done, nil
}

type headFile struct {
	seg         segFile
	legacyLines int64
}

// headFiles lists what HEAD holds for writer w.
func (r *Record) headFiles(w string) ([]headFile, error) {
	if _, err := r.repo.Git("rev-parse", "-q", "--verify", "HEAD^{commit}"); err != nil {
		return nil, nil
	}
	dir, legacy := r.rel(r.WriterDir(w)), r.rel(r.ChainPath(w))
	out, err := r.repo.Git("ls-tree", "-r", "-z", "--name-only", "HEAD", "--", dir+"/", legacy)
	if err != nil {
		return nil, err
	}
	var hf []headFile
	for _, p := range strings.Split(string(out), "\x00") {
		switch {
		case p == legacy:
			b, err := r.repo.Git("cat-file", "blob", "HEAD:"+p)
			if err != nil {
				return nil, err
			}
			hf = append(hf, headFile{legacyLines: int64(bytes.Count(b, []byte("\n")))})
		case strings.HasPrefix(p, dir+"/"):
			if s, ok := parseSegName(strings.TrimPrefix(p, dir+"/")); ok {
				hf = append(hf, headFile{seg: s})
			}
		}
	}
	return hf, nil
}
