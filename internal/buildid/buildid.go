// Package buildid names the running binary's build, so that what one build
// of gitwarrant derived and kept on disk (parsed loops, verified
// signatures) is never read by another (docs/performance.md#the-build-id).
// It is a leaf: it reads the running executable and nothing else.
package buildid

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"runtime"
	"sync"
)

// The Go linker stamps every binary it writes with a build id,
// "<action id>/<content id>": a hash of every input of the build
// (sources, dependencies, toolchain, flags) and a hash of the output.
// `go build`, `go install`, `go run` and `go test` all stamp it. On ELF it
// is the note ".note.go.buildid" (owner "Go", type 4); elsewhere it sits
// near the start of the text segment as `\xff Go build ID: "…"\n \xff`.

// noteType is the ELF note type of the Go build id.
const noteType = 4

var rawPrefix, rawEnd = []byte("\xff Go build ID: \""), []byte("\"\n \xff")

// rawWindow is how far into a non-ELF binary the raw form is looked for:
// cmd/go's own reader looks as far (the start of the text segment).
const rawWindow = 64 << 10

// ErrNone is returned when the running binary carries no build id (linked
// with -buildid=, or a format this package cannot read): nothing derived
// may then be kept across processes.
var ErrNone = errors.New("the running binary carries no Go build id")

// Self returns the running binary's Go build id, read once per process.
// On Linux it reads /proc/self/exe, the very file the process runs even
// when the path has since been replaced by an upgrade.
var Self = sync.OnceValues(func() (string, error) {
	path := "/proc/self/exe"
	if runtime.GOOS != "linux" {
		p, err := os.Executable()
		if err != nil {
			return "", err
		}
		path = p
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return Read(f)
})

// elfHead is how much of an ELF binary is read first: its header, its
// program headers and, as the Go linker lays them out, the build id note
// (at 0xf78 in an amd64 binary). A note further in is read where it is.
const elfHead = 4 << 10

// Read returns the Go build id of the binary r holds.
func Read(r io.ReaderAt) (string, error) {
	head := make([]byte, elfHead)
	n, err := r.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return "", err
	}
	head = head[:n]
	if bytes.HasPrefix(head, []byte(elf.ELFMAG)) {
		return readELF(r, head)
	}
	head = make([]byte, rawWindow)
	n, err = r.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return "", err
	}
	head = head[:n]
	i := bytes.Index(head, rawPrefix)
	if i < 0 {
		return "", ErrNone
	}
	rest := head[i+len(rawPrefix):]
	j := bytes.Index(rest, rawEnd)
	if j <= 0 {
		return "", ErrNone
	}
	return string(rest[:j]), nil
}

// readELF finds the Go build id note among the PT_NOTE segments of an ELF
// binary whose first bytes are head, reading only those segments (as
// cmd/go's own reader does; debug/elf would read every section header and
// their names, a measurable share of a hook process).
func readELF(r io.ReaderAt, head []byte) (string, error) {
	if len(head) < 64 {
		return "", ErrNone
	}
	var bo binary.ByteOrder
	switch elf.Data(head[elf.EI_DATA]) {
	case elf.ELFDATA2LSB:
		bo = binary.LittleEndian
	case elf.ELFDATA2MSB:
		bo = binary.BigEndian
	default:
		return "", ErrNone
	}
	var phoff uint64
	var phentsize, phnum uint16
	is64 := elf.Class(head[elf.EI_CLASS]) == elf.ELFCLASS64
	if is64 {
		phoff, phentsize, phnum = bo.Uint64(head[32:]), bo.Uint16(head[54:]), bo.Uint16(head[56:])
	} else {
		phoff, phentsize, phnum = uint64(bo.Uint32(head[28:])), bo.Uint16(head[42:]), bo.Uint16(head[44:])
	}
	for i := range uint64(phnum) {
		at := phoff + i*uint64(phentsize)
		if at+uint64(phentsize) > uint64(len(head)) || phentsize < 32 {
			return "", ErrNone
		}
		ph := head[at:]
		if elf.ProgType(bo.Uint32(ph)) != elf.PT_NOTE {
			continue
		}
		var off, size uint64
		if is64 {
			off, size = bo.Uint64(ph[8:]), bo.Uint64(ph[32:])
		} else {
			off, size = uint64(bo.Uint32(ph[4:])), uint64(bo.Uint32(ph[16:]))
		}
		if size > 1<<16 {
			continue
		}
		seg := make([]byte, size)
		if off+size <= uint64(len(head)) {
			copy(seg, head[off:])
		} else if _, err := r.ReadAt(seg, int64(off)); err != nil {
			return "", err
		}
		if id, ok := goNote(seg, bo); ok {
			return id, nil
		}
	}
	return "", ErrNone
}

// goNote finds the note of owner "Go" and type noteType in a PT_NOTE
// segment: namesz, descsz, type, the name and the description, each
// padded to four bytes.
func goNote(seg []byte, bo binary.ByteOrder) (string, bool) {
	for len(seg) >= 12 {
		namesz, descsz, typ := uint64(bo.Uint32(seg)), uint64(bo.Uint32(seg[4:])), bo.Uint32(seg[8:])
		name := 12 + (namesz+3)&^3
		end := name + (descsz+3)&^3
		if end > uint64(len(seg)) || name+descsz > uint64(len(seg)) {
			return "", false
		}
		if namesz == 4 && string(seg[12:16]) == "Go\x00\x00" && typ == noteType && descsz > 0 {
			return string(seg[name : name+descsz]), true
		}
		seg = seg[end:]
	}
	return "", false
}
