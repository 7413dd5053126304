package warrantdiff

import (
	"bytes"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// A loop that extends another holds its parent's entries too
// (docs/loop-format.md#extends-and-abstract), so a change to a parent's
// file changes every child's effective warrant: the diff resolves each
// loop's lists through its parents and shows a parent's change on every
// child, naming the parent as the loop whose file (and amend) it is.

// maxDepth bounds a chain of parents; loading refuses longer ones.
const maxDepth = 10

// rItem is an entry of a resolved list: From is the loop whose file holds
// it ("" for the loop's own).
type rItem struct {
	loops.Item
	From string
}

// parentName returns the loop's parent as loading reads it, or "".
func (s *Snapshot) parentName(name string) string {
	id := s.blobs[name]
	if p, ok := s.parents[id]; ok {
		return p
	}
	p := ""
	if l := s.parsed[name]; l != nil {
		p = l.Extends.Text
	} else if b, err := s.bytesOf(name); err == nil {
		p = parentOf(s.loopPath(name), b)
	}
	s.parents[id] = p
	return p
}

// parentOf is the parent a loop file names, as loading reads it, or ""
// (also when the file does not load). An unchanged loop is not parsed for
// it when its frontmatter mentions `extends` in one plain
// `extends: <name>` line or not at all (scanParent); any other mention —
// a quoted key, a block or flow value, a second line, the word in a value
// — is left to the loader: a scan that read YAML differently from loading
// would hide a parent's change from its children.
func parentOf(path string, b []byte) string {
	if p, sure := scanParent(b); sure {
		return p
	}
	if l, err := loops.Parse(path, b); err == nil {
		return l.Extends.Text
	}
	return ""
}

// scanParent reads the parent without parsing YAML and reports whether it
// is sure: the frontmatter holds no "extends" at all, or exactly one, in a
// line that is `extends:`, blanks, a loop name (optionally quoted with
// matching quotes), then blanks and an optional comment.
func scanParent(b []byte) (string, bool) {
	fm := frontmatter(b)
	if !bytes.Contains(fm, []byte("extends")) {
		return "", true
	}
	if bytes.Count(fm, []byte("extends")) > 1 {
		return "", false
	}
	for len(fm) > 0 {
		line := fm
		if i := bytes.IndexByte(fm, '\n'); i >= 0 {
			line, fm = fm[:i], fm[i+1:]
		} else {
			fm = nil
		}
		if bytes.Contains(line, []byte("extends")) {
			return plainExtends(line)
		}
	}
	return "", false
}

// plainExtends reads `extends: name`, `extends: "name"` or
// `extends: 'name'`, with blanks around and an optional `# comment`.
func plainExtends(line []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(bytes.TrimSuffix(line, []byte("\r")), []byte("extends:"))
	if !ok || len(rest) == 0 || rest[0] != ' ' && rest[0] != '\t' { // `extends:x` is no key
		return "", false
	}
	rest = bytes.TrimLeft(rest, " \t")
	var q byte
	if len(rest) > 0 && (rest[0] == '"' || rest[0] == '\'') {
		q, rest = rest[0], rest[1:]
	}
	n := 0
	for n < len(rest) && (rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= '0' && rest[n] <= '9' || n > 0 && rest[n] == '-') {
		n++
	}
	name, rest := string(rest[:n]), rest[n:]
	if name == "" {
		return "", false
	}
	if q != 0 {
		if len(rest) == 0 || rest[0] != q {
			return "", false
		}
		rest = rest[1:]
	}
	trimmed := bytes.TrimLeft(rest, " \t")
	switch {
	case len(trimmed) == 0:
		return name, true
	case trimmed[0] == '#' && len(trimmed) < len(rest): // a comment needs a blank before it
		return name, true
	}
	return "", false
}

// prefetchParents reads the parent of every loop file of base and head
// not known yet, the files read in parallel: an unchanged loop is never
// parsed, but whether it inherits a change depends on its `extends:` line,
// and reading a hundred small files one after the other is most of a
// diff's time. A file that differs from the other side's is parsed by the
// same workers, as Compare will ask for it. base and head share their
// parents map (Compare).
func prefetchParents(base, head *Snapshot) {
	type job struct {
		s, other *Snapshot
		name     string
		id       string
		b        []byte
		err      error
		p        string
		loop     *loops.Loop
		perr     error
	}
	// a changed file, or one of a loop new in head: Compare parses it (a
	// deleted loop's is not read further)
	parse := func(j *job) bool {
		oid, ok := j.other.blobs[j.name]
		return ok && oid != j.id || !ok && j.s == head
	}
	// the parents kept for either revision's loops tree (cache.go): a
	// file whose parent is known is read only when it is parsed
	base.loadParents()
	head.loadParents()
	var jobs []*job
	seen := map[string]bool{}
	for _, pair := range [][2]*Snapshot{{head, base}, {base, head}} {
		s, other := pair[0], pair[1]
		for _, n := range slices.Sorted(maps.Keys(s.blobs)) {
			id := s.blobs[n]
			j := &job{s: s, other: other, name: n, id: id}
			if _, ok := s.parents[id]; ok && !parse(j) || seen[id] {
				continue
			}
			seen[id] = true
			jobs = append(jobs, j)
		}
	}
	// The files to parse go first, each taken by whichever worker is free:
	// the new amends are read and verified meanwhile (Run), and a worker
	// that waits for that goroutine's CPU must not hold a fixed share of
	// the files.
	slices.SortStableFunc(jobs, func(a, b *job) int {
		pa, pb := parse(a), parse(b)
		switch {
		case pa == pb:
			return 0
		case pa:
			return -1
		}
		return 1
	})
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		if b, ok := j.s.data[j.name]; ok {
			j.b = b
		} else {
			j.b, j.err = j.s.repo.BlobAt(j.id, j.s.loopFile(j.name))
		}
		if j.err != nil {
			return
		}
		if parse(j) {
			j.loop, j.perr = loops.ParseStored(j.s.store, j.s.loopPath(j.name), j.b)
		}
		if j.loop != nil {
			j.p = j.loop.Extends.Text
		} else if j.perr == nil {
			j.p = parentOf(j.s.loopPath(j.name), j.b)
		}
	})
	for _, j := range jobs {
		if j.err != nil {
			continue // parentName reads it again and sees the error
		}
		j.s.parents[j.id] = j.p
		j.s.data[j.name] = j.b
		if j.loop != nil || j.perr != nil {
			j.s.preparsed[j.name] = preparsed{j.loop, j.perr}
		}
	}
}

// parallel calls fn(0) … fn(n-1) on a worker per CPU, each taking the
// next index as it is free, and returns when all have returned.
func parallel(n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// ancestors lists name's parents, nearest first (cut at a cycle or at
// maxDepth: loading reports those).
func (s *Snapshot) ancestors(name string) []string {
	var out []string
	for p := s.parentName(name); p != "" && len(out) < maxDepth && !slices.Contains(out, p) && p != name; p = s.parentName(p) {
		out = append(out, p)
	}
	return out
}

// resolved returns name's lists with every ancestor's entries folded in,
// parent first, the first wording of an entry kept (as loading does, by
// loops.EntryKey).
func (s *Snapshot) resolved(name string) (map[string][]rItem, bool) {
	chain := append([]string{name}, s.ancestors(name)...)
	out := map[string][]rItem{}
	seen := map[string]map[string]bool{}
	for i := len(chain) - 1; i >= 0; i-- {
		l := s.Loop(chain[i])
		if l == nil {
			return nil, false
		}
		from := chain[i]
		if i == 0 {
			from = ""
		}
		for _, list := range loops.AmendLists {
			if seen[list] == nil {
				seen[list] = map[string]bool{}
			}
			items, _ := l.ItemsOf(list)
			for _, it := range items {
				k := loops.EntryKey(it.Text)
				if !seen[list][k] {
					seen[list][k] = true
					out[list] = append(out[list], rItem{Item: it, From: from})
				}
			}
		}
	}
	return out, true
}

// affected reports whether name's effective warrant may differ between
// base and head: its own file or an ancestor's changed, or its parents did.
func affected(base, head *Snapshot, name string) bool {
	if base.blobs[name] != head.blobs[name] {
		return true
	}
	ha := head.ancestors(name) // head first: see Compare
	ba := base.ancestors(name)
	if !slices.Equal(ba, ha) {
		return true
	}
	for _, a := range ba {
		if base.blobs[a] != head.blobs[a] {
			return true
		}
	}
	return false
}

// compareResolved diffs name's resolved lists, and its parent.
func compareResolved(base, head *Snapshot, name string) []Change {
	var out []Change
	if bp, hp := base.parentName(name), head.parentName(name); bp != hp {
		out = append(out, Change{Loop: name, Op: OpExtends, Entry: fmt.Sprintf("%s → %s", orNone(bp), orNone(hp)), Kind: Widening,
			Why: "a changed parent changes every entry the loop inherits"})
	}
	if ba, ha := abstractFlag(base, name), abstractFlag(head, name); ba != ha {
		out = append(out, Change{Loop: name, Op: OpAbstract, Entry: fmt.Sprintf("%v → %v", ba, ha), Kind: Widening,
			Why: "a changed abstract flag changes whether the loop is routed to and checked"})
	}
	if base.blobs[name] != head.blobs[name] {
		out = append(out, loopExampleChanges(base, head, name)...)
	}
	b, okB := base.resolved(name)
	h, okH := head.resolved(name)
	if !okB && okH {
		// The loop (or a parent) did not load at base: what it held back
		// then cannot be read, so everything head allows is new
		// (docs/signing.md#the-warrant-diff).
		for _, list := range loops.AmendLists {
			for _, it := range h[list] {
				c := Change{Loop: name, List: list, Op: OpAdd, Entry: it.Text, Line: it.Line, Via: it.From, Kind: Narrowing,
					Why: "the loop did not load at base; a " + list + " entry now"}
				if isAllow(list) {
					c.Kind = Widening
				}
				out = append(out, c)
			}
		}
		return out
	}
	if !okH {
		// unreadable in head, whatever base held: the loop or a parent
		// changed (compareResolved is called for no other), and what it
		// now allows cannot be read
		return append(out, unresolved(name))
	}
	for _, list := range loops.AmendLists {
		removed, added := rDiff(b[list], h[list])
		for _, it := range removed {
			c := Change{Loop: name, List: list, Op: OpRemove, Entry: it.Text, Line: it.Line, Via: it.From}
			if isAllow(list) {
				c.Kind, c.Why = Narrowing, "removed from "+list
			} else {
				c.Kind, c.Why = Widening, "removed from "+list+": it no longer holds anything back"
			}
			out = append(out, c)
		}
		for _, it := range added {
			c := Change{Loop: name, List: list, Op: OpAdd, Entry: it.Text, Line: it.Line, Via: it.From}
			if isAllow(list) {
				c.Kind, c.Why = Widening, "added to "+list
			} else {
				c.Kind, c.Why = Narrowing, "added to "+list
			}
			out = append(out, c)
		}
	}
	return out
}

// abstractFlag is the loop's `abstract` as loading reads it (any YAML
// boolean: `true`, `True`, `TRUE`); false when the file does not load,
// which the diff reports on its own.
func abstractFlag(s *Snapshot, name string) bool {
	l := s.Loop(name)
	return l != nil && l.Abstract
}

// frontmatter is the text between the opening `---` and the next `---`
// line: a body line reading `extends: x` is prose, not a parent.
func frontmatter(b []byte) []byte {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if !bytes.HasPrefix(b, []byte("---")) {
		return nil
	}
	rest := b[3:]
	for off := 0; ; {
		i := bytes.IndexByte(rest[off:], '\n')
		if i < 0 {
			return nil
		}
		off += i + 1
		line := rest[off:]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		if string(bytes.TrimRight(line, " \t\r")) == "---" {
			return rest[:off]
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// rDiff is multisetDiff on resolved items, by loops.EntryKey (folded
// text, or a typed entry's text as written).
func rDiff(a, b []rItem) (removed, added []rItem) {
	in := func(list []rItem) map[string]int {
		m := map[string]int{}
		for _, it := range list {
			m[loops.EntryKey(it.Text)]++
		}
		return m
	}
	cb := in(b)
	for _, it := range a {
		if k := loops.EntryKey(it.Text); cb[k] > 0 {
			cb[k]--
		} else {
			removed = append(removed, it)
		}
	}
	ca := in(a)
	for _, it := range b {
		if k := loops.EntryKey(it.Text); ca[k] > 0 {
			ca[k]--
		} else {
			added = append(added, it)
		}
	}
	return removed, added
}
