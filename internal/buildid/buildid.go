// Package buildid names the running binary's build, so that what one build
// of gitwarrant derived and kept on disk (parsed loops, verified
// signatures) is never read by another (docs/performance.md#the-build-id).
// It is a leaf: it reads the running executable and nothing else.
package buildid

import (
	"bytes"
	"debug/elf"
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

// Read returns the Go build id of the binary r holds.
func Read(r io.ReaderAt) (string, error) {
	head := make([]byte, rawWindow)
	n, err := r.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return "", err
	}
	head = head[:n]
	if bytes.HasPrefix(head, []byte(elf.ELFMAG)) {
		return readELF(r)
	}
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

// readELF reads the build id note of an ELF binary.
func readELF(r io.ReaderAt) (string, error) {
	f, err := elf.NewFile(r)
	if err != nil {
		return "", err
	}
	s := f.Section(".note.go.buildid")
	if s == nil {
		return "", ErrNone
	}
	note, err := s.Data()
	if err != nil {
		return "", err
	}
	// namesz, descsz, type, then the name "Go\x00\x00" and the id.
	if len(note) < 16 {
		return "", ErrNone
	}
	bo := f.ByteOrder
	namesz, descsz, typ := bo.Uint32(note), bo.Uint32(note[4:]), bo.Uint32(note[8:])
	if namesz != 4 || typ != noteType || string(note[12:16]) != "Go\x00\x00" || uint64(descsz) > uint64(len(note)-16) || descsz == 0 {
		return "", ErrNone
	}
	return string(note[16 : 16+descsz]), nil
}
