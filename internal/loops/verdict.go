package loops

// Verdict is the answer of a warrant check.
type Verdict string

// The three verdicts.
const (
	Allow Verdict = "allow"
	Ask   Verdict = "ask"
	Deny  Verdict = "deny"
)

// ExitCode maps a verdict to the CLI exit status (spec: 0 allow, 2 ask, 3 deny).
func (v Verdict) ExitCode() int {
	switch v {
	case Allow:
		return 0
	case Deny:
		return 3
	}
	return 2
}

// Result is the outcome of a check: the verdict, a human reason, and the
// rule that decided it, e.g. "never: accepting or rejecting a settlement",
// "allow draft: appeal letter", "default: unlisted means ask",
// "partial: wire funds".
type Result struct {
	Verdict Verdict
	Reason  string
	Rule    string
	// List is the warrant list that decided ("never", "ask", "read", …), or
	// "default" / "partial".
	List string
	// Pattern is the list entry that matched, if any.
	Pattern string
	// Line is the loop-file line of Pattern, if any.
	Line int
	// From names the loop Pattern was inherited from (`extends`), whose
	// file Line is in; empty for the checked loop's own entries.
	From string
}
