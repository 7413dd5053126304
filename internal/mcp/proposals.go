package mcp

import (
	"context"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/agentkeys"
	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/metrics"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/proposals"
	"github.com/gitwarrant/gitwarrant/internal/record"
)

// Guard limits proposals per key; the HTTP server sets one, stdio does not.
type Guard interface {
	// BeforePropose refuses a proposal (proposal_rate, open_limit) or lets it through.
	BeforePropose(c Caller, open int) *Error
	// Proposed counts a stored proposal.
	Proposed(c Caller)
}

// ProposeIn is propose_amendment's input.
type ProposeIn struct {
	Loop      string `json:"loop"`
	List      string `json:"list" jsonschema:"read, draft, change, send, ask, never or reserved"`
	Op        string `json:"op,omitempty" jsonschema:"add (default) or remove"`
	Pattern   string `json:"pattern" jsonschema:"the warrant entry, e.g. Bash(go vet ./...) or a plain-language phrase"`
	Rationale string `json:"rationale,omitempty" jsonschema:"why the agent needs it: the human reads this"`
}

// ProposeOut names the stored proposal.
type ProposeOut struct {
	ID     string `json:"id" jsonschema:"pass it to get_proposal"`
	Seq    int64  `json:"seq"`
	Status string `json:"status"`
}

// ProposeAmendment stores a proposal entry. It changes no loop: only a
// person applies it, signed, with `gitwarrant review` or `amend`.
func (s *Service) ProposeAmendment(ctx context.Context, c Caller, in ProposeIn) (ProposeOut, error) {
	if c.Scope == agentkeys.ScopeRead {
		return ProposeOut{}, errorf("scope_read", "ask a person for a key with --scope propose", "this key may read and check but not propose")
	}
	if in.Op == "" {
		in.Op = "add"
	}
	p, e := s.project()
	if e != nil {
		return ProposeOut{}, e
	}
	l, e := s.loadLoop(p, in.Loop)
	if e != nil {
		return ProposeOut{}, e
	}
	entry, err := proposals.New(l.Name, in.List, in.Op, in.Pattern, in.Rationale, l.Digest)
	if err != nil {
		return ProposeOut{}, errorf("argument_invalid", "see the tool's input schema", "%v", err)
	}
	if s.guard != nil {
		ps, e := s.proposals(p)
		if e != nil {
			return ProposeOut{}, e
		}
		if e := s.guard.BeforePropose(c, proposals.OpenBy(ps, c.Credential)); e != nil {
			return ProposeOut{}, e
		}
	}
	entry.Via = c.Via
	entry.Extra["credential"] = c.Credential
	got, err := s.append(p, entry)
	if err != nil {
		return ProposeOut{}, err
	}
	if s.guard != nil {
		s.guard.Proposed(c)
	}
	return ProposeOut{ID: got.Hash, Seq: got.Seq, Status: proposals.Open}, nil
}

// ProposalIn names a proposal.
type ProposalIn struct {
	ID string `json:"id" jsonschema:"the id propose_amendment returned"`
}

// GetProposal returns a proposal and its status.
func (s *Service) GetProposal(ctx context.Context, _ Caller, in ProposalIn) (proposals.Proposal, error) {
	p, e := s.project()
	if e != nil {
		return proposals.Proposal{}, e
	}
	ps, e := s.proposals(p)
	if e != nil {
		return proposals.Proposal{}, e
	}
	id := strings.TrimSpace(in.ID)
	for _, x := range ps {
		if x.ID == id {
			return x, nil
		}
	}
	return proposals.Proposal{}, errorf("proposal_unknown", "use the id propose_amendment returned", "no proposal %q", in.ID)
}

func (s *Service) proposals(p *project.Project) ([]proposals.Proposal, *Error) {
	es, e := entries(p)
	if e != nil {
		return nil, e
	}
	return proposals.Derive(es, func(name string) string {
		l, err := s.b.Loops.LoadByName(p.LoopsDir(), name)
		if err != nil {
			return ""
		}
		return l.Digest
	}), nil
}

func entries(p *project.Project) ([]chain.Entry, *Error) {
	rec, err := record.Open(p)
	if err != nil {
		return nil, errorf("record_failed", "run `gitwarrant record verify` in the repository", "%v", err)
	}
	les, err := rec.Entries()
	if err != nil {
		return nil, errorf("record_failed", "run `gitwarrant record verify` in the repository", "%v", err)
	}
	out := make([]chain.Entry, len(les))
	for i, le := range les {
		out[i] = le.Entry
	}
	return out, nil
}

// MetricsIn narrows get_metrics.
type MetricsIn struct {
	Loop  string `json:"loop,omitempty" jsonschema:"only this loop"`
	Since string `json:"since,omitempty" jsonschema:"only entries at or after this RFC 3339 time"`
}

// GetMetrics reads the autonomy posture back from the record, as
// `gitwarrant metrics --json` does.
func (s *Service) GetMetrics(ctx context.Context, _ Caller, in MetricsIn) (metrics.Report, error) {
	p, e := s.project()
	if e != nil {
		return metrics.Report{}, e
	}
	rec, err := record.Open(p)
	if err != nil {
		return metrics.Report{}, errorf("record_failed", "run `gitwarrant record verify` in the repository", "%v", err)
	}
	// Streamed, as `gitwarrant metrics` reads it: only counters are kept.
	acc := metrics.New(metrics.Filter{Loop: in.Loop, Since: in.Since})
	err = rec.Log(record.LogFilter{}, 0, func(e record.LoggedEntry) error {
		acc.Add(&e.Entry)
		return ctx.Err()
	})
	if err != nil {
		return metrics.Report{}, errorf("record_failed", "run `gitwarrant record verify` in the repository", "%v", err)
	}
	return acc.Report(), nil
}
