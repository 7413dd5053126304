package warrantdiff

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// A writer's chain in the branch may also be a folder
// .gitwarrant/record/<writer>/ of files named "<first seq>-<last seq>.jsonl"
// (nine digits each), each written once. Then the entries new in head are
// exactly those past base's last seq, found by file name: the diff reads
// only the files that hold them, whatever the chain's length.

// seg is one file of a writer's folder.
type seg struct {
	from, to int64
	id       string // blob id at a revision, or the file's path in the work tree
}

// parseSeg reads "<from>-<to>.jsonl"; ok is false for any other name.
func parseSeg(name string) (int64, int64, bool) {
	base, ok := strings.CutSuffix(name, ".jsonl")
	a, b, ok2 := strings.Cut(base, "-")
	if !ok || !ok2 || len(a) != 9 || len(b) != 9 {
		return 0, 0, false
	}
	from, err1 := strconv.ParseInt(a, 10, 64)
	to, err2 := strconv.ParseInt(b, 10, 64)
	return from, to, err1 == nil && err2 == nil && from >= 1 && to >= from
}

// addFolderRev lists writer folders of the record directory at a revision.
func (s *Snapshot) addFolderRev(recRel string, entries map[string]string) error {
	for name := range entries {
		if strings.HasSuffix(name, ".jsonl") || strings.HasPrefix(name, ".") {
			continue
		}
		files, err := s.repo.DirAt(s.commit, path.Join(recRel, name))
		if err != nil {
			return err
		}
		for f, id := range files {
			if from, to, ok := parseSeg(f); ok {
				s.folders[name] = append(s.folders[name], seg{from, to, id})
			}
		}
	}
	return nil
}

// addFolderWorkTree lists writer folders on disk.
func (s *Snapshot) addFolderWorkTree(recDir string) {
	ents, _ := os.ReadDir(recDir)
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(recDir, e.Name()))
		for _, f := range files {
			if from, to, ok := parseSeg(f.Name()); ok && f.Type().IsRegular() {
				s.folders[e.Name()] = append(s.folders[e.Name()], seg{from, to, filepath.Join(recDir, e.Name(), f.Name())})
			}
		}
	}
}

// lastSeq is the highest seq a writer's folder holds (0 when none).
func lastSeq(segs []seg) int64 {
	var n int64
	for _, s := range segs {
		n = max(n, s.to)
	}
	return n
}

// folderAmends calls fn for every amend line of writer's folder in head
// with seq past base's last, each read once, in seq order.
func folderAmends(base, head *Snapshot, writer string, fn func([]byte) error) error {
	after := lastSeq(base.folders[writer])
	segs := head.folders[writer]
	sort.Slice(segs, func(i, j int) bool {
		if segs[i].from != segs[j].from {
			return segs[i].from < segs[j].from
		}
		return segs[i].to > segs[j].to // a sealed file before the deltas it replaced
	})
	done := after
	for _, sg := range segs {
		if sg.to <= done {
			continue
		}
		var b []byte
		var err error
		if head.commit.IsZero() {
			b, err = os.ReadFile(sg.id)
		} else {
			b, err = head.repo.Blob(sg.id)
		}
		if err != nil {
			return err
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
			if !bytes.Contains(line, amendMarker) {
				continue
			}
			e, _, err := chain.ParseEntry(line)
			if err != nil || e.Seq <= done {
				continue
			}
			if err := fn(line); err != nil {
				return err
			}
		}
		done = sg.to
	}
	return nil
}
