package loops

import "testing"

// TestAllowEntriesKeepTheirLimits holds the examples: a pronoun,
// recipient, quantifier, negation or direction word in an allow entry is a
// limit (docs/loop-format.md#strict-filler-words), and a target that drops,
// swaps or widens it is never allowed by that entry.
func TestAllowEntriesKeepTheirLimits(t *testing.T) {
	tests := []struct {
		entry, target string
		allow         bool
	}{
		{"daily summary to me", "daily summary to me", true},
		{"daily summary to me", "send the daily summary to me for Monday", true},
		{"daily summary to me", "daily summary to the press", false},
		{"daily summary to me", "daily summary to the whole company", false},
		{"daily summary to me", "daily summary to everyone at acme", false},
		{"daily summary to me", "daily summary to me to everyone", false},
		{"daily summary to me", "daily summary to me, the press", false},
		{"daily summary to me", "daily summary to me and them", false},
		{"daily summary to me", "daily summary to me cc the board", false},
		{"daily summary to me", "daily summary to me + investors", false},
		{"daily summary to me", "daily summary to me & investors", false},
		{"c++ notes", "c++ notes", true},
		{"daily summary to me", "daily summary to me/the board", false},
		{"daily summary to me", "daily summary to me / investors", false},
		{"daily summary to me", "daily summary to me for the board meeting", true},
		{"push to the feature branch", "push to the feature branch on branch fix/parser-nil", true},
		{"docs/guide.md", "append a line to docs/guide.md", true},
		{"status email to the team", "status email to the team (second pass)", true},
		{"status email to the team", "status email to the team that Sam mentioned", true},
		{"status email to the team", "status email to the team/the board", false},
		{"push to the feature branch", "push to the feature branch fix/nil-deref", true},
		{"daily summary to me", "daily summary", false},
		{"invoices to them", "invoices to every customer", false},
		{"invoices to them", "invoices to them", true},
		{"the fix, as a diff or patch", "diff", false},
		{"the fix, as a diff or patch", "the fix as a diff", true},
		{"my notes", "your notes", false},
		{"this branch", "that branch", false},
		{"report without attachments", "report with attachments", false},
		{"meeting notes", "meeting notes to the press", false},
		{"meeting notes", "meeting notes for the Acme account", true},
		{"status email to the team", "send the weekly status email to the whole team", true},
		{"status email to the team", "status email to everyone on the team", false},
		{"push to the feature branch", "push to the feature branch", true},
		{"push to the feature branch", "push from the feature branch", false},
		{"changelog", "append a line to the changelog for v1.4.2", true},
		{"them", "delete the database", false},
		{"to me", "wire funds", false},
		{"anything", "wire funds", true},
		{"suggested owner and priority", "owner suggestion", true},
		{"suggested owner and priority", "owner suggestions", true},
		// issue 24: a version after `to` is a value, not a recipient; a
		// recipient named in another position is the same recipient
		{"bump the version file", "bump the version file to 2.0", true},
		{"bump the version file", "bump the version file to v3", true},
		{"bump the version file", "bump the version file to the press", false},
		{"send the report", "send the report to 5551234", false},
		{"status email to the team", "team status email", true},
		{"status email to the team", "press status email", false},
		{"status email to the team", "team status email to the press", false},
		{"status email to the team", "team status email for everyone", false},
		{"status email to the team", "status email", false},
		{"status email to the team", "status email team", false},
		{"push to the feature branch", "push feature branch", false},
		{"to notes", "notes review", false},
		{"team to the finance team", "finance team", false},
	}
	for _, tt := range tests {
		if got := MatchStrict(tt.entry, tt.target); got != tt.allow {
			t.Errorf("MatchStrict(%q, %q) = %v, want %v", tt.entry, tt.target, got, tt.allow)
		}
	}
}

// TestCautiousStillFolds: ask and never keep folding pronouns and
// quantifiers, so a rewrite can only escalate.
func TestCautiousStillFolds(t *testing.T) {
	for _, tt := range []struct{ entry, target string }{
		{"sending anything to anyone", "send the report to them"},
		{"deletion of backups", "delete the backups"},
		{"wire funds", "wire all the funds to us"},
	} {
		if !MatchCautious(tt.entry, tt.target) {
			t.Errorf("MatchCautious(%q, %q) = false, want true", tt.entry, tt.target)
		}
	}
}

func TestIonStem(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"suggestion", "suggested", true},
		{"suggestions", "suggest", true},
		{"deletion", "delete", true},
		{"creation", "created", true},
		{"completion", "complete", true},
		{"lion", "lied", false},
		{"union", "unit", false},
	} {
		if got := SameWord(tt.a, tt.b); got != tt.want {
			t.Errorf("SameWord(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
