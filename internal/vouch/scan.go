package vouch

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/buildid"
	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/fsx"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/sign"
)

// The signed entries are found in the record's chains, and what was found
// is kept per chain under the git dir (docs/signing.md#the-cache): the
// chain's last entry hash commits to every entry before it, so a cache
// made for a chain that still holds that hash at that line is the same
// prefix, and only the entries after it are read. A cache made by another
// build, or for a chain that no longer holds its head, is read again from
// the start. The cache holds only what those entries yield — the signed
// lines, and each signature's verdict under a named allowed_signers
// digest — so losing it costs time, never a verdict.

// cacheFormat changes when the cache's shape or meaning does.
const cacheFormat = 1

type srcCache struct {
	Format int          `json:"format"`
	Build  string       `json:"build"`
	Lines  int64        `json:"lines"`
	Head   string       `json:"head"`
	Signed []cachedLine `json:"signed"`
}

type cachedLine struct {
	Line string `json:"line"`
	// Verdicts maps an allowed_signers digest to "ok <principal>" or
	// "no <reason>": the signature checked against those bytes.
	Verdicts map[string]string `json:"verdicts,omitempty"`
}

// source is one chain's cache as read and updated in this process.
type source struct {
	name  string
	path  string
	cache srcCache
	dirty bool
}

// Item is one signed entry found, with where its verdicts are kept.
type Item struct {
	Signed
	src *source
	cl  *cachedLine
}

// Collection is every signed entry of a record.
type Collection struct {
	Items   []*Item
	sources []*source
	mu      sync.Mutex
}

// signedMarkers are in every line that can vouch: entries are canonical
// JSON, so the kind is written exactly so.
var signedMarkers = [][]byte{[]byte(`"kind":"amend"`), []byte(`"kind":"` + KindBless + `"`)}

// Collect reads every signed entry of r's chains, through the cache in
// dir (none when dir is "").
func Collect(r *record.Record, dir string) (*Collection, error) {
	srcs, err := r.Sources()
	if err != nil {
		return nil, err
	}
	return collectFrom(r, srcs, dir)
}

// collectFrom is Collect over the chains srcs, as r.Sources listed them.
func collectFrom(r *record.Record, srcs []record.Source, dir string) (*Collection, error) {
	col := &Collection{}
	for _, s := range srcs {
		src, err := collectSource(r, s, dir)
		if err != nil {
			return nil, fmt.Errorf("reading the signed entries of %s: %w", s.Name, err)
		}
		col.sources = append(col.sources, src)
		for i := range src.cache.Signed {
			cl := &src.cache.Signed[i]
			e, _, err := chain.ParseEntry([]byte(cl.Line))
			if err != nil {
				continue
			}
			if sg, ok := FromEntry(s.Name, e); ok {
				col.Items = append(col.Items, &Item{Signed: sg, src: src, cl: cl})
			}
		}
	}
	return col, nil
}

// collectSource brings one chain's cache up to date.
func collectSource(r *record.Record, s record.Source, dir string) (*source, error) {
	lines, head := s.Lines(), ""
	switch {
	case s.Ref != nil:
		head = s.Ref.Head
	case lines >= 0:
		// A folder's files are named by the seqs they hold and never
		// change (docs/record.md#the-branch-copy).
		head = fmt.Sprintf("files:%d", lines)
	}
	// A single-file chain (docket's, or one not yet migrated) has no head
	// to key on: it is read whole every time.
	src := &source{name: s.Name}
	if dir != "" {
		src.path = filepath.Join(dir, "chain-"+safeName(s.Name)+".json")
		if b, err := os.ReadFile(src.path); err == nil {
			_ = json.Unmarshal(b, &src.cache)
		}
	}
	c := &src.cache
	if c.Format == cacheFormat && c.Build == buildID() && c.Head == head && c.Lines == lines && head != "" {
		return src, nil
	}
	from := int64(1)
	if s.Ref != nil && c.Format == cacheFormat && c.Build == buildID() && c.Lines > 0 && c.Lines < lines {
		from = c.Lines + 1
	} else {
		c.Signed = nil
	}
	sc := &lineScan{first: from > 1, prev: c.Head}
	if err := r.WriteSourceFrom(s, from, sc); err != nil {
		return nil, err
	}
	sc.flush()
	if sc.broken {
		// The chain no longer continues the cached head: read it all.
		c.Signed = nil
		sc = &lineScan{}
		if err := r.WriteSourceFrom(s, 1, sc); err != nil {
			return nil, err
		}
		sc.flush()
	}
	c.Signed = append(c.Signed, sc.found...)
	c.Format, c.Build, c.Lines, c.Head = cacheFormat, buildID(), lines, head
	src.dirty = true
	return src, nil
}

// lineScan keeps the signed lines written to it; with first set, the
// first line must continue prev, or the scan is broken.
type lineScan struct {
	buf    []byte
	found  []cachedLine
	first  bool
	prev   string
	broken bool
}

func (l *lineScan) Write(b []byte) (int, error) {
	l.buf = append(l.buf, b...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.line(l.buf[:i])
		l.buf = l.buf[i+1:]
	}
	return len(b), nil
}

func (l *lineScan) flush() {
	if len(l.buf) > 0 {
		l.line(l.buf)
		l.buf = nil
	}
}

func (l *lineScan) line(b []byte) {
	if l.first {
		l.first = false
		if e, _, err := chain.ParseEntry(b); err != nil || e.Prev != l.prev {
			l.broken = true
		}
	}
	for _, m := range signedMarkers {
		if bytes.Contains(b, m) {
			l.found = append(l.found, cachedLine{Line: string(b)})
			return
		}
	}
}

// Verify is Verify(&it.Signed, signers), remembered under the digest of
// the allowed_signers bytes signers was read from.
func (c *Collection) Verify(it *Item, signers *sign.AllowedSigners, digest string) (string, error) {
	c.mu.Lock()
	v, ok := it.cl.Verdicts[digest]
	c.mu.Unlock()
	if !ok {
		got, err := Verify(&it.Signed, signers)
		if err != nil {
			v = "no " + err.Error()
		} else {
			v = "ok " + got.Principal
		}
		c.mu.Lock()
		if it.cl.Verdicts == nil {
			it.cl.Verdicts = map[string]string{}
		}
		it.cl.Verdicts[digest] = v
		it.src.dirty = true
		c.mu.Unlock()
	}
	if p, ok := strings.CutPrefix(v, "ok "); ok {
		return p, nil
	}
	return "", fmt.Errorf("%s", strings.TrimPrefix(v, "no "))
}

// Save writes the caches that changed. It is best effort: a cache that
// cannot be written is read again next time.
func (c *Collection) Save() {
	for _, s := range c.sources {
		if !s.dirty || s.path == "" {
			continue
		}
		if b, err := json.Marshal(s.cache); err == nil {
			_ = fsx.WriteReplace(s.path, b, 0o644)
		}
	}
}

// safeName keeps a chain name to one harmless path component.
func safeName(s string) string {
	ok := true
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			ok = false
		}
	}
	if ok && s != "" && s[0] != '.' {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// buildID names this binary's build, so a cache made by another build of
// gitwarrant (whose parsing or verification may differ) is never read: the
// Go build id the linker stamps (docs/performance.md#the-build-id), else
// the build information and the executable's path, size and time.
var buildID = sync.OnceValue(func() string {
	if id, err := buildid.Self(); err == nil {
		return "go:" + id
	}
	h := sha256.New()
	if bi, ok := debug.ReadBuildInfo(); ok {
		h.Write([]byte(bi.String()))
	}
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fmt.Fprintf(h, "\x00%s\x00%d\x00%d", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
})
