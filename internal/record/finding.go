package record

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// Finding is one problem verification found (docs/record.md#verification):
// where (a work-tree path or a ref, and the line in it), which entry, what
// kind of problem, and detail. Commands render findings as text or JSON.
type Finding struct {
	Path   string
	Line   int64 // 1-based; 0 when the problem is the whole file or ref
	Seq    int64 // the entry concerned; 0 when none
	Kind   string
	Detail string
}

// Kinds of finding beyond the chain's own break reasons (chain.Reason*).
const (
	KindRefGone    = "ref gone"         // a known writer's ref no longer exists
	KindDiffers    = "differs from ref" // a work-tree line is not the ref's
	KindBeyondRef  = "beyond ref"       // a work-tree file holds entries the ref does not
	KindModified   = "modified"         // a committed record file changed in the work tree
	KindDeleted    = "deleted"          // a committed record file is gone from the work tree
	KindStray      = "stray file"       // a file that is no segment in a writer's folder
	KindGap        = "missing entries"  // a chain's files skip entries
	KindUnreadable = "unreadable"
	KindPinMissing = "pinned head missing"
	KindReplay     = "replay differs"
)

// String is "path:line: kind at entry N (detail)".
func (f Finding) String() string {
	s := f.Path
	if f.Line > 0 {
		s += fmt.Sprintf(":%d", f.Line)
	}
	s += ": " + f.Kind
	if f.Seq > 0 {
		s += fmt.Sprintf(" at entry %d", f.Seq)
	}
	if f.Detail != "" {
		s += " (" + f.Detail + ")"
	}
	return s
}

// Refusal is the finding with what to do, for a refused commit.
func (f Finding) Refusal() string {
	switch f.Kind {
	case chain.ReasonTorn:
		return f.String() + " — an interrupted write; inspect the line, then run `gitwarrant record verify`"
	case KindRefGone:
		return f.String() + " — restore the ref from a remote (`gitwarrant record fetch`) or a backup; the record is never rebuilt from a file"
	}
	return f.String() + " — run `gitwarrant record restore` to bring the chain back to its ref (the old copy is saved aside), then commit again"
}

// breakFinding turns a chain break into a finding; lineBase is added to
// the break's line (a run of a chain read from the middle).
func breakFinding(path string, b *chain.Break, lineBase int64) Finding {
	return Finding{Path: path, Line: int64(b.Line) + lineBase, Seq: b.Seq, Kind: b.Reason, Detail: b.Detail}
}
