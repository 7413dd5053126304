package warrantdiff

import (
	"maps"
	"sort"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/sign"
)

// Kind classifies a change.
type Kind string

// The two kinds: a widening gives an agent more room (and needs a signed
// amend); a narrowing takes room away.
const (
	Widening  Kind = "widening"
	Narrowing Kind = "narrowing"
)

// Ops of a change.
const (
	OpAdd         = "add"
	OpRemove      = "remove"
	OpLoopAdded   = "loop added"
	OpLoopRemoved = "loop removed"
	OpExtends     = "extends"
	OpUnreadable  = "does not parse"
	OpAbstract    = "abstract"
)

// SignersList names allowed_signers as the "list" of its changes (and the
// loop and list fields of the amends that sign them).
const SignersList = "allowed_signers"

// Change is one entry that differs between base and head.
type Change struct {
	Loop  string // the loop whose effective warrant changes
	List  string // read … never, reserved, or allowed_signers
	Op    string
	Entry string // the entry's text (a signer line for allowed_signers)
	Kind  Kind
	Why   string // the rule that classified it
	Via   string // the loop whose file changed, when Loop inherits it
	Line  int    // the line in head (base for a removal), when known
	Cover *Cover // the signed amend covering a widening; nil when unsigned
	// Refused says why an amend that names this change did not verify.
	Refused string
}

// Cover is the signed amend that covers a widening.
type Cover struct {
	Signer string
	Chain  string
	Seq    int64
}

// allowLists grant; the others (ask, never, reserved) hold back.
var allowLists = []string{"read", "draft", "change", "send"}

// Compare lists every change from base to head, loops in name order, then
// allowed_signers.
func Compare(base, head *Snapshot) []Change {
	names := map[string]bool{}
	for _, n := range base.Names() {
		names[n] = true
	}
	for _, n := range head.Names() {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	var out []Change
	// Same blob, same parent: read unchanged files once, head first (in
	// the work tree its bytes are in memory already).
	maps.Copy(head.parents, base.parents)
	base.parents = head.parents
	if maps.Equal(base.blobs, head.blobs) {
		return append(out, compareSigners(base.Signers, head.Signers)...)
	}
	prefetchParents(base, head)
	defer base.keepParents()
	defer head.keepParents()
	for _, n := range sorted {
		switch {
		case head.Has(n) && (!base.Has(n) || base.blobs[n] != head.blobs[n]) && head.Loop(n) == nil:
			out = append(out, Change{Loop: n, Op: OpUnreadable, Kind: Widening,
				Why: "the loop file does not parse, so what it allows cannot be read"})
		case !base.Has(n):
			out = append(out, loopAdded(head, n)...)
		case !head.Has(n):
			out = append(out, Change{Loop: n, Op: OpLoopRemoved, Kind: Widening,
				Why: "a deleted loop's hard stops and ask entries no longer apply"})
		case affected(base, head, n):
			out = append(out, compareResolved(base, head, n)...)
		}
	}
	return append(out, compareSigners(base.Signers, head.Signers)...)
}

func loopAdded(head *Snapshot, name string) []Change {
	lists, ok := head.resolved(name)
	if !ok {
		// a parent the diff cannot read: loading may still find one (a
		// case-insensitive file system finds `p.LOOP.md` for `p`)
		return []Change{unresolved(name)}
	}
	var out []Change
	for _, list := range loops.AmendLists {
		for _, it := range lists[list] {
			c := Change{Loop: name, List: list, Op: OpAdd, Entry: it.Text, Line: it.Line, Via: it.From}
			if isAllow(list) {
				c.Kind, c.Why = Widening, "a new loop's "+list+" entry"
			} else {
				c.Kind, c.Why = Narrowing, "a new loop's "+list+" entry"
			}
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = append(out, Change{Loop: name, Op: OpLoopAdded, Kind: Narrowing, Why: "a new loop with no entries grants nothing"})
	}
	return out
}

// unresolved is the widening of a loop whose own file parses but whose
// warrant, through its parents, cannot be read.
func unresolved(name string) Change {
	return Change{Loop: name, Op: OpUnreadable, Kind: Widening,
		Why: "a parent of the loop does not load here, so what it allows cannot be read"}
}

func isAllow(list string) bool {
	for _, l := range allowLists {
		if l == list {
			return true
		}
	}
	return false
}

// multisetDiff returns the items of a not in b and of b not in a, by text,
// counting repeats.
func multisetDiff(a, b []loops.Item) (removed, added []loops.Item) {
	count := map[string]int{}
	for _, it := range b {
		count[it.Text]++
	}
	for _, it := range a {
		if count[it.Text] > 0 {
			count[it.Text]--
		} else {
			removed = append(removed, it)
		}
	}
	count = map[string]int{}
	for _, it := range a {
		count[it.Text]++
	}
	for _, it := range b {
		if count[it.Text] > 0 {
			count[it.Text]--
		} else {
			added = append(added, it)
		}
	}
	return removed, added
}

// compareSigners diffs allowed_signers by line (comments and blank lines
// aside, exactly as verification skips them: sign.IsSignerLine). Any
// change to who may sign is a widening: it changes who can widen every
// warrant (docs/signing.md#the-warrant-diff).
func compareSigners(base, head []byte) []Change {
	lines := func(b []byte) []loops.Item {
		var out []loops.Item
		for i, l := range strings.Split(string(b), "\n") {
			if sign.IsSignerLine(l) {
				out = append(out, loops.Item{Text: strings.TrimRight(l, "\r"), Line: i + 1})
			}
		}
		return out
	}
	removed, added := multisetDiff(lines(base), lines(head))
	var out []Change
	for _, it := range removed {
		out = append(out, Change{Loop: SignersList, List: SignersList, Op: OpRemove, Entry: it.Text, Line: it.Line, Kind: Widening,
			Why: "a change to who may sign amends"})
	}
	for _, it := range added {
		out = append(out, Change{Loop: SignersList, List: SignersList, Op: OpAdd, Entry: it.Text, Line: it.Line, Kind: Widening,
			Why: "a change to who may sign amends"})
	}
	return out
}

// ParseSigners parses a snapshot's allowed_signers for verifying amends.
func ParseSigners(s *Snapshot) (*sign.AllowedSigners, error) {
	return sign.ParseAllowedSigners(s.Label+":allowed_signers", s.Signers)
}
