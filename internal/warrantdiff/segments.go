package warrantdiff

import (
	"bytes"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/go-git/go-git/v5/plumbing"
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
	path     string // at a revision, the file's path relative to the work tree
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
			if from, to, ok := chain.ParseSegName(f.Name()); ok && f.Type().IsRegular() {
				s.folders[e.Name()] = append(s.folders[e.Name()], seg{from: from, to: to, id: filepath.Join(recDir, e.Name(), f.Name())})
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

// writers lists the writers whose chains are folders in s.
func (s *Snapshot) writers() []string {
	out := slices.Collect(maps.Keys(s.folders))
	for w := range s.folderTrees {
		if _, ok := s.folders[w]; !ok {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// newSegs returns the files of writer's folder in head that hold entries
// past base's last seq, and that seq. At two revisions a folder whose tree
// did not change is not read at all, and a changed one is read straight
// from its tree, keeping only base's last seq and head's files past it.
func newSegs(base, head *Snapshot, writer string) ([]seg, int64) {
	bt, bok := base.folderTrees[writer]
	ht, hok := head.folderTrees[writer]
	if bok && hok && bt == ht {
		return nil, 0 // the very same files
	}
	after := lastSeq(base.folders[writer])
	if bok {
		err := base.repo.EachTreeEntry(bt, func(_, name []byte, _ plumbing.Hash) error {
			if _, to, ok := chain.ParseSegName(name); ok {
				after = max(after, to)
			}
			return nil
		})
		if err != nil {
			after = 0 // unreadable: no files, as DirAt lists it
		}
	}
	var segs []seg
	for _, sg := range head.folders[writer] {
		if sg.to > after {
			segs = append(segs, sg)
		}
	}
	if hok {
		err := head.repo.EachTreeEntry(ht, func(_, name []byte, id plumbing.Hash) error {
			if from, to, ok := chain.ParseSegName(name); ok && to > after {
				segs = append(segs, seg{from: from, to: to, id: id.String(), path: path.Join(head.dir, "record", writer, string(name))})
			}
			return nil
		})
		if err != nil {
			segs = nil
		}
	}
	return segs, after
}

// folderAmends calls fn for every amend line of writer's folder in head
// with seq past base's last, each read once, in seq order.
func folderAmends(base, head *Snapshot, writer string, fn func([]byte) error) error {
	segs, after := newSegs(base, head, writer)
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
			b, err = head.repo.BlobAt(sg.id, sg.path)
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
