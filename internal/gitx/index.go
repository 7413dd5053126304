package gitx

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// The index, read and written in process for the commit hooks
// (docs/record.md#commit-hooks). Asking Git costs a process each time —
// `git status` and `git add` over the record folder were two of the four
// processes that made a commit with the hooks 5× one without
// (bench/record_1m.sh) — while the hooks need only the entries of one
// folder. Only what the hooks need is supported: versions 2–4, no split
// or sparse index, no unknown required extension. Anything else is
// ErrIndexFallback, and the caller asks Git, so nothing is ever judged on
// a reading Git would not make.

// ErrIndexFallback says the index (or the question) is one to leave to Git.
var ErrIndexFallback = errors.New("the index needs git")

// IndexEntry is one entry of the index.
type IndexEntry struct {
	// Stat is ctime s, ctime ns, mtime s, mtime ns, dev, ino, mode, uid,
	// gid, size, as Git stores them (32 bits each).
	Stat  [10]uint32
	ID    plumbing.Hash
	Flags uint16 // stage and name length bits
	Ext   uint16 // extended flags (index v3+), 0 when none
	Name  string
}

// Stage is the entry's merge stage (0 outside a conflict).
func (e *IndexEntry) Stage() int { return int(e.Flags>>12) & 3 }

// Mode is the entry's file mode (0100644, 0100755, 0120000, 0160000).
func (e *IndexEntry) Mode() uint32 { return e.Stat[6] }

const (
	flagExtended    = 0x4000
	extSkipWorktree = 0x4000
	extIntentToAdd  = 0x2000
)

// Index is an index file held in memory.
type Index struct {
	Path    string
	Version uint32
	Entries []IndexEntry
	ModTime time.Time // the file's mtime: entries modified since are "racy"
	tree    []byte    // the TREE extension, nil when absent
	reuc    []byte    // the REUC extension, kept as is
}

// IndexPath is the index this process sees: GIT_INDEX_FILE when Git sets
// it (a hook of `git commit -a` or of a partial commit runs on another
// index), else <git dir>/index.
func (r *Repo) IndexPath() string {
	if p := os.Getenv("GIT_INDEX_FILE"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.WorkTree, p) // hooks run at the work tree's top
		}
		return p
	}
	return filepath.Join(r.GitDir, "index")
}

// ReadIndex reads the index. A missing index is an empty one.
func (r *Repo) ReadIndex() (*Index, error) {
	ix := &Index{Path: r.IndexPath(), Version: 2}
	b, err := os.ReadFile(ix.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return ix, nil
	}
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(ix.Path); err == nil {
		ix.ModTime = fi.ModTime()
	}
	if err := ix.parse(b); err != nil {
		return nil, err
	}
	return ix, nil
}

func (ix *Index) parse(b []byte) error {
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return ErrIndexFallback
	}
	ix.Version = binary.BigEndian.Uint32(b[4:])
	if ix.Version < 2 || ix.Version > 4 {
		return ErrIndexFallback
	}
	n := int(binary.BigEndian.Uint32(b[8:]))
	body := b[:len(b)-20]
	pos := 12
	ix.Entries = make([]IndexEntry, 0, n)
	prev := ""
	for range n {
		if pos+62 > len(body) {
			return ErrIndexFallback
		}
		var e IndexEntry
		for i := range e.Stat {
			e.Stat[i] = binary.BigEndian.Uint32(body[pos+4*i:])
		}
		copy(e.ID[:], body[pos+40:pos+60])
		e.Flags = binary.BigEndian.Uint16(body[pos+60:])
		start := pos
		pos += 62
		if e.Flags&flagExtended != 0 {
			if ix.Version < 3 || pos+2 > len(body) {
				return ErrIndexFallback
			}
			e.Ext = binary.BigEndian.Uint16(body[pos:])
			pos += 2
		}
		if ix.Version == 4 {
			strip, k := binary.Uvarint(body[pos:])
			if k <= 0 || int(strip) > len(prev) {
				return ErrIndexFallback
			}
			pos += k
			nul := bytes.IndexByte(body[pos:], 0)
			if nul < 0 {
				return ErrIndexFallback
			}
			e.Name = prev[:len(prev)-int(strip)] + string(body[pos:pos+nul])
			pos += nul + 1
		} else {
			nul := bytes.IndexByte(body[pos:], 0)
			if nul < 0 {
				return ErrIndexFallback
			}
			e.Name = string(body[pos : pos+nul])
			pos = start + (pos-start+nul+8)&^7 // 1–8 NULs pad to 8 bytes
		}
		prev = e.Name
		ix.Entries = append(ix.Entries, e)
	}
	for pos+8 <= len(body) {
		sig := string(body[pos : pos+4])
		size := int(binary.BigEndian.Uint32(body[pos+4:]))
		if pos+8+size > len(body) {
			return ErrIndexFallback
		}
		data := body[pos+8 : pos+8+size]
		switch {
		case sig == "TREE":
			ix.tree = data
		case sig == "REUC":
			ix.reuc = data
		case sig[0] < 'A' || sig[0] > 'Z':
			// a required extension ("link": split index, "sdir": sparse)
			return ErrIndexFallback
		}
		// UNTR, FSMN, EOIE, IEOT and other optional ones are caches that
		// Git rebuilds; they are dropped when the index is written.
		pos += 8 + size
	}
	if pos != len(body) {
		return ErrIndexFallback
	}
	return nil
}

// Under returns the stage-0 entries whose names start with prefix; ok is
// false when one there is in a conflict, skip-worktree or intent-to-add
// (states only Git should judge).
func (ix *Index) Under(prefix string) (out []*IndexEntry, ok bool) {
	i := sort.Search(len(ix.Entries), func(i int) bool { return ix.Entries[i].Name >= prefix })
	for ; i < len(ix.Entries) && strings.HasPrefix(ix.Entries[i].Name, prefix); i++ {
		e := &ix.Entries[i]
		if e.Stage() != 0 || e.Ext&(extSkipWorktree|extIntentToAdd) != 0 {
			return nil, false
		}
		out = append(out, e)
	}
	return out, true
}

// Find returns the stage-0 entry for name, or nil.
func (ix *Index) Find(name string) *IndexEntry {
	i := sort.Search(len(ix.Entries), func(i int) bool { return ix.Entries[i].Name >= name })
	if i < len(ix.Entries) && ix.Entries[i].Name == name && ix.Entries[i].Stage() == 0 {
		return &ix.Entries[i]
	}
	return nil
}

// Clean reports whether the work-tree file at path still holds the entry's
// content: its stat data matches what the index recorded and the entry is
// not racy (modified in the same instant the index was written), or else
// its content hashes to the entry's blob. This is Git's own test; ok is
// false when only Git can tell (not a regular file, a mode change).
func (ix *Index) Clean(e *IndexEntry, path string) (clean, ok bool) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, true
	}
	if err != nil || !fi.Mode().IsRegular() || modeOf(fi) != e.Mode() {
		return false, false
	}
	st, statOK := statData(fi)
	if statOK && st == e.Stat && !ix.racy(e) {
		return true, true
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false, false
	}
	h, _ := hashObject(typeBlob, b)
	return h == e.ID, true
}

func (ix *Index) racy(e *IndexEntry) bool {
	m := time.Unix(int64(e.Stat[2]), int64(e.Stat[3]))
	return ix.ModTime.IsZero() || !m.Before(ix.ModTime)
}

// modeOf is the index mode of a regular file (Git keeps only the
// executable bit).
func modeOf(fi fs.FileInfo) uint32 {
	if fi.Mode().Perm()&0o100 != 0 {
		return 0o100755
	}
	return 0o100644
}

// Stage sets name's entry to the work-tree file at path, whose content
// is data: the blob is written to the object store first, as `git add`
// does.
func (r *Repo) Stage(ix *Index, name, path string, data []byte) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	st, ok := statData(fi)
	if !ok || !fi.Mode().IsRegular() {
		return ErrIndexFallback
	}
	h, err := r.writeObject(typeBlob, data)
	if err != nil {
		return err
	}
	e := IndexEntry{Stat: st, ID: h, Name: name, Flags: uint16(min(len(name), 0xfff))}
	ix.Remove(name)
	i := sort.Search(len(ix.Entries), func(i int) bool { return ix.Entries[i].Name >= name })
	ix.Entries = append(ix.Entries, IndexEntry{})
	copy(ix.Entries[i+1:], ix.Entries[i:])
	ix.Entries[i] = e
	ix.invalidate(name)
	return nil
}

// Remove drops every entry for name.
func (ix *Index) Remove(name string) {
	out := ix.Entries[:0]
	for _, e := range ix.Entries {
		if e.Name != name {
			out = append(out, e)
		}
	}
	if len(out) != len(ix.Entries) {
		ix.invalidate(name)
	}
	ix.Entries = out
}

// Write replaces the index file through its lock file, as Git does: a
// reader sees the old index or the new one. A lock already held (another
// Git command at work) is an error saying so.
func (ix *Index) Write() error {
	var b bytes.Buffer
	b.WriteString("DIRC")
	binary.Write(&b, binary.BigEndian, ix.Version)
	binary.Write(&b, binary.BigEndian, uint32(len(ix.Entries)))
	prev := ""
	for i := range ix.Entries {
		e := &ix.Entries[i]
		start := b.Len()
		for _, v := range e.Stat {
			binary.Write(&b, binary.BigEndian, v)
		}
		b.Write(e.ID[:])
		flags := e.Flags &^ flagExtended
		if e.Ext != 0 {
			flags |= flagExtended
		}
		binary.Write(&b, binary.BigEndian, flags)
		if e.Ext != 0 {
			binary.Write(&b, binary.BigEndian, e.Ext)
		}
		if ix.Version == 4 {
			common := 0
			for common < len(prev) && common < len(e.Name) && prev[common] == e.Name[common] {
				common++
			}
			b.Write(binary.AppendUvarint(nil, uint64(len(prev)-common)))
			b.WriteString(e.Name[common:])
			b.WriteByte(0)
		} else {
			b.WriteString(e.Name)
			pad := 8 - (b.Len()-start)%8
			b.Write(make([]byte, pad))
		}
		prev = e.Name
	}
	for _, ext := range []struct {
		sig  string
		data []byte
	}{{"TREE", ix.tree}, {"REUC", ix.reuc}} {
		if ext.data != nil {
			b.WriteString(ext.sig)
			binary.Write(&b, binary.BigEndian, uint32(len(ext.data)))
			b.Write(ext.data)
		}
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	lock := ix.Path + ".lock"
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s exists: another git process is writing the index; if none is running, remove it and commit again", lock)
		}
		return err
	}
	_, werr := f.Write(b.Bytes())
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(lock, ix.Path)
	}
	if werr != nil {
		os.Remove(lock)
	}
	return werr
}

// invalidate marks the cached trees on the way to name as stale, as
// `git add` does (Git recomputes only those at commit time).
func (ix *Index) invalidate(name string) {
	if ix.tree == nil {
		return
	}
	var out bytes.Buffer
	if _, err := invalidateTree(ix.tree, &out, strings.Split(name, "/"), true); err != nil {
		ix.tree = nil // unreadable: drop the cache, Git rebuilds it
		return
	}
	ix.tree = out.Bytes()
}

// invalidateTree copies one cache-tree node (and its subtrees) from b to
// out, invalidating it when onPath, and its child named path[0] when
// path has more than one element. It returns the rest of b.
func invalidateTree(b []byte, out *bytes.Buffer, path []string, onPath bool) ([]byte, error) {
	n, b, err := readCacheNode(b)
	if err != nil {
		return nil, err
	}
	out.Write(n.name)
	out.WriteByte(0)
	if onPath {
		fmt.Fprintf(out, "-1 %d\n", n.subs)
	} else {
		fmt.Fprintf(out, "%d %d\n", n.count, n.subs)
		out.Write(n.oid)
	}
	for range n.subs {
		child := len(path) > 1 && onPath && bytes.IndexByte(b, 0) >= 0 && string(b[:bytes.IndexByte(b, 0)]) == path[0]
		var rest []string
		if child {
			rest = path[1:]
		}
		if b, err = invalidateTree(b, out, rest, child); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// cacheNode is one node of the index's cache-tree (the TREE extension):
// a directory, how many index entries it covers (-1: invalidated since
// Git last wrote its tree), how many subdirectory nodes follow it, and
// its tree id when valid.
type cacheNode struct {
	name        []byte
	count, subs int
	oid         []byte
}

// readCacheNode reads the node at the start of b (not its subtrees) and
// returns the rest of b.
func readCacheNode(b []byte) (cacheNode, []byte, error) {
	var n cacheNode
	nul := bytes.IndexByte(b, 0)
	if nul < 0 {
		return n, nil, ErrIndexFallback
	}
	n.name, b = b[:nul], b[nul+1:]
	nl := bytes.IndexByte(b, '\n')
	sp := bytes.IndexByte(b[:max(nl, 0)], ' ')
	if nl < 0 || sp < 0 {
		return n, nil, ErrIndexFallback
	}
	var err1, err2 error
	n.count, err1 = strconv.Atoi(string(b[:sp]))
	n.subs, err2 = strconv.Atoi(string(b[sp+1 : nl]))
	if err1 != nil || err2 != nil || n.subs < 0 {
		return n, nil, ErrIndexFallback
	}
	b = b[nl+1:]
	if n.count >= 0 {
		if len(b) < 20 {
			return n, nil, ErrIndexFallback
		}
		n.oid, b = b[:20], b[20:]
	}
	return n, b, nil
}

// skipCacheNode returns b after the node at its start and its subtrees.
func skipCacheNode(b []byte) ([]byte, error) {
	n, b, err := readCacheNode(b)
	for i := 0; err == nil && i < n.subs; i++ {
		b, err = skipCacheNode(b)
	}
	return b, err
}

// CachedTree returns the tree id the index's cache-tree holds for dir
// (slash-separated, relative to the root), when Git left it valid: every
// index entry under dir is unchanged since Git wrote that tree, so it is
// the tree `git commit` writes for dir without recomputing it. ok is
// false when there is no valid node for dir (or no cache-tree).
func (ix *Index) CachedTree(dir string) (id plumbing.Hash, ok bool) {
	b := ix.tree
	var path []string
	if d := strings.Trim(dir, "/"); d != "" {
		path = strings.Split(d, "/")
	}
	for b != nil {
		n, rest, err := readCacheNode(b)
		if err != nil {
			return id, false
		}
		if len(path) == 0 {
			if n.count < 0 {
				return id, false
			}
			copy(id[:], n.oid)
			return id, true
		}
		b = nil
		for range n.subs {
			if nul := bytes.IndexByte(rest, 0); nul >= 0 && string(rest[:nul]) == path[0] {
				b, path = rest, path[1:]
				break
			}
			if rest, err = skipCacheNode(rest); err != nil {
				return id, false
			}
		}
	}
	return id, false
}

// TreeFile is a file in a commit's tree.
type TreeFile struct {
	Mode uint32 // 0100644, 0100755, 0120000, 0160000
	ID   plumbing.Hash
}

// FilesAt lists every file under dir (slash-separated, relative to the
// root) in commit c's tree, by path relative to the root; a path that is
// a file is listed alone, a missing one gives none.
func (r *Repo) FilesAt(c, dir string) (map[string]TreeFile, error) {
	out := map[string]TreeFile{}
	te, ok, err := r.EntryAt(c, dir)
	if err != nil || !ok {
		return out, err
	}
	if te.Mode != 0o40000 {
		out[dir] = te
		return out, nil
	}
	return out, r.walkTree(te.ID, strings.Trim(dir, "/")+"/", out)
}

// EntryAt returns the entry at path (slash-separated, relative to the
// root) in commit c's tree — a file, or a directory's tree — reading only
// the trees on the way; ok is false when there is none.
func (r *Repo) EntryAt(c, path string) (te TreeFile, ok bool, err error) {
	if !plumbing.IsHash(c) {
		return te, false, fmt.Errorf("%q is not a commit id", c)
	}
	ci, err := r.readCommit(plumbing.NewHash(c))
	if err != nil {
		return te, false, err
	}
	te = TreeFile{Mode: 0o40000, ID: ci.TreeHash}
	for _, part := range strings.Split(strings.Trim(path, "/"), "/") {
		if te.Mode != 0o40000 {
			return TreeFile{}, false, nil
		}
		es, err := r.treeModes(te.ID)
		if err != nil {
			return TreeFile{}, false, err
		}
		if te, ok = es[part]; !ok {
			return TreeFile{}, false, nil
		}
	}
	return te, true, nil
}

func (r *Repo) walkTree(h plumbing.Hash, prefix string, out map[string]TreeFile) error {
	es, err := r.treeModes(h)
	if err != nil {
		return err
	}
	for name, te := range es {
		if te.Mode == 0o40000 {
			if err := r.walkTree(te.ID, prefix+name+"/", out); err != nil {
				return err
			}
			continue
		}
		out[prefix+name] = te
	}
	return nil
}

// treeModes parses a tree object: name → mode and id.
func (r *Repo) treeModes(h plumbing.Hash) (map[string]TreeFile, error) {
	b, err := r.readTyped(h, typeTree)
	if err != nil {
		return nil, err
	}
	out := map[string]TreeFile{}
	for len(b) > 0 {
		nul := bytes.IndexByte(b, 0)
		sp := bytes.IndexByte(b[:max(nul, 0)], ' ')
		if nul < 0 || sp < 0 || len(b) < nul+21 {
			return nil, fmt.Errorf("tree %s is malformed — run `git fsck`", short(h))
		}
		var te TreeFile
		for _, c := range b[:sp] {
			te.Mode = te.Mode*8 + uint32(c-'0')
		}
		copy(te.ID[:], b[nul+1:nul+21])
		out[string(b[sp+1:nul])] = te
		b = b[nul+21:]
	}
	return out, nil
}
