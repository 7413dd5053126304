package record

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The branch's copy of a writer's chain (docs/record.md#the-branch-copy):
// a folder .gitwarrant/record/<writer>/ of files named by the entries they
// hold, "<first seq>-<last seq>.jsonl", nine digits each. Every file is
// written once and never changed: a file of that name can only ever hold
// those entries of that writer's ref. A full segment of SegmentEntries
// entries is sealed; until its segment fills, a commit adds the entries
// since the last commit as delta files of at most MaxDeltaEntries, and the
// commit that seals the segment replaces them with the sealed file.
const (
	// SegmentEntries is a sealed segment's size: about 1 MB at the ~470
	// bytes an entry takes, 489 files per million entries.
	SegmentEntries = 2048
	// MaxDeltaEntries bounds a delta file to an eighth of a segment, so Git
	// never pairs a delta deleted at sealing with the sealed file as a
	// rename (that needs 50% similarity), which would make a cherry-pick
	// of the sealing commit conflict where the delta is absent.
	MaxDeltaEntries = SegmentEntries / 8
)

// segFile is one file of a writer's folder.
type segFile struct {
	Name     string
	From, To int64
}

func (s segFile) sealed() bool {
	return s.From%SegmentEntries == 1 && s.To == s.From+SegmentEntries-1
}

func segName(from, to int64) string { return fmt.Sprintf("%09d-%09d.jsonl", from, to) }

// parseSegName reads "<from>-<to>.jsonl"; ok is false for any other name.
func parseSegName(name string) (segFile, bool) {
	base, ok := strings.CutSuffix(name, ".jsonl")
	a, b, ok2 := strings.Cut(base, "-")
	if !ok || !ok2 || len(a) != 9 || len(b) != 9 {
		return segFile{}, false
	}
	from, err1 := strconv.ParseInt(a, 10, 64)
	to, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || from < 1 || to < from || (from-1)/SegmentEntries != (to-1)/SegmentEntries {
		return segFile{}, false
	}
	return segFile{Name: name, From: from, To: to}, true
}

// WriterDir is the folder of a writer's chain in the work tree.
func (r *Record) WriterDir(writer string) string {
	return filepath.Join(r.p.RecordDir(), writer)
}

// listSegs reads a writer's folder: its segment files in order of first
// entry (longest first on ties), and the names that are not segment files.
func listSegs(dir string) (segs []segFile, strays []string, err error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, e := range ents {
		if s, ok := parseSegName(e.Name()); ok && e.Type().IsRegular() {
			segs = append(segs, s)
			continue
		}
		strays = append(strays, e.Name())
	}
	sort.Slice(segs, func(i, j int) bool {
		if segs[i].From != segs[j].From {
			return segs[i].From < segs[j].From
		}
		return segs[i].To > segs[j].To
	})
	return segs, strays, nil
}

// segPlan is what brings a writer's folder up to n entries: files to write
// (ranges read from the ref) and files made redundant by a sealed one.
type segPlan struct {
	write []segFile
	del   []segFile
}

// planSegs plans the folder for a ref of n entries, given the files there.
// Gaps (a cherry-pick brought a later file without an earlier one, a
// deleted file) are filled; nothing past n may exist.
func planSegs(have []segFile, n int64) (segPlan, error) {
	var p segPlan
	for _, s := range have {
		if s.To > n {
			return p, fmt.Errorf("%s holds entries up to #%d but the ref holds %d", s.Name, s.To, n)
		}
	}
	j := 0 // have is sorted by From, and no file crosses a segment
	var in []segFile
	for k := int64(0); k*SegmentEntries < n; k++ {
		lo, hi := k*SegmentEntries+1, min((k+1)*SegmentEntries, n)
		for j < len(have) && have[j].From < lo {
			j++
		}
		in = in[:0]
		for i := j; i < len(have) && have[i].From <= hi; i++ {
			if have[i].To <= hi {
				in = append(in, have[i])
			}
		}
		if hi-lo+1 == SegmentEntries {
			full := false
			for _, s := range in {
				full = full || s.sealed()
			}
			if !full {
				p.write = append(p.write, segFile{Name: segName(lo, hi), From: lo, To: hi})
			}
			for _, s := range in {
				if !s.sealed() {
					p.del = append(p.del, s)
				}
			}
			continue
		}
		for _, g := range gaps(in, lo, hi) {
			for a := g[0]; a <= g[1]; a += MaxDeltaEntries {
				b := min(a+MaxDeltaEntries-1, g[1])
				p.write = append(p.write, segFile{Name: segName(a, b), From: a, To: b})
			}
		}
	}
	return p, nil
}

// gaps lists the subranges of [lo, hi] no file covers.
func gaps(in []segFile, lo, hi int64) [][2]int64 {
	var out [][2]int64
	next := lo
	for _, s := range in { // sorted by From
		if s.From > next {
			out = append(out, [2]int64{next, s.From - 1})
		}
		next = max(next, s.To+1)
	}
	if next <= hi {
		out = append(out, [2]int64{next, hi})
	}
	return out
}
