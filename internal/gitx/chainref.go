package gitx

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// A record ref (refs/gitwarrant/<writer>, docs/design.md#the-record "Committed per event")
// holds its chain file in segments, so that a commit per event costs O(1)
// in the chain's length: a 100,000-entry chain is ~35 MB, and writing it as
// a fresh blob per event could never beat `git commit`.
//
// Tree layout ("tree: that chain file in segments"):
//
//	<dir>/<seg>.jsonl   dir = seg / SegmentsPerDir, both zero-padded to 6 digits
//
// Segment i holds lines [i*SegmentLines, (i+1)*SegmentLines) of the chain
// file, byte for byte. Concatenating the blobs in path order (`git ls-tree
// -r --name-only` order) gives the chain file. Each event rewrites one
// segment blob (≤ SegmentLines lines), one directory tree (≤ SegmentsPerDir
// entries), the small root tree and the commit: four loose objects.
//
// The commit message names the entry and carries trailers that describe
// the ref's content, so an append learns where the ref stands by reading
// one commit instead of the whole tree.
const (
	SegmentLines   = 128
	SegmentsPerDir = 256
)

// Trailer keys on record commits (not on user commits: those carry
// Warrant-Head, see trailers.go).
const (
	trChain = "Warrant-Chain"
	trLines = "Warrant-Lines"
	trSize  = "Warrant-Size"
	trEntry = "Warrant-Entry"
)

// ErrNotChainRef is returned (wrapped) when a record ref points at a commit
// that gitwarrant did not write.
var ErrNotChainRef = errors.New("not a gitwarrant record commit")

// ChainRef is where a record ref stands.
type ChainRef struct {
	Name   string        // full ref name, refs/gitwarrant/<writer>
	Commit plumbing.Hash // zero when the ref does not exist
	Chain  string        // chain file path, relative to the work tree
	Lines  int64         // lines in the ref's content
	Size   int64         // bytes in the ref's content
	Head   string        // hash of the last entry, "" when empty
	root   plumbing.Hash
	// trees holds the root tree's entries and those of the directory
	// last written, when this ChainRef was made by CommitChain: the next
	// commit of a batch then reads no tree back.
	trees map[plumbing.Hash]map[string]plumbing.Hash
}

// Exists reports whether the ref exists.
func (c *ChainRef) Exists() bool { return !c.Commit.IsZero() }

// RecordRef is the ref name of a writer's record.
func RecordRef(writer string) string { return "refs/gitwarrant/" + writer }

// ReadChainRef reads a record ref's commit (not its tree).
func (r *Repo) ReadChainRef(name string) (*ChainRef, error) {
	h, err := r.ReadRef(name)
	if err != nil || h.IsZero() {
		return &ChainRef{Name: name}, err
	}
	c, err := r.readCommit(h)
	if err != nil {
		return nil, fmt.Errorf("%s points at %s, which cannot be read (%v) — the object store is damaged or the ref was moved by hand; delete the ref (`git update-ref -d %s`) and the next append rebuilds it from the chain file", name, short(h), err, name)
	}
	cr := &ChainRef{Name: name, Commit: h, root: c.TreeHash}
	tr := parseTrailerLines(c.Message)
	cr.Chain, cr.Head = tr[trChain], tr[trEntry]
	lines, err1 := strconv.ParseInt(tr[trLines], 10, 64)
	size, err2 := strconv.ParseInt(tr[trSize], 10, 64)
	if cr.Chain == "" || err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%s points at %s: %w (no %s/%s/%s trailers) — it was moved by hand; point it back at a record commit or delete it (`git update-ref -d %s`)", name, short(h), ErrNotChainRef, trChain, trLines, trSize, name)
	}
	cr.Lines, cr.Size = lines, size
	return cr, nil
}

// parseTrailerLines reads "Key: value" lines of a record commit message.
func parseTrailerLines(msg string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(msg, "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && strings.HasPrefix(k, "Warrant-") {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}

func segPath(i int64) (dir, file string) {
	return fmt.Sprintf("%06d", i/SegmentsPerDir), fmt.Sprintf("%06d.jsonl", i)
}

// LastSegment returns the bytes of the segment holding the ref's last line
// (nil for an empty ref) and that segment's first line number (0-based).
func (r *Repo) LastSegment(c *ChainRef) ([]byte, int64, error) {
	if c.Lines == 0 {
		return nil, 0, nil
	}
	i := (c.Lines - 1) / SegmentLines
	b, err := r.segment(c.root, i)
	return b, i * SegmentLines, err
}

func (r *Repo) segment(root plumbing.Hash, i int64) ([]byte, error) {
	dir, file := segPath(i)
	entries, err := r.treeEntries(root)
	if err != nil {
		return nil, err
	}
	sub, ok := entries[dir]
	if !ok {
		return nil, fmt.Errorf("record tree %s has no segment %s/%s: the ref was written by hand; delete it (`git update-ref -d`) to rebuild it from the chain file", short(root), dir, file)
	}
	files, err := r.treeEntries(sub)
	if err != nil {
		return nil, err
	}
	h, ok := files[file]
	if !ok {
		return nil, fmt.Errorf("record tree %s has no segment %s/%s: the ref was written by hand; delete it (`git update-ref -d`) to rebuild it from the chain file", short(root), dir, file)
	}
	b, err := r.readTyped(h, typeBlob)
	if err != nil {
		return nil, fmt.Errorf("record segment %s/%s: %w", dir, file, err)
	}
	return b, nil
}

// ChainContent streams the ref's whole chain to w (O(n); for verify,
// export and log, never for append).
func (r *Repo) ChainContent(c *ChainRef, w io.Writer) error {
	cr, err := r.newChunkReader(c)
	if err != nil {
		return err
	}
	for i := int64(0); i*SegmentLines < c.Lines; i++ {
		b, err := cr.chunk(i)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// Identity is a commit author.
type Identity struct{ Name, Email string }

// ChainCommit describes lines to add to a record ref.
type ChainCommit struct {
	Chain   string   // chain file path relative to the work tree
	Lines   [][]byte // whole lines, each ending in "\n"
	Head    string   // hash of the last line's entry
	Subject string   // first line of the commit message
	Body    string   // optional paragraph after the subject
	Author  Identity
	When    time.Time
}

// AppendChain commits lines on top of c and moves the ref last, with a
// compare-and-swap from c.Commit (git-bug style: objects first, ref last,
// so the ref never points at content that is not fully written). lastSeg
// is the current last segment's bytes (from LastSegment).
func (r *Repo) AppendChain(c *ChainRef, lastSeg []byte, cc ChainCommit) (*ChainRef, error) {
	next, err := r.CommitChain(c, lastSeg, cc)
	if err != nil {
		return nil, err
	}
	if err := r.UpdateRef(c.Name, next.Commit, c.Commit); err != nil {
		return nil, err
	}
	return next, nil
}

// CommitChain writes the commit AppendChain makes, without moving the ref:
// a batch of appends commits each entry on top of the previous one and
// moves the ref once, to the last (docs/record.md#batched-appends).
func (r *Repo) CommitChain(c *ChainRef, lastSeg []byte, cc ChainCommit) (*ChainRef, error) {
	segs := map[int64][]byte{}
	n := c.Lines
	if n%SegmentLines != 0 {
		segs[(n-1)/SegmentLines] = append([]byte(nil), lastSeg...)
	}
	size := c.Size
	for _, l := range cc.Lines {
		i := n / SegmentLines
		segs[i] = append(segs[i], l...)
		n++
		size += int64(len(l))
	}
	trees := map[plumbing.Hash]map[string]plumbing.Hash{}
	root, err := r.writeSegments(c.root, segs, c.trees, trees)
	if err != nil {
		return nil, err
	}
	commit, err := r.writeCommit(c, root, cc, n, size)
	if err != nil {
		return nil, err
	}
	return &ChainRef{Name: c.Name, Commit: commit, Chain: cc.Chain, Lines: n, Size: size, Head: cc.Head, root: root, trees: trees}, nil
}

// writeSegments writes the changed segment blobs, their directory trees
// and a new root tree; untouched directories are reused by hash. known
// holds trees already read (by hash); the trees written are added to
// wrote.
func (r *Repo) writeSegments(oldRoot plumbing.Hash, segs map[int64][]byte, known, wrote map[plumbing.Hash]map[string]plumbing.Hash) (plumbing.Hash, error) {
	entriesOf := func(h plumbing.Hash) (map[string]plumbing.Hash, error) {
		if es, ok := known[h]; ok && !h.IsZero() {
			return maps.Clone(es), nil
		}
		return r.treeEntries(h)
	}
	rootEntries, err := entriesOf(oldRoot)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	byDir := map[string]map[string]plumbing.Hash{}
	for i, b := range segs {
		h, err := r.writeObject(typeBlob, b)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		dir, file := segPath(i)
		if byDir[dir] == nil {
			byDir[dir] = map[string]plumbing.Hash{}
		}
		byDir[dir][file] = h
	}
	for dir, files := range byDir {
		entries, err := entriesOf(rootEntries[dir])
		if err != nil {
			return plumbing.ZeroHash, err
		}
		for f, h := range files {
			entries[f] = h
		}
		h, err := r.writeTree(entries, modeFile)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		rootEntries[dir] = h
		wrote[h] = entries
	}
	root, err := r.writeTree(rootEntries, modeDir)
	if err == nil {
		wrote[root] = rootEntries
	}
	return root, err
}

// Tree entry modes of a record tree, as Git writes them.
const (
	modeFile = "100644"
	modeDir  = "40000"
)

// treeEntries maps names to hashes; a zero hash gives an empty map.
func (r *Repo) treeEntries(h plumbing.Hash) (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	if h.IsZero() {
		return out, nil
	}
	err := r.EachTreeEntry(h, func(_, name []byte, id plumbing.Hash) error {
		out[string(name)] = id
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading record tree %s: %w", short(h), err)
	}
	return out, nil
}

// writeTree writes a tree whose entries all have one mode. Names are
// fixed-width digits, so plain sorting is Git's tree order.
func (r *Repo) writeTree(entries map[string]plumbing.Hash, mode string) (plumbing.Hash, error) {
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, name := range names {
		h := entries[name]
		b.WriteString(mode + " " + name + "\x00")
		b.Write(h[:])
	}
	return r.writeObject(typeTree, b.Bytes())
}

// commitInfo is what an append needs from a record commit.
type commitInfo struct {
	TreeHash plumbing.Hash
	Message  string
}

// readCommit parses a commit's tree and message.
func (r *Repo) readCommit(h plumbing.Hash) (*commitInfo, error) {
	b, err := r.readTyped(h, typeCommit)
	if err != nil {
		return nil, err
	}
	return parseCommit(h, b)
}

// parseCommit reads commit h's tree and message.
func parseCommit(h plumbing.Hash, b []byte) (*commitInfo, error) {
	head, msg, _ := bytes.Cut(b, []byte("\n\n"))
	tree, ok := bytes.CutPrefix(head, []byte("tree "))
	if !ok || len(tree) < 40 {
		return nil, fmt.Errorf("commit %s has no tree line", short(h))
	}
	var th plumbing.Hash
	if _, err := hex.Decode(th[:], tree[:40]); err != nil {
		return nil, fmt.Errorf("commit %s has a malformed tree line", short(h))
	}
	return &commitInfo{TreeHash: th, Message: string(msg)}, nil
}

func (r *Repo) writeCommit(c *ChainRef, root plumbing.Hash, cc ChainCommit, lines, size int64) (plumbing.Hash, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", root)
	if c.Exists() {
		fmt.Fprintf(&b, "parent %s\n", c.Commit)
	}
	sig := fmt.Sprintf("%s <%s> %d %s", cc.Author.Name, cc.Author.Email, cc.When.Unix(), cc.When.Format("-0700"))
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n", sig, sig)
	b.WriteString(cc.Subject + "\n\n")
	if cc.Body != "" {
		b.WriteString(strings.TrimRight(cc.Body, "\n") + "\n\n")
	}
	fmt.Fprintf(&b, "%s: %s\n%s: %d\n%s: %d\n%s: %s\n", trChain, cc.Chain, trLines, lines, trSize, size, trEntry, cc.Head)
	return r.writeObject(typeCommit, b.Bytes())
}
