package gitx

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/pjbgf/sha1cd"
)

// ResolveCommit turns a revision into a commit id. HEAD, full ids and
// plain branch, tag and remote names are resolved in process (the warrant
// diff runs on every pull request and in `git diff`); anything else
// (`HEAD~2`, `main@{1}`, short ids) is left to `git rev-parse`.
func (r *Repo) ResolveCommit(rev string) (plumbing.Hash, error) {
	h, err := r.resolveFast(rev)
	if err != nil || h.IsZero() {
		out, gerr := r.Git("rev-parse", "-q", "--verify", "--end-of-options", rev+"^{commit}")
		if gerr != nil {
			if r.IsShallow() {
				return plumbing.ZeroHash, fmt.Errorf("%s is not in this clone: %w", rev, ErrShallow)
			}
			return plumbing.ZeroHash, fmt.Errorf("%s is not a commit in this repository — give a branch, tag or commit id", rev)
		}
		return plumbing.NewHash(strings.TrimSpace(string(out))), nil
	}
	return h, nil
}

// resolveFast resolves rev in process, peeling annotated tags; a zero hash
// means "ask git".
func (r *Repo) resolveFast(rev string) (plumbing.Hash, error) {
	h, symbolic, err := r.refHash(rev)
	if err != nil || symbolic {
		return h, err // a branch HEAD names holds a commit
	}
	return r.peel(h), nil
}

// RefHash is the object id rev names, read in process without reading
// the object (an annotated tag is not peeled): HEAD, a full id, or a plain
// branch, tag or remote name. A zero hash means rev is none of those.
func (r *Repo) RefHash(rev string) (plumbing.Hash, error) {
	h, _, err := r.refHash(rev)
	return h, err
}

// refHash is RefHash; symbolic is true for HEAD naming a branch.
func (r *Repo) refHash(rev string) (h plumbing.Hash, symbolic bool, err error) {
	switch {
	case plumbing.IsHash(rev):
		h = plumbing.NewHash(rev)
	case rev == "HEAD":
		b, err := os.ReadFile(filepath.Join(r.GitDir, "HEAD"))
		if err != nil {
			return h, false, err
		}
		s := strings.TrimSpace(string(b))
		if ref, ok := strings.CutPrefix(s, "ref: "); ok {
			h, err := r.ReadRef(ref)
			return h, true, err
		}
		if plumbing.IsHash(s) {
			h = plumbing.NewHash(s)
		}
	case strings.ContainsAny(rev, "~^@:{}") || strings.HasPrefix(rev, "-"):
		return h, false, nil
	default:
		for _, ref := range []string{"refs/heads/" + rev, "refs/tags/" + rev, "refs/remotes/" + rev} {
			x, err := r.ReadRef(ref)
			if err == nil && !x.IsZero() {
				h = x
				break
			}
		}
	}
	return h, false, nil
}

// peel follows annotated tags from h to a commit; a zero hash means "ask
// git" (not a commit, or not readable here).
func (r *Repo) peel(h plumbing.Hash) plumbing.Hash {
	for range 8 {
		if h.IsZero() {
			return h
		}
		typ, data, err := r.readObject(h)
		if err != nil {
			return plumbing.ZeroHash
		}
		switch typ {
		case typeCommit:
			// keep its tree: the caller reads the commit's tree next
			if ci, err := parseCommit(h, data); err == nil {
				memo(&r.revtrees.mu, &r.revtrees.roots, h, func() (plumbing.Hash, error) { return ci.TreeHash, nil })
			}
			return h
		case "tag":
			obj, ok := bytes.CutPrefix(data, []byte("object "))
			if !ok || len(obj) < 40 {
				return plumbing.ZeroHash
			}
			h = plumbing.NewHash(string(obj[:40]))
		default:
			return plumbing.ZeroHash
		}
	}
	return plumbing.ZeroHash
}

// DirAt returns the entries of directory dir (slash-separated, relative to
// the root) in commit c's tree, name → object id; a missing directory is
// empty.
//
// Trees and commits read here are kept for the Repo's life (revtrees):
// the CI gate and the warrant diff list the same directories of the same
// two revisions several times, and a tree deep in a pack's delta chain
// costs milliseconds to rebuild.
func (r *Repo) DirAt(c plumbing.Hash, dir string) (map[string]string, error) {
	h, err := r.rootTree(c)
	if err != nil {
		return nil, err
	}
	for _, part := range strings.Split(strings.Trim(dir, "/"), "/") {
		if part == "" || part == "." {
			continue
		}
		es, err := r.cachedTree(h)
		if err != nil {
			return nil, err
		}
		next, ok := es[part]
		if !ok {
			return map[string]string{}, nil
		}
		h = next
	}
	es, err := r.cachedTree(h)
	if err != nil {
		return map[string]string{}, nil // a file where the directory should be
	}
	out := make(map[string]string, len(es))
	for name, id := range es {
		out[name] = id.String()
	}
	return out, nil
}

// TreeAt returns the id of directory dir (slash-separated, relative to the
// root) in commit c's tree; the zero hash when there is none. As in DirAt,
// a file on the way is an error; whether the object named is a tree is
// EachTreeEntry's to find out.
func (r *Repo) TreeAt(c plumbing.Hash, dir string) (plumbing.Hash, error) {
	h, err := r.rootTree(c)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	for _, part := range strings.Split(strings.Trim(dir, "/"), "/") {
		if part == "" || part == "." {
			continue
		}
		es, err := r.cachedTree(h)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		next, ok := es[part]
		if !ok {
			return plumbing.ZeroHash, nil
		}
		h = next
	}
	return h, nil
}

// EachTreeEntry calls fn with the mode, name and id of each entry of tree
// h, in Git's order, without building a map or hex strings: mode and name
// are valid only during the call. A zero h is an empty tree. The warrant
// diff and the CI gate read writers' folders of hundreds of segment files
// this way (docs/record.md#the-branch-copy).
func (r *Repo) EachTreeEntry(h plumbing.Hash, fn func(mode, name []byte, id plumbing.Hash) error) error {
	if h.IsZero() {
		return nil
	}
	return r.withObject(h, func(typ string, b []byte) error {
		if typ != typeTree {
			return fmt.Errorf("object %s is a %s, not a %s", short(h), typ, typeTree)
		}
		for len(b) > 0 {
			nul := bytes.IndexByte(b, 0)
			sp := bytes.IndexByte(b[:max(nul, 0)], ' ')
			if nul < 0 || sp < 0 || len(b) < nul+1+len(plumbing.ZeroHash) {
				return fmt.Errorf("tree %s is malformed — run `git fsck`", short(h))
			}
			var id plumbing.Hash
			copy(id[:], b[nul+1:])
			if err := fn(b[:sp], b[sp+1:nul], id); err != nil {
				return err
			}
			b = b[nul+1+len(id):]
		}
		return nil
	})
}

// NonTreeAt returns the first folder of dir's path (slash-separated,
// relative to the root) that commit c's tree holds as something other
// than a folder — a symbolic link, a file, a submodule — or "" when each
// part is a folder or absent. DirAt reads such a path as empty; a checkout
// follows a link there.
func (r *Repo) NonTreeAt(c plumbing.Hash, dir string) (string, error) {
	h, err := r.rootTree(c)
	if err != nil {
		return "", err
	}
	walked := ""
	for _, part := range strings.Split(strings.Trim(dir, "/"), "/") {
		if part == "" || part == "." {
			continue
		}
		found, isTree := false, false
		err := r.EachTreeEntry(h, func(mode, name []byte, id plumbing.Hash) error {
			if string(name) == part {
				found, isTree, h = true, IsTreeMode(mode), id
			}
			return nil
		})
		walked = path.Join(walked, part)
		switch {
		case err != nil:
			return "", err
		case !found:
			return "", nil
		case !isTree:
			return walked, nil
		}
	}
	return "", nil
}

// IsTreeMode reports whether a tree entry's mode is a directory's.
func IsTreeMode(mode []byte) bool { return string(mode) == modeDir }

// Blob reads a blob in process.
func (r *Repo) Blob(id string) ([]byte, error) {
	return r.readTyped(plumbing.NewHash(id), typeBlob)
}

// BlobAt reads blob id, which a revision holds at path (work-tree
// relative, slash-separated): from the work-tree file when that file is
// exactly the blob — its Git id is id — as `git diff` reuses an
// up-to-date work-tree file; from the object store otherwise. The id
// check makes the two the same bytes; reading the file skips inflating
// the object, which was half the cost of reading a
// hundred loop files (bench/diff.sh). Symbolic links are not followed.
func (r *Repo) BlobAt(id, path string) ([]byte, error) {
	if r.WorkTree != "" {
		b, ok := readSmall(filepath.Join(r.WorkTree, filepath.FromSlash(path)), maxWorkTreeBlob)
		if ok && blobMatches(b, plumbing.NewHash(id)) {
			return b, nil
		}
	}
	return r.Blob(id)
}

// blobMatches reports whether b is blob id, hashed with collision
// detection (as Git hashes): a file crafted to collide with the blob it
// stands in for is refused, never read as that blob.
func blobMatches(b []byte, id plumbing.Hash) bool {
	var hdr [maxHeader]byte
	d := sha1cd.New().(sha1cd.CollisionResistantHash)
	d.Write(appendHeader(hdr[:0], typeBlob, len(b)))
	d.Write(b)
	sum, collision := d.CollisionResistantSum(nil)
	return !collision && plumbing.Hash(sum) == id
}

// maxWorkTreeBlob is the largest work-tree file BlobAt reads in place of
// a blob (a sealed segment file is about 1 MB).
const maxWorkTreeBlob = 8 << 20

// BlobSizes returns the sizes of blobs: a loose blob's from its header
// (inflating a few bytes, not the blob), the rest from one `git cat-file
// --batch-check`.
func (r *Repo) BlobSizes(ids []string) (map[string]int64, error) {
	out := map[string]int64{}
	var rest []string
	for _, id := range ids {
		if n, err := r.looseSize(id); err == nil {
			out[id] = n
		} else {
			rest = append(rest, id)
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	raw, err := r.GitInput([]byte(strings.Join(rest, "\n")+"\n"), "cat-file", "--batch-check")
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 {
			var n int64
			fmt.Sscan(f[2], &n)
			out[f[0]] = n
		}
	}
	return out, nil
}

// openLoose opens a loose blob for streaming: the inflating reader is
// positioned after the header, and size is the content's length.
func (r *Repo) openLoose(id string) (io.ReadCloser, int64, error) {
	f, err := os.Open(r.objectPath(plumbing.NewHash(id)))
	if err != nil {
		return nil, 0, err
	}
	zr, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	br := bufio.NewReaderSize(zr, 1<<16)
	hdr, err := br.ReadString(0)
	typ, size, ok := strings.Cut(strings.TrimSuffix(hdr, "\x00"), " ")
	n, perr := strconv.ParseInt(size, 10, 64)
	if err != nil || !ok || typ != typeBlob || perr != nil {
		f.Close()
		return nil, 0, fmt.Errorf("loose object %s: not a blob header", id)
	}
	return readCloser{br, f}, n, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

func (r *Repo) looseSize(id string) (int64, error) {
	rc, n, err := r.openLoose(id)
	if err != nil {
		return 0, err
	}
	rc.Close()
	return n, nil
}

// revtrees caches what DirAt reads: commit → root tree, tree → entries.
// The maps it holds are never modified once stored.
type revtrees struct {
	mu    sync.Mutex
	roots map[plumbing.Hash]plumbing.Hash
	trees map[plumbing.Hash]map[string]plumbing.Hash
}

func (r *Repo) rootTree(c plumbing.Hash) (plumbing.Hash, error) {
	return memo(&r.revtrees.mu, &r.revtrees.roots, c, func() (plumbing.Hash, error) {
		ci, err := r.readCommit(c)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return ci.TreeHash, nil
	})
}

func (r *Repo) cachedTree(h plumbing.Hash) (map[string]plumbing.Hash, error) {
	return memo(&r.revtrees.mu, &r.revtrees.trees, h, func() (map[string]plumbing.Hash, error) { return r.treeEntries(h) })
}

// memo returns m[k], loading and storing it under mu on a miss (the load
// runs unlocked; an error is not stored).
func memo[V any](mu *sync.Mutex, m *map[plumbing.Hash]V, k plumbing.Hash, load func() (V, error)) (V, error) {
	mu.Lock()
	v, ok := (*m)[k]
	mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	mu.Lock()
	if *m == nil {
		*m = map[plumbing.Hash]V{}
	}
	(*m)[k] = v
	mu.Unlock()
	return v, nil
}
