package gitx

import (
	"bytes"
	"container/list"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Packed objects are read in place (docs/record.md#reading-packs): each
// pack's .idx and .pack are mapped into memory, an object is found by a
// binary search of the index where it lies, and its deltas are applied
// over a small cache of bases. A repository a team has used for a year is
// packed — `git gc`, a clone, the record's own kept packs — and go-git's
// idxfile/packfile, which this replaces, decoded every index in full
// (read in small chunks) on the first packed read and served one object
// at a time under one lock: a warrant diff of a packed repository took
// 1.6 times as long as of the same repository loose (bench/diff.sh).

// maxDeltaDepth bounds a chain of deltas (Git's own packs stop at 50 by
// default, 250 with --aggressive): a longer one is a damaged or hostile
// pack, never a loop.
const maxDeltaDepth = 10000

// packIndex is a version 2 .idx file, searched where it lies.
type packIndex struct {
	n      int
	fanout []byte // 256 big-endian counts
	names  []byte // n sorted object ids
	off32  []byte // n offsets; the top bit set names an entry of off64
	off64  []byte
}

var idxMagic = []byte{0xff, 't', 'O', 'c'}

// parsePackIndex checks an index's layout (not its checksum: each object
// read is checked against its id instead).
func parsePackIndex(b []byte) (*packIndex, error) {
	const head = 8 + 256*4
	if len(b) < head+40 || !bytes.Equal(b[:4], idxMagic) {
		return nil, errors.New("not a version 2 pack index")
	}
	if v := binary.BigEndian.Uint32(b[4:8]); v != 2 {
		return nil, fmt.Errorf("pack index version %d (only version 2 is read here)", v)
	}
	x := &packIndex{fanout: b[8:head]}
	prev := uint32(0)
	for i := range 256 {
		c := binary.BigEndian.Uint32(x.fanout[i*4:])
		if c < prev {
			return nil, errors.New("pack index fan-out table is not sorted")
		}
		prev = c
	}
	x.n = int(prev)
	end := head + x.n*(20+4+4)
	if x.n > (len(b)-head-40)/28 || end+40 > len(b) || (len(b)-40-end)%8 != 0 {
		return nil, errors.New("pack index is truncated")
	}
	x.names = b[head : head+x.n*20]
	x.off32 = b[head+x.n*24 : end]
	x.off64 = b[end : len(b)-40]
	return x, nil
}

// find returns the pack offset of h, or false.
func (x *packIndex) find(h plumbing.Hash) (int64, bool, error) {
	lo := 0
	if h[0] > 0 {
		lo = int(binary.BigEndian.Uint32(x.fanout[(int(h[0])-1)*4:]))
	}
	hi := int(binary.BigEndian.Uint32(x.fanout[int(h[0])*4:]))
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(x.names[m*20:m*20+20], h[:]); {
		case c == 0:
			off := binary.BigEndian.Uint32(x.off32[m*4:])
			if off&0x80000000 == 0 {
				return int64(off), true, nil
			}
			j := int(off & 0x7fffffff)
			if j >= len(x.off64)/8 {
				return 0, false, errors.New("pack index names a large offset it does not hold")
			}
			o := binary.BigEndian.Uint64(x.off64[j*8:])
			if o > 1<<62 {
				return 0, false, errors.New("pack index holds an impossible offset")
			}
			return int64(o), true, nil
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false, nil
}

// pack is one pack of a repository: its index mapped when the Repo first
// reads a packed object, its data on the first object found in it.
type pack struct {
	path string // the .pack file
	idx  *packIndex

	once sync.Once
	data []byte // the mapped .pack
	err  error

	bases deltaBases
}

func (p *pack) open() {
	p.data, p.err = mapFile(p.path)
	if p.err != nil {
		return
	}
	runtime.AddCleanup(p, unmapFile, p.data)
	d := p.data
	if len(d) < 32 || string(d[:4]) != "PACK" {
		p.err = errors.New("not a pack file")
		return
	}
	if v := binary.BigEndian.Uint32(d[4:8]); v != 2 && v != 3 {
		p.err = fmt.Errorf("pack version %d", v)
		return
	}
	if n := binary.BigEndian.Uint32(d[8:12]); int(n) != p.idx.n {
		p.err = fmt.Errorf("the pack holds %d objects, its index %d", n, p.idx.n)
	}
}

// Pack entry types (Documentation/gitformat-pack.txt).
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

var packTypeNames = [...]string{packCommit: typeCommit, packTree: typeTree, packBlob: typeBlob, packTag: "tag"}

// entry is one pack entry's header.
type entry struct {
	typ   byte
	size  int64 // inflated size (of the delta, for a delta)
	data  int64 // offset of its zlib stream
	base  int64 // an OFS_DELTA's base
	refID plumbing.Hash
}

// entryAt reads the header of the entry at off.
func (p *pack) entryAt(off int64) (entry, error) {
	d := p.data
	end := int64(len(d)) - 20 // the trailing checksum
	if off < 12 || off >= end {
		return entry{}, fmt.Errorf("offset %d is outside the pack", off)
	}
	pos := off
	c := d[pos]
	pos++
	e := entry{typ: (c >> 4) & 7, size: int64(c & 15)}
	for shift := uint(4); c&0x80 != 0; shift += 7 {
		if pos >= end || shift > 56 {
			return entry{}, fmt.Errorf("bad entry header at offset %d", off)
		}
		c = d[pos]
		pos++
		e.size |= int64(c&0x7f) << shift
	}
	switch e.typ {
	case packOfsDelta:
		if pos >= end {
			return entry{}, fmt.Errorf("bad delta at offset %d", off)
		}
		c = d[pos]
		pos++
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if pos >= end || rel > 1<<55 {
				return entry{}, fmt.Errorf("bad delta at offset %d", off)
			}
			c = d[pos]
			pos++
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		// a base always lies before its delta: the chain ends
		if rel <= 0 || rel > off {
			return entry{}, fmt.Errorf("delta at offset %d names a base outside the pack", off)
		}
		e.base = off - rel
	case packRefDelta:
		if pos+20 > end {
			return entry{}, fmt.Errorf("bad delta at offset %d", off)
		}
		copy(e.refID[:], d[pos:pos+20])
		pos += 20
	case packCommit, packTree, packBlob, packTag:
	default:
		return entry{}, fmt.Errorf("unknown entry type %d at offset %d", e.typ, off)
	}
	e.data = pos
	return e, nil
}

// inflate inflates the entry's zlib stream into exactly e.size bytes.
func (p *pack) inflate(e entry) ([]byte, error) {
	src := p.data[e.data : len(p.data)-20]
	// deflate expands at most ~1032:1: a larger size is a damaged header,
	// not an allocation to make
	if e.size > 1032*int64(len(src))+64 {
		return nil, fmt.Errorf("entry at offset %d claims %d bytes", e.data, e.size)
	}
	out := make([]byte, e.size)
	if err := inflateExact(src, out); err != nil {
		return nil, fmt.Errorf("entry at offset %d: %w", e.data, err)
	}
	return out, nil
}

// object returns the object at off, its deltas applied. r finds the base
// of a REF_DELTA held elsewhere.
func (p *pack) object(r *Repo, off int64) (string, []byte, error) {
	if typ, b, ok := p.bases.get(off); ok {
		return typ, bytes.Clone(b), nil // the cache's copy is shared
	}
	var chain []entry
	var offs []int64 // chain[i] lies at offs[i]
	typ, base := "", []byte(nil)
	baseOff := int64(-1) // where base lies in this pack, -1 when cached or elsewhere
	for cur := off; ; {
		if len(chain) > 0 {
			if t, b, ok := p.bases.get(cur); ok {
				typ, base = t, b
				break
			}
		}
		e, err := p.entryAt(cur)
		if err != nil {
			return "", nil, err
		}
		if e.typ != packOfsDelta && e.typ != packRefDelta {
			if base, err = p.inflate(e); err != nil {
				return "", nil, err
			}
			typ, baseOff = packTypeNames[e.typ], cur
			break
		}
		if len(chain) == maxDeltaDepth {
			return "", nil, fmt.Errorf("a chain of more than %d deltas at offset %d", maxDeltaDepth, off)
		}
		chain, offs = append(chain, e), append(offs, cur)
		if e.typ == packOfsDelta {
			cur = e.base
			continue
		}
		o, ok, err := p.idx.find(e.refID)
		if err != nil {
			return "", nil, err
		}
		if !ok {
			// a base outside this pack (Git completes a thin pack by
			// adding its bases to it, so this is rare): loose, or as Git
			// reads it — never through another pack's deltas here, whose
			// bases could lead back
			if typ, base, err = r.readOutside(e.refID); err != nil {
				return "", nil, fmt.Errorf("the base %s of the delta at offset %d: %w", short(e.refID), offs[len(offs)-1], err)
			}
			break
		}
		cur = o
	}
	if len(chain) > 0 && baseOff >= 0 {
		p.bases.put(baseOff, typ, base)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		delta, err := p.inflate(chain[i])
		if err != nil {
			return "", nil, err
		}
		if base, err = applyDelta(base, delta); err != nil {
			return "", nil, fmt.Errorf("delta at offset %d: %w", offs[i], err)
		}
		if i > 0 {
			// the base of the next delta: its neighbours in the chain
			// (a loop's other versions, a folder's other files) need it
			p.bases.put(offs[i], typ, base)
		}
	}
	return typ, base, nil
}

// applyDelta builds an object from base and a Git delta.
func applyDelta(base, delta []byte) ([]byte, error) {
	src, delta, ok := deltaSize(delta)
	if !ok || src != uint64(len(base)) {
		return nil, errors.New("the delta does not fit its base")
	}
	dst, delta, ok := deltaSize(delta)
	// a copy instruction of one byte writes at most 64 KiB
	if !ok || dst > uint64(len(delta))*0x10000 {
		return nil, errors.New("the delta's result size is damaged")
	}
	out := make([]byte, 0, dst)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			// bits 0-3 flag the offset's bytes, 4-6 the size's
			off, rest, ok1 := deltaArg(op, 0, 4, delta)
			n, rest, ok2 := deltaArg(op, 4, 3, rest)
			if !ok1 || !ok2 {
				return nil, errors.New("a copy instruction is cut short")
			}
			delta = rest
			if n == 0 {
				n = 0x10000
			}
			if off+n > uint64(len(base)) || uint64(len(out))+n > dst {
				return nil, errors.New("a copy instruction reaches outside the base")
			}
			out = append(out, base[off:off+n]...)
		case op != 0:
			n := int(op)
			if n > len(delta) || uint64(len(out)+n) > dst {
				return nil, errors.New("an insert instruction is cut short")
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		default:
			return nil, errors.New("reserved delta instruction 0")
		}
	}
	if uint64(len(out)) != dst {
		return nil, errors.New("the delta builds a shorter object than it says")
	}
	return out, nil
}

// deltaArg reads the little-endian bytes of a copy instruction's offset
// or size that op's bits first..first+count-1 say are present.
func deltaArg(op byte, first, count int, b []byte) (uint64, []byte, bool) {
	var v uint64
	for i := range count {
		if op&(1<<(first+i)) != 0 {
			if len(b) == 0 {
				return 0, nil, false
			}
			v |= uint64(b[0]) << (8 * i)
			b = b[1:]
		}
	}
	return v, b, true
}

// deltaSize reads a delta header's little-endian base-128 size.
func deltaSize(b []byte) (uint64, []byte, bool) {
	var n uint64
	for shift := uint(0); len(b) > 0 && shift < 64; shift += 7 {
		c := b[0]
		b = b[1:]
		n |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return n, b, true
		}
	}
	return 0, nil, false
}

// inflateExact inflates the zlib stream at the start of src into out,
// which it must fill exactly, checking the stream's checksum.
func inflateExact(src []byte, out []byte) error {
	rd := bytes.NewReader(src)
	zr, err := zlibReader(rd)
	if err != nil {
		return err
	}
	defer zlibReaders.Put(zr)
	if _, err := io.ReadFull(zr, out); err != nil {
		return fmt.Errorf("shorter than its header says: %w", err)
	}
	var one [1]byte
	if _, err := io.ReadFull(zr, one[:]); err != io.EOF {
		if err == nil {
			err = errors.New("longer than its header says")
		}
		return err
	}
	return nil
}

// deltaBases caches, by offset, the objects deltas were applied to:
// reading a run of objects that are deltas of each other (the files of a
// writer's folder in a clone, a loop's versions) inflates each base once.
// Bounded in bytes: `record verify` and `record log` stay under 100 MB
// (docs/record.md#verification).
type deltaBases struct {
	mu    sync.Mutex
	lru   list.List
	at    map[int64]*list.Element
	bytes int
}

type cachedBase struct {
	off  int64
	typ  string
	data []byte
}

// maxBaseBytes bounds each pack's cache of delta bases.
const maxBaseBytes = 16 << 20

func (c *deltaBases) get(off int64) (string, []byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.at[off]
	if !ok {
		return "", nil, false
	}
	c.lru.MoveToFront(el)
	b := el.Value.(*cachedBase)
	return b.typ, b.data, true
}

func (c *deltaBases) put(off int64, typ string, data []byte) {
	if off < 0 || len(data) > maxBaseBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at == nil {
		c.at = map[int64]*list.Element{}
	}
	if el, ok := c.at[off]; ok {
		c.lru.MoveToFront(el)
		return
	}
	c.at[off] = c.lru.PushFront(&cachedBase{off, typ, data})
	c.bytes += len(data)
	for c.bytes > maxBaseBytes {
		el := c.lru.Back()
		b := el.Value.(*cachedBase)
		c.lru.Remove(el)
		delete(c.at, b.off)
		c.bytes -= len(b.data)
	}
}

// loadPacks maps every objects/pack/*.idx once per Repo.
func (r *Repo) loadPacks() {
	idxs, err := filepath.Glob(filepath.Join(r.CommonDir, "objects", "pack", "pack-*.idx"))
	if err != nil {
		r.packs.err = err
		return
	}
	for _, path := range idxs {
		b, err := mapFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue // a pack removed by a concurrent gc; cat-file still finds it
		}
		if err != nil {
			continue // not ours to judge; git cat-file reports a bad pack
		}
		x, err := parsePackIndex(b)
		if err != nil {
			unmapFile(b)
			continue // e.g. a version 1 index: git cat-file reads it
		}
		p := &pack{path: strings.TrimSuffix(path, ".idx") + ".pack", idx: x}
		runtime.AddCleanup(p, unmapFile, b)
		r.packs.list = append(r.packs.list, p)
	}
}

// readOutside reads a delta base no pack here holds at hand: loose, or
// from `git cat-file`.
func (r *Repo) readOutside(h plumbing.Hash) (string, []byte, error) {
	typ, data, err := readLoose(r.objectPath(h), h)
	if errors.Is(err, os.ErrNotExist) {
		return r.catFile(h)
	}
	return typ, data, err
}

// readAt is object that turns a fault on the mapping (a pack truncated
// under it) into an error instead of a crash.
func (p *pack) readAt(r *Repo, off int64) (typ string, data []byte, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if e := recover(); e != nil {
			// a memory fault carries its address; anything else is a bug
			if _, ok := e.(interface{ Addr() uintptr }); !ok {
				panic(e)
			}
			typ, data, err = "", nil, fmt.Errorf("the pack changed while it was read: %v", e)
		}
	}()
	return p.object(r, off)
}

// readPacked looks h up in the pack indexes; plumbing.ErrObjectNotFound
// when no pack has it. The object read is checked against its id.
func (r *Repo) readPacked(h plumbing.Hash) (string, []byte, error) {
	r.packs.once.Do(r.loadPacks)
	if r.packs.err != nil {
		return "", nil, r.packs.err
	}
	for _, p := range r.packs.list {
		off, ok, err := p.idx.find(h)
		if err == nil && !ok {
			continue
		}
		if err == nil {
			p.once.Do(p.open)
			err = p.err
			if errors.Is(err, os.ErrNotExist) {
				continue // removed since its index was read (a concurrent gc): another pack, or Git, has it
			}
		}
		var typ string
		var data []byte
		if err == nil {
			typ, data, err = p.readAt(r, off)
		}
		if err == nil && objectID(typ, data) != h {
			err = errors.New("the object read does not match its id")
		}
		runtime.KeepAlive(p) // the mapping is read until here
		if err != nil {
			return "", nil, fmt.Errorf("reading %s from %s: %w — run `git fsck`", short(h), p.path, err)
		}
		return typ, data, nil
	}
	return "", nil, plumbing.ErrObjectNotFound
}
