package record

import (
	"fmt"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Replayed is one check entry recomputed against the loop as it was
// (docs/loop-format.md#the-warrant: each check stores its loop's Git blob id and engine version).
type Replayed struct {
	Chain    string
	Seq      int64
	Loop     string
	Recorded string // verdict on the record
	Now      string // verdict recomputed now; "" when it could not be
	Rule     string // rule that decides now
	// Problem is set when the entry could not be replayed (blob not in
	// Git, loop no longer parses, unknown action).
	Problem string
	// EngineChanged is true when the entry was decided by another engine
	// version; a differing verdict may then be a rule change, not tampering.
	EngineChanged bool
}

// Differs reports a replayed verdict that differs from the recorded one.
func (x Replayed) Differs() bool { return x.Now != "" && x.Now != x.Recorded }

// Replay recomputes every check entry that names a loop blob. Entries
// without one (docket's) are not returned.
func (r *Record) Replay() ([]Replayed, error) {
	if r.repo == nil {
		return nil, fmt.Errorf("%s is not in a Git repository: --replay reads past loop files from Git objects", r.p.Dir)
	}
	entries, err := r.Entries()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if id, ok := blobID(e.Entry); ok {
			ids = append(ids, id)
		}
	}
	blobs, err := r.repo.ReadBlobs(ids)
	if err != nil {
		return nil, err
	}
	var out []Replayed
	for _, e := range entries {
		if id, ok := blobID(e.Entry); ok {
			out = append(out, replayOne(e, blobs[id]))
		}
	}
	return out, nil
}

func blobID(e chain.Entry) (string, bool) {
	if e.Kind != chain.KindCheck {
		return "", false
	}
	id, ok := strings.CutPrefix(e.LoopBlob, "git:")
	return id, ok && len(id) == 40
}

func replayOne(e LoggedEntry, data []byte) Replayed {
	x := Replayed{Chain: e.Chain, Seq: e.Seq, Loop: e.Loop, Recorded: e.Verdict, EngineChanged: e.Engine != loops.EngineVersion}
	if data == nil {
		x.Problem = fmt.Sprintf("loop blob %s is not in Git (the loop was never committed as it was then)", e.LoopBlob)
		return x
	}
	l, err := loops.Parse(e.Loop+".loop.md", data)
	if err != nil {
		x.Problem = "the loop as it was no longer parses: " + err.Error()
		return x
	}
	if l.Extends.Text != "" {
		// The record pins the child's blob only, not its parent's as it was.
		x.Problem = fmt.Sprintf("the loop extends %s, whose content then is not pinned in the entry: not replayed", l.Extends.Text)
		return x
	}
	verb, err := loops.ParseVerb(e.Action)
	if err != nil {
		x.Problem = err.Error()
		return x
	}
	res := loops.Check(&l.Warrant, verb, e.Target)
	x.Now, x.Rule = string(res.Verdict), res.Rule
	return x
}
