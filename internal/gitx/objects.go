package gitx

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// The object store (docs/design.md#the-record "Committed per event") is read and written
// here directly instead of through go-git's storage/filesystem and
// plumbing/object: those packages pull openpgp, encoding/gob, image/jpeg
// and net/url into the binary, whose package initialisation alone cost
// about 3 ms of every `gitwarrant check` and `hook claude` — more than
// half of `git rev-parse HEAD` (bench/record_git.sh, issue 3).
//
// Loose objects are written the way Git writes them by default: zlib at
// core.loosecompression's default (best speed), to a temporary file in the
// object's fan-out directory, then hard-linked into place (falling back to
// rename), never overwritten, and — like Git with its default core.fsync
// (which does not include loose objects) — without fsync. The durable
// record is the chain file, which chain.File.Append does fsync; a ref
// commit lost in a crash is rebuilt from that file by the next append
// ("catch up", record/append.go).
//
// Reads try the loose object first (the objects an append needs were
// written by the previous append), then the pack indexes (after `git gc`)
// read in place (packread.go), and finally `git cat-file` (alternates, anything else Git
// knows how to find).

// Object types as Git names them in object headers.
const (
	typeBlob   = "blob"
	typeTree   = "tree"
	typeCommit = "commit"
)

// packs is the lazily loaded set of pack indexes of one repository
// (packread.go).
type packs struct {
	once sync.Once
	list []*pack
	err  error
}

func (r *Repo) objectPath(h plumbing.Hash) string {
	s := h.String()
	return filepath.Join(r.CommonDir, "objects", s[:2], s[2:])
}

// readObject returns an object's type and content, wherever Git keeps it.
func (r *Repo) readObject(h plumbing.Hash) (string, []byte, error) {
	typ, data, err := readLoose(r.objectPath(h), h)
	if !errors.Is(err, fs.ErrNotExist) {
		return typ, data, err
	}
	return r.readStored(h)
}

// withObject calls fn with an object's type and content, which a loose
// object lends from a reused buffer: fn must not keep them.
func (r *Repo) withObject(h plumbing.Hash, fn func(typ string, data []byte) error) error {
	var called bool
	err := withLoose(r.objectPath(h), h, func(typ string, data []byte) error {
		called = true
		return fn(typ, data)
	})
	if called || !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	typ, data, err := r.readStored(h)
	if err != nil {
		return err
	}
	return fn(typ, data)
}

// readStored reads an object that is not loose.
func (r *Repo) readStored(h plumbing.Hash) (string, []byte, error) {
	if b := r.batch; b != nil {
		if typ, data, ok, err := b.get(h); ok {
			return typ, data, err
		}
	}
	typ, data, err := r.readPacked(h)
	if !errors.Is(err, plumbing.ErrObjectNotFound) {
		return typ, data, err // found, or found damaged
	}
	// not in a pack known here (one written since, an alternate, a
	// version 1 index): ask Git
	return r.catFile(h)
}

// readTyped is readObject that insists on a type.
func (r *Repo) readTyped(h plumbing.Hash, want string) ([]byte, error) {
	typ, data, err := r.readObject(h)
	if err != nil {
		return nil, err
	}
	if typ != want {
		return nil, fmt.Errorf("object %s is a %s, not a %s", short(h), typ, want)
	}
	return data, nil
}

// readLoose inflates a loose object and checks its header and hash.
func readLoose(path string, h plumbing.Hash) (string, []byte, error) {
	return readLooseInto(path, h, func(n int) []byte { return make([]byte, n) })
}

// withLoose is readLoose into a reused buffer: fn sees the content only
// during the call. The warrant diff lists a writer's folder of ~500
// segment files at two revisions and reads a hundred loop files, and on a
// machine where a page fault costs ~8 µs a fresh heap page is the larger
// part of reading a small object (bench/diff.sh).
func withLoose(path string, h plumbing.Hash, fn func(typ string, data []byte) error) error {
	var held *[]byte
	typ, data, err := readLooseInto(path, h, func(n int) []byte {
		held = getScratch(n)
		return (*held)[:n]
	})
	if held != nil {
		defer putScratch(held)
	}
	if err != nil {
		return err
	}
	return fn(typ, data)
}

// scratchBufs reuses the buffers objects are read and inflated into.
var scratchBufs sync.Pool

// maxScratch bounds the buffers kept for reuse: a rare large object is
// left to the collector.
const maxScratch = 1 << 20

func getScratch(n int) *[]byte {
	if p, _ := scratchBufs.Get().(*[]byte); p != nil && cap(*p) >= n {
		return p
	}
	b := make([]byte, n, max(n, 4096))
	return &b
}

func putScratch(p *[]byte) {
	if cap(*p) <= maxScratch {
		scratchBufs.Put(p)
	}
}

// readLooseInto reads the loose object at path into a slice of the
// content's length that alloc returns — one allocation of exactly the
// object's size (or none, from a pool) — and checks its header, zlib
// checksum and hash.
func readLooseInto(path string, h plumbing.Hash, alloc func(int) []byte) (string, []byte, error) {
	raw := getScratch(0)
	defer putScratch(raw)
	b, err := readFileInto(path, (*raw)[:0])
	*raw = b[:0]
	if err != nil {
		return "", nil, err
	}
	typ, data, err := inflateLoose(b, h, alloc)
	if err != nil {
		return "", nil, fmt.Errorf("loose object %s: %w — the object store is damaged; run `git fsck`", path, err)
	}
	return typ, data, nil
}

// zlibReaders reuses decompressors: each holds about 40 KB of state, and
// the warrant diff reads a hundred small loop files.
var zlibReaders sync.Pool

// maxHeader bounds "<type> <size>\x00" ("commit" and 20 digits fit).
const maxHeader = 32

// inflateLoose inflates "<type> <size>\x00<content>", reading the header
// first so that the content lands in a slice of its exact size.
func inflateLoose(raw []byte, h plumbing.Hash, alloc func(int) []byte) (string, []byte, error) {
	zr, err := zlibReader(bytes.NewReader(raw))
	if err != nil {
		return "", nil, err
	}
	defer zlibReaders.Put(zr)
	var hdr [maxHeader]byte
	k := 0
	for ; ; k++ {
		if k == len(hdr) {
			return "", nil, errors.New("no object header")
		}
		if _, err := io.ReadFull(zr, hdr[k:k+1]); err != nil {
			return "", nil, fmt.Errorf("no object header: %w", err)
		}
		if hdr[k] == 0 {
			break
		}
	}
	typ, size, ok := strings.Cut(string(hdr[:k]), " ")
	n, err := strconv.Atoi(size)
	// deflate expands at most ~1032:1: a larger size is a damaged header,
	// not an allocation to make
	if !ok || err != nil || n < 0 || n > 1032*len(raw)+64 {
		return "", nil, fmt.Errorf("bad object header %q", hdr[:k])
	}
	data := alloc(n)
	if _, err := io.ReadFull(zr, data); err != nil {
		return "", nil, fmt.Errorf("shorter than its header says: %w", err)
	}
	// the stream must end here; reading to its end checks zlib's checksum
	var one [1]byte
	if _, err := io.ReadFull(zr, one[:]); err != io.EOF {
		if err == nil {
			err = errors.New("longer than its header says")
		}
		return "", nil, err
	}
	if got := objectID(typ, data); got != h {
		return "", nil, fmt.Errorf("hashes to %s", got)
	}
	return typ, data, nil
}

// zlibReader takes a decompressor from the pool (put it back when done)
// reset to read src.
func zlibReader(src *bytes.Reader) (io.ReadCloser, error) {
	zr, _ := zlibReaders.Get().(io.ReadCloser)
	if zr == nil {
		return zlib.NewReader(src)
	}
	return zr, zr.(zlib.Resetter).Reset(src, nil)
}

// objectID is Git's id of content of type typ, hashed without a copy.
func objectID(typ string, data []byte) plumbing.Hash {
	var hdr [maxHeader]byte
	d := sha1.New()
	d.Write(appendHeader(hdr[:0], typ, len(data)))
	d.Write(data)
	return plumbing.Hash(d.Sum(nil))
}

// appendHeader appends an object's header, "<type> <size>\x00", to dst.
func appendHeader(dst []byte, typ string, size int) []byte {
	dst = append(append(dst, typ...), ' ')
	return append(strconv.AppendInt(dst, int64(size), 10), 0)
}

// catFile asks Git itself (alternates, packs written after loadPacks).
func (r *Repo) catFile(h plumbing.Hash) (string, []byte, error) {
	out, err := r.GitInput([]byte(h.String()+"\n"), "cat-file", "--batch")
	if err != nil {
		return "", nil, err
	}
	head, rest, _ := bytes.Cut(out, []byte("\n"))
	f := strings.Fields(string(head))
	if len(f) != 3 {
		return "", nil, fmt.Errorf("object %s: %w", short(h), plumbing.ErrObjectNotFound)
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n > len(rest) {
		return "", nil, fmt.Errorf("git cat-file --batch: bad answer %q for %s", head, short(h))
	}
	return f[1], rest[:n], nil
}

// hashObject is Git's object id of content of type typ.
func hashObject(typ string, data []byte) (plumbing.Hash, []byte) {
	all := append(appendHeader(make([]byte, 0, len(typ)+24+len(data)), typ, len(data)), data...)
	return plumbing.Hash(sha1.Sum(all)), all
}

// writeObject stores a loose object unless it already exists (an existing
// loose object is read-only and must never be rewritten). A packed copy is
// not looked for: writing a loose duplicate of a packed object is harmless
// (`git prune-packed` drops it), while decoding every pack index on each
// append would cost more than the append.
func (r *Repo) writeObject(typ string, data []byte) (plumbing.Hash, error) {
	h, all := hashObject(typ, data)
	if err := r.writeLoose(h, all); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("writing object %s to %s/objects: %w — check that it is writable and the disk is not full", short(h), r.CommonDir, err)
	}
	return h, nil
}

// zlibWriters reuses compressors: each holds about 1 MB of state, and an
// append writes four objects.
var zlibWriters = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(io.Discard, zlib.BestSpeed)
	return zw
}}

// writeLoose writes a temporary file next to the object and links it into
// place, as Git does: a reader never sees a half-written object, and an
// object already there is left as it is (the link fails; nothing is
// overwritten). Each object costs five system calls — create, one write,
// close, link, unlink — where os.MkdirAll, os.CreateTemp, a streaming
// compressor and a chmod made about fifteen: on a busy disk the metadata
// calls are most of an append (docs/record.md#batched-appends).
func (r *Repo) writeLoose(h plumbing.Hash, all []byte) error {
	var z bytes.Buffer
	z.Grow(len(all)/2 + 64)
	zw := zlibWriters.Get().(*zlib.Writer)
	zw.Reset(&z)
	_, err := zw.Write(all)
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	zlibWriters.Put(zw)
	if err != nil {
		return err
	}
	final := r.objectPath(h)
	dir := filepath.Dir(final)
	tmp, name, err := createObjectTemp(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			tmp, name, err = createObjectTemp(dir)
		}
	}
	if err != nil {
		return err
	}
	defer os.Remove(name)
	_, err = tmp.Write(z.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Link(name, final); err != nil && !errors.Is(err, fs.ErrExist) {
		// Filesystems without hard links: rename, as Git falls back to,
		// unless the object is already there.
		if _, serr := os.Lstat(final); serr == nil {
			return nil
		}
		return os.Rename(name, final)
	}
	return nil
}

// createObjectTemp creates a new read-only file for writing in dir, as Git
// creates loose objects (mode 0444 from the start: the open descriptor
// may write it, nobody else may).
func createObjectTemp(dir string) (*os.File, string, error) {
	for range 100 {
		name := filepath.Join(dir, "tmp_obj_"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
		if !errors.Is(err, fs.ErrExist) {
			return f, name, err
		}
	}
	return nil, "", fmt.Errorf("no free temporary name in %s", dir)
}
