package loops

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/fsx"
)

// Cache spares a long-lived process (the MCP server, the REST mirror)
// parsing the same loop bytes again on every call. It is memory only and
// never trusted on its own (docs/mcp.md#parse-cache): every call still
// checks every file it needs on disk under the same rules as LoadFile
// (no symlink, a regular file, at most MaxFileSize, the opened file the
// one checked) and reads it unless its stat data is that of a read made
// after it settled (read, docs/performance.md#stat-trust), and a parsed
// loop is reused only when those bytes are identical, byte for byte, to
// the bytes it was parsed from. An edit is seen on the very next call,
// and there is no second copy of a warrant on disk for anyone to write.
//
// The loops a Cache returns are shared between callers and must not be
// modified; copy a Loop before changing any field (LoopContext does).
//
// The zero Cache is empty and ready to use. A nil *Cache is valid and
// caches nothing: its methods are the package-level LoadFile, LoadDir and
// LoadByName.
type Cache struct {
	mu    sync.Mutex
	files map[string]*cached

	// base holds the parses of a cache made WithVoucher, and vouch puts
	// the version in force for each file read (docs/signing.md).
	base  *Cache
	vouch Voucher

	// disk keeps parses across processes (nil: none); set by WithStore.
	disk Store

	// reads keeps the bytes of settled files by stamp (read).
	reads *fsx.ReadCache
}

// Store keeps the parses of loop files across processes, content-addressed
// (docs/performance.md#the-parse-cache). Get returns what Put was given
// for the same path and the same SHA-256 of the file's bytes, or nil; it
// may return anything at all (a damaged or planted file), since every
// answer is checked by DecodeParsed and a bad one is only a miss. Put is
// best effort.
type Store interface {
	Get(path string, sum [32]byte) []byte
	Put(path string, sum [32]byte, enc []byte)
}

// WithStore returns an empty cache that, on a miss in memory, looks for
// the parse of the very bytes just read in s before parsing them, and
// keeps each new parse there. A nil s gives a plain cache.
func WithStore(s Store) *Cache { return &Cache{disk: s} }

// maxCached bounds the entries kept; past it the cache starts again
// empty. A loops folder holds tens of files, so this is only a guard
// against a folder that keeps filling with new names.
const maxCached = 4096

// cached is one file's parse, with what was derived from it.
type cached struct {
	src  []byte // the bytes loop was parsed from (a private copy)
	loop *Loop  // Parse(path, src): `extends` not folded in

	// merged is loop with the resolved parent mergedFrom folded in. A
	// loop the cache returns stands for one set of bytes (pointers are
	// kept, so never reused), so the same parent pointer means the same
	// parent chain, byte for byte.
	mergedFrom, merged *Loop

	typed, mergedTyped *TypedWarrant
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{} }

// LoadFile is the package-level LoadFile, through the cache.
func (c *Cache) LoadFile(path string) (*Loop, error) {
	l, err := c.parseFile(path)
	if err != nil {
		return nil, err
	}
	return c.resolveExtends(l, filepath.Dir(path), nil)
}

// parseVouched is parse, then the version in force (inForce).
func (c *Cache) parseVouched(path string, data []byte) (*Loop, error) {
	l, err := c.store().parse(path, data)
	if err != nil {
		return nil, err
	}
	return c.inForce(path, data, l)
}

// parseFile reads path and parses it, or reuses the parse of the very
// same bytes.
func (c *Cache) parseFile(path string) (*Loop, error) {
	began := time.Now()
	info, err := os.Lstat(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	data, err := c.read(path, info, began)
	if err != nil {
		return nil, err
	}
	return c.parseVouched(path, data)
}

// read is readChecked(path, info), or the bytes read from path before
// when info, its Lstat result taken after the clock read began, gives
// the stamp they were read under and the file had settled by then
// (fsx.ReadCache, docs/performance.md#stat-trust): a stat stands for
// the open, fstat, reads and close. The file-level rules are applied to
// info either way.
func (c *Cache) read(path string, info fs.FileInfo, began time.Time) ([]byte, error) {
	s := c.store()
	if s == nil {
		return readChecked(path, info)
	}
	if err := checkInfo(path, info); err != nil {
		return nil, err
	}
	st := fsx.StampOf(info)
	s.mu.Lock()
	if s.reads == nil {
		s.reads = fsx.NewReadCache(MaxFileSize, maxReadBytes)
	}
	reads := s.reads
	s.mu.Unlock()
	if b, ok := reads.Lookup(path, st); ok {
		return b, nil
	}
	data, err := readChecked(path, info)
	if err == nil {
		reads.Keep(path, st, began, data)
	}
	return data, err
}

// maxReadBytes bounds the loop bytes a Cache keeps by stamp.
const maxReadBytes = 64 << 20

// parse is Parse(path, data), or the loop parsed before from the very
// same bytes at the same path: Parse depends on nothing else.
func (c *Cache) parse(path string, data []byte) (*Loop, error) {
	if c == nil {
		return Parse(path, data)
	}
	if e := c.entry(path); e != nil && bytes.Equal(e.src, data) {
		return e.loop, nil
	}
	l, err := c.parseStored(path, data)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil || len(c.files) >= maxCached {
		c.files = map[string]*cached{}
	}
	c.files[path] = &cached{src: bytes.Clone(data), loop: l}
	return l, nil
}

// parseStored is Parse(path, data), read from the store when it holds the
// parse of these very bytes and written to it when it does not. Only a
// successful parse is kept: a file that does not parse is parsed again
// each time, so its error is always the parser's own.
func (c *Cache) parseStored(path string, data []byte) (*Loop, error) {
	return ParseStored(c.disk, path, data)
}

// ParseStored is Parse(path, data), read from s when it holds the parse
// of these very bytes at this path and written to it when it does not
// (a nil s parses every time). Only a successful parse is kept: a file
// that does not parse is parsed again each time, so its error is always
// the parser's own. The loop returned may be shared: do not modify it.
func ParseStored(s Store, path string, data []byte) (*Loop, error) {
	if s == nil {
		return Parse(path, data)
	}
	sum := ParseSum(data)
	if enc := s.Get(path, sum); enc != nil {
		if l, err := decodeParsed(path, data, sum, enc); err == nil {
			return l, nil
		}
	}
	l, err := Parse(path, data)
	if err == nil {
		s.Put(path, sum, EncodeParsed(l, sum))
	}
	return l, err
}

func (c *Cache) entry(path string) *cached {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.files[path]
}

// merge is mergeLoops(parent, child), reused while child is the cached
// parse of its file and parent the same resolved loop as last time.
func (c *Cache) merge(parent, child *Loop) *Loop {
	c = c.store()
	if c == nil {
		return mergeLoops(parent, child)
	}
	c.mu.Lock()
	e := c.files[child.Path]
	if e != nil && e.loop == child && e.mergedFrom == parent {
		m := e.merged
		c.mu.Unlock()
		return m
	}
	c.mu.Unlock()
	m := mergeLoops(parent, child)
	c.mu.Lock()
	if e != nil && c.files[child.Path] == e && e.loop == child {
		e.mergedFrom, e.merged, e.mergedTyped = parent, m, nil
	}
	c.mu.Unlock()
	return m
}

// Typed is l.Warrant.Typed(), compiled once for a loop this cache
// returned and reused while it stays current; for any other loop it is
// compiled afresh. The result is shared and must not be modified.
func (c *Cache) Typed(l *Loop) *TypedWarrant {
	c = c.store()
	if c == nil {
		return l.Warrant.Typed()
	}
	c.mu.Lock()
	e := c.files[l.Path]
	var tw *TypedWarrant
	switch {
	case e == nil:
	case e.loop == l:
		tw = e.typed
	case e.merged == l:
		tw = e.mergedTyped
	default:
		e = nil
	}
	c.mu.Unlock()
	if tw != nil {
		return tw
	}
	tw = l.Warrant.Typed()
	if e == nil {
		return tw
	}
	c.mu.Lock()
	switch {
	case e.loop == l:
		e.typed = tw
	case e.merged == l:
		e.mergedTyped = tw
	}
	c.mu.Unlock()
	return tw
}
