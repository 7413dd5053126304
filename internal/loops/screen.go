package loops

// Screen decides a tool call against a warrant's ask and never entries
// (docs/threat-model.md#natural-language-entries-and-tool-calls). texts are
// the call's canonical forms — the unquoted argv of every clause with the
// comments gone — and the descriptions derived from it ("force push to
// main", "write to .github/workflows/ci.yml"). An entry matches a text when
// its phrase occurs in the text, or every content word of the entry
// appears in the text (after folding and light stemming), or it is all
// filler (`anything`), or its glob matches. The reverse direction that
// Check's cautious mode also accepts — the text's words all within the
// entry — is for targets a person or an agent describes in words; for a
// tool call it would let the one-word command `make` hit `make a payment`.
// Screen never allows: ok is false when no entry matched, and the caller
// then asks a typed entry (only typed entries allow a tool call).
func Screen(w *Warrant, texts []string) (Result, bool) {
	if w == nil {
		return Result{}, false
	}
	var ar arena
	subs := make([]subject, 0, len(texts))
	for _, t := range texts {
		if s := ar.target(t); !s.empty() {
			subs = append(subs, s)
		}
	}
	for _, l := range []struct {
		list []Item
		v    Verdict
		name string
		why  string
	}{
		{w.Never, Deny, "never", "matches a hard stop. Never happens, with or without approval."},
		{w.Ask, Ask, "ask", "matches the ask list — a human approves this every time."},
	} {
		for _, it := range l.list {
			e := ar.entry(it)
			for i := range subs {
				if e.hitsCall(&subs[i]) {
					return fromEntry(l.v, l.name, &e, l.why), true
				}
			}
		}
	}
	return Result{}, false
}

// hitsCall is hitsCautious in one direction only: the entry within the
// text (whole or a clause), never the text within the entry.
func (e *entry) hitsCall(s *subject) bool {
	for i := range e.alts {
		a := &e.alts[i]
		if a.withinCall(&s.whole) {
			return true
		}
		for j := range s.clauses {
			if c := &s.clauses[j]; c.ncontent > 0 && c.text != s.whole.text && a.withinCall(c) {
				return true
			}
		}
	}
	return false
}

func (a *alt) withinCall(p *phrase) bool {
	if a.allFiller() {
		return true
	}
	if p.text == "" {
		return false
	}
	if a.glob {
		return globMatch(a.text, p.text) || containsPhrase(p.text, a.text)
	}
	return containsPhrase(p.text, a.text) || wordsWithin(a.strict, p.strict, true)
}
