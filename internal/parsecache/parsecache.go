// Package parsecache keeps parsed loop files across processes, under the
// git dir with gitwarrant's other state (docs/performance.md#the-parse-cache).
// It is content-addressed: an entry is found by the SHA-256 of the exact
// loop bytes, the path they were read from and the build id of the binary
// that parsed them, holds only what parsing those bytes yields, and is
// taken only after loops.DecodeParsed has checked that it was made for
// those very bytes. Anything else — a missing, damaged, planted or
// unreadable entry, a folder that is a symbolic link — is a miss: the
// loop is parsed, as without a cache. The cache saves time; it never
// decides.
package parsecache

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/buildid"
	"github.com/gitwarrant/gitwarrant/internal/fsx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Folder is where the entries of a repository whose common git dir is d
// are kept: Dir(d).
const Folder = "parse"

// MaxEntries bounds the folder: past it, a write removes the oldest
// entries down to half. A loops folder holds tens of files and each edit
// makes one new entry, so only a long-lived repository with many builds
// of gitwarrant reaches it.
const MaxEntries = 512

// maxEntrySize bounds what is read: an encoded parse is about the size of
// its file, and a loop file is at most loops.MaxFileSize.
const maxEntrySize = 4 * loops.MaxFileSize

// header opens every entry file; then come the build id and a newline,
// the SHA-256 of the encoding (so a damaged file is a miss, whatever
// byte it lost) and the encoding.
var header = []byte("gitwarrant parse cache 2\n")

// Dir returns the folder of a repository's entries.
func Dir(commonDir string) string { return filepath.Join(commonDir, "gitwarrant", Folder) }

// Store is a loops.Store in one repository's git dir.
type Store struct {
	state string // <common dir>/gitwarrant
	dir   string
	build string

	mu     sync.Mutex
	safe   bool // the folders were checked and are real folders
	broken bool // they are not: nothing is read or written
}

// Open returns the store of the repository whose common git dir is
// commonDir, or nil (no store: parse every time) when there is no git dir
// or the running binary carries no build id to key entries with.
func Open(commonDir string) loops.Store {
	if commonDir == "" {
		return nil
	}
	build, err := buildid.Self()
	if err != nil || build == "" {
		return nil
	}
	return openBuild(commonDir, build)
}

// openBuild is Open for the build named build.
func openBuild(commonDir, build string) *Store {
	return &Store{state: filepath.Join(commonDir, "gitwarrant"), dir: Dir(commonDir), build: build}
}

// entryPath names the entry for (path, sum) under this build.
func (s *Store) entryPath(path string, sum [32]byte) string {
	h := sha256.New()
	h.Write([]byte(s.build))
	h.Write([]byte{0})
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write(sum[:])
	return filepath.Join(s.dir, hex.EncodeToString(h.Sum(nil)))
}

// usable reports whether gitwarrant/ and gitwarrant/parse/ are real
// folders, not symbolic links (a link could lead the reads to a folder
// the agent may write); checked once. create makes them first.
func (s *Store) usable(create bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.safe || s.broken {
		return s.safe
	}
	if create {
		if err := os.MkdirAll(s.dir, 0o755); err != nil {
			return false
		}
	}
	for _, d := range []string{s.state, s.dir} {
		info, err := os.Lstat(d)
		if err != nil {
			return false // missing: a miss now, perhaps created by a Put
		}
		if !info.IsDir() {
			s.broken = true
			return false
		}
	}
	s.safe = true
	return true
}

// Get returns the encoded parse kept for (path, sum), or nil.
func (s *Store) Get(path string, sum [32]byte) []byte {
	if !s.usable(false) {
		return nil
	}
	b, err := readEntry(s.entryPath(path, sum))
	if err != nil {
		return nil
	}
	rest, ok := bytes.CutPrefix(b, header)
	if !ok {
		return nil
	}
	build, rest, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok || string(build) != s.build || len(rest) < sha256.Size {
		return nil
	}
	enc := rest[sha256.Size:]
	if sum := sha256.Sum256(enc); !bytes.Equal(sum[:], rest[:sha256.Size]) {
		return nil
	}
	return enc
}

// readEntry reads a regular file of at most maxEntrySize bytes.
func readEntry(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || info.Size() > maxEntrySize {
		return nil, fs.ErrInvalid
	}
	b := make([]byte, info.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return b, nil
}

// Put keeps enc for (path, sum), best effort: a folder that cannot be
// written only means the next process parses again.
func (s *Store) Put(path string, sum [32]byte, enc []byte) {
	if !s.usable(true) {
		return
	}
	check := sha256.Sum256(enc)
	b := make([]byte, 0, len(header)+len(s.build)+1+len(check)+len(enc))
	b = append(append(append(b, header...), s.build...), '\n')
	b = append(append(b, check[:]...), enc...)
	p := s.entryPath(path, sum)
	if fsx.WriteReplace(p, b, 0o644) == nil {
		s.prune(filepath.Base(p))
	}
}

// prune removes the oldest entries, down to half of MaxEntries, once the
// folder holds more than MaxEntries; keep, just written, stays.
func (s *Store) prune(keep string) {
	ents, err := os.ReadDir(s.dir)
	if err != nil || len(ents) <= MaxEntries {
		return
	}
	type aged struct {
		name string
		at   int64
	}
	var all []aged
	for _, e := range ents {
		if info, err := e.Info(); err == nil && e.Name() != keep {
			all = append(all, aged{e.Name(), info.ModTime().UnixNano()})
		}
	}
	slices.SortFunc(all, func(a, b aged) int { return cmp.Compare(a.at, b.at) })
	for _, a := range all[:max(0, len(all)-MaxEntries/2)] {
		os.Remove(filepath.Join(s.dir, a.name))
	}
}
