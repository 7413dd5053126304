package warrantdiff

import (
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

// allowLists grant; stopLists hold back.
var (
	allowLists = []string{"read", "draft", "change", "send"}
	stopLists  = []string{"ask", "never", "reserved"}
)

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
	for _, n := range sorted {
		switch {
		case !base.Has(n):
			if h := head.Loop(n); h != nil {
				out = append(out, loopAdded(h)...)
			}
		case !head.Has(n):
			out = append(out, Change{Loop: n, Op: OpLoopRemoved, Kind: Widening,
				Why: "a deleted loop's hard stops and ask entries no longer apply"})
		case base.blobs[n] != head.blobs[n]:
			if b, h := base.Loop(n), head.Loop(n); b != nil && h != nil {
				out = append(out, compareLoop(b, h)...)
			}
		}
	}
	return append(out, compareSigners(base.Signers, head.Signers)...)
}

func loopAdded(h *loops.Loop) []Change {
	var out []Change
	for _, list := range loops.AmendLists {
		items, _ := h.ItemsOf(list)
		for _, it := range items {
			c := Change{Loop: h.Name, List: list, Op: OpAdd, Entry: it.Text, Line: it.Line}
			if isAllow(list) {
				c.Kind, c.Why = Widening, "a new loop's "+list+" entry"
			} else {
				c.Kind, c.Why = Narrowing, "a new loop's "+list+" entry"
			}
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = append(out, Change{Loop: h.Name, Op: OpLoopAdded, Kind: Narrowing, Why: "a new loop with no entries grants nothing"})
	}
	return out
}

// compareLoop diffs each list as a multiset of entry texts.
func compareLoop(b, h *loops.Loop) []Change {
	var out []Change
	for _, list := range loops.AmendLists {
		bi, _ := b.ItemsOf(list)
		hi, _ := h.ItemsOf(list)
		removed, added := multisetDiff(bi, hi)
		for _, it := range removed {
			c := Change{Loop: h.Name, List: list, Op: OpRemove, Entry: it.Text, Line: it.Line}
			if isAllow(list) {
				c.Kind, c.Why = Narrowing, "removed from "+list
			} else {
				c.Kind, c.Why = Widening, "removed from "+list+": it no longer holds anything back"
			}
			out = append(out, c)
		}
		for _, it := range added {
			c := Change{Loop: h.Name, List: list, Op: OpAdd, Entry: it.Text, Line: it.Line}
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
// aside). Any change to who may sign is a widening: it changes who can
// widen every warrant (docs/signing.md#the-warrant-diff).
func compareSigners(base, head []byte) []Change {
	lines := func(b []byte) []loops.Item {
		var out []loops.Item
		for i, l := range strings.Split(string(b), "\n") {
			t := strings.TrimSpace(l)
			if t != "" && !strings.HasPrefix(t, "#") {
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
