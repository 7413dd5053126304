// Package proposals derives the state of agents' proposals from the record
// (docs/mcp.md#proposals). A proposal is a record entry that changes no
// loop; its status is read from later entries, never stored: an `amend`
// naming it applied it, a note with `rejects` naming it rejected it, and a
// loop file that changed since it was made makes it stale.
package proposals

import (
	"fmt"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// Statuses.
const (
	Open     = "open"
	Applied  = "applied"
	Rejected = "rejected"
	Stale    = "stale"
)

// Lists a proposal may name.
var Lists = []string{"read", "draft", "change", "send", "ask", "never", "reserved"}

// Proposal is one proposal with its derived status.
type Proposal struct {
	ID         string `json:"id"` // the entry's hash
	Loop       string `json:"loop"`
	List       string `json:"list"`
	Op         string `json:"op"`
	Pattern    string `json:"pattern"`
	Rationale  string `json:"rationale,omitempty"`
	LoopSHA256 string `json:"loop_sha256"`
	Via        string `json:"via,omitempty"`
	Credential string `json:"credential,omitempty"`
	TS         string `json:"ts"`
	Status     string `json:"status"`
	// By is the amend's signer or the rejection note's loop entry, when closed.
	ClosedBy string `json:"closed_by,omitempty"`
}

// New builds a proposal entry. It validates what an agent sends.
func New(loop, list, op, pattern, rationale, loopSHA256 string) (chain.Entry, error) {
	if !contains(Lists, list) {
		return chain.Entry{}, fmt.Errorf("list %q: must be one of %s", list, strings.Join(Lists, ", "))
	}
	if op != "add" && op != "remove" {
		return chain.Entry{}, fmt.Errorf("op %q: must be add or remove", op)
	}
	p := strings.TrimSpace(pattern)
	if p == "" || len(p) > 500 || strings.ContainsAny(p, "\n\r") {
		return chain.Entry{}, fmt.Errorf("pattern: one line of 1-500 characters")
	}
	if len(rationale) > 4000 {
		return chain.Entry{}, fmt.Errorf("rationale: at most 4000 characters")
	}
	return chain.Entry{Loop: loop, Kind: chain.KindProposal, Extra: map[string]any{
		"list": list, "op": op, "pattern": p, "rationale": rationale, "loop_sha256": loopSHA256,
	}}, nil
}

// Derive reads every proposal in entries (in record order) and its status.
// digest returns a loop file's current "sha256:<hex>", or "" when the loop
// is gone (which makes its open proposals stale).
func Derive(entries []chain.Entry, digest func(loop string) string) []Proposal {
	var out []Proposal
	index := map[string]int{}
	for _, e := range entries {
		switch e.Kind {
		case chain.KindProposal:
			p := Proposal{ID: e.Hash, Loop: e.Loop, List: str(e.Extra, "list"), Op: str(e.Extra, "op"),
				Pattern: str(e.Extra, "pattern"), Rationale: str(e.Extra, "rationale"),
				LoopSHA256: str(e.Extra, "loop_sha256"), Via: e.Via, Credential: str(e.Extra, "credential"),
				TS: e.TS, Status: Open}
			index[p.ID] = len(out)
			out = append(out, p)
		case chain.KindAmend:
			if i, ok := index[str(e.Extra, "proposal")]; ok && out[i].Status == Open {
				out[i].Status, out[i].ClosedBy = Applied, str(e.Extra, "signer")
			}
		case chain.KindNote:
			if i, ok := index[str(e.Extra, "rejects")]; ok && out[i].Status == Open {
				out[i].Status, out[i].ClosedBy = Rejected, e.Via
			}
		}
	}
	cache := map[string]string{}
	for i := range out {
		if out[i].Status != Open {
			continue
		}
		d, ok := cache[out[i].Loop]
		if !ok {
			d = digest(out[i].Loop)
			cache[out[i].Loop] = d
		}
		if d != out[i].LoopSHA256 {
			out[i].Status = Stale
		}
	}
	return out
}

// OpenBy counts the open proposals made with a credential.
func OpenBy(ps []Proposal, credential string) int {
	n := 0
	for _, p := range ps {
		if p.Status == Open && p.Credential == credential {
			n++
		}
	}
	return n
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
