package loops

import (
	"strings"
	"unicode/utf8"
)

// This file holds the phrase level of the matcher (spec, "Pattern
// matching", and docs/loop-format.md#the-warrant): alternatives, clauses, globs, and the cautious
// and strict modes.

// Alternatives returns the alternatives of a warrant entry: Fold(pattern)
// split on commas and on the words `or` and `and`, so `secrets, tokens, or
// passwords` is three patterns. Pieces with no word in them (the `/` of
// `and/or` style slips) are dropped unless nothing else is left, in which
// case the whole folded pattern is the one alternative.
func Alternatives(pattern string) []string {
	return splitAlternatives(Fold(pattern))
}

func splitAlternatives(folded string) []string {
	if !strings.Contains(folded, ",") && !hasSepWord(folded, isAlternativeWord) {
		if folded == "" {
			return nil
		}
		return []string{folded}
	}
	var out []string
	for _, seg := range strings.Split(folded, ",") {
		out = appendWordSplit(out, seg, isAlternativeWord)
	}
	return keepWordy(out, folded)
}

func isAlternativeWord(f string) bool { return f == "or" || f == "and" }

func isClauseWord(f string) bool {
	return f == "or" || f == "and" || f == "then" || f == "plus" || f == "+"
}

// Clauses returns the clauses of a target (docs/loop-format.md#the-warrant): the target split on
// line breaks, `,` `;` `&&` `||` `|` and a lone `&`, and on the whole
// words and, or, then and plus and a lone `+`, each folded. Clauses with no word in them
// are dropped unless nothing else is left.
func Clauses(target string) []string {
	var out []string
	for _, line := range strings.FieldsFunc(target, isLineBreak) {
		out = append(out, splitClauses(Fold(line))...)
	}
	if len(out) == 0 {
		if f := Fold(target); f != "" {
			return []string{f}
		}
	}
	return out
}

func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// splitClauses splits one folded line into clauses.
func splitClauses(folded string) []string {
	if !strings.ContainsAny(folded, ",;|&`()") && !hasSepWord(folded, isClauseWord) {
		if folded == "" {
			return nil
		}
		return []string{folded}
	}
	var out []string
	for _, seg := range strings.FieldsFunc(folded, isClausePunct(folded)) {
		out = appendWordSplit(out, seg, isClauseWord)
	}
	return keepWordy(out, folded)
}

// isClausePunct returns the separator test for s. A lone & separates
// (`sleep 1 & rm -rf /` runs both) except between two word characters,
// where it is part of a name such as R&D.
func isClausePunct(s string) func(rune) bool {
	i, depth := 0, 0
	return func(r rune) bool {
		// FieldsFunc visits runes in order, so i tracks r's byte offset.
		at := i
		i += utf8.RuneLen(r)
		switch r {
		case ',', ';', '|':
			return true
		case '`':
			// Command substitution runs a second command inside the first:
			// it is a clause of its own.
			return true
		case '(':
			// $(…), <(…) and >(…) open a substitution; a plain parenthesis
			// in prose ("notes (second pass)") does not.
			prev, _ := utf8.DecodeLastRuneInString(s[:at])
			if prev == '$' || prev == '<' || prev == '>' {
				depth++
				return true
			}
		case ')':
			if depth > 0 {
				depth--
				return true
			}
		case '&':
			prev, _ := utf8.DecodeLastRuneInString(s[:at])
			next, _ := utf8.DecodeRuneInString(s[i:])
			return !(isWordRune(prev) && isWordRune(next))
		}
		return false
	}
}

// hasSepWord reports whether a space-separated field of s satisfies isSep,
// without allocating.
func hasSepWord(s string, isSep func(string) bool) bool {
	for s != "" {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			return isSep(s)
		}
		if isSep(s[:i]) {
			return true
		}
		s = s[i+1:]
	}
	return false
}

// appendWordSplit splits seg on space-separated fields for which isSep
// holds, appending the trimmed, non-empty pieces to out.
func appendWordSplit(out []string, seg string, isSep func(string) bool) []string {
	fields := strings.Fields(seg)
	start := 0
	for i, f := range fields {
		if isSep(f) {
			if i > start {
				out = append(out, strings.Join(fields[start:i], " "))
			}
			start = i + 1
		}
	}
	if start < len(fields) {
		out = append(out, strings.Join(fields[start:], " "))
	}
	return out
}

// keepWordy drops pieces without a word character; if none remain it
// returns whole (when non-empty) so an entry never vanishes entirely.
func keepWordy(pieces []string, whole string) []string {
	out := pieces[:0]
	for _, p := range pieces {
		if strings.IndexFunc(p, isWordRune) >= 0 {
			out = append(out, p)
		}
	}
	if len(out) == 0 && whole != "" {
		return []string{whole}
	}
	return out
}

// containsPhrase reports whether needle occurs in hay (both folded) with
// word boundaries at each end that is a word character, so `rm` is not
// found in `format` but `-rf` is found in `rm -rf`.
func containsPhrase(hay, needle string) bool {
	if needle == "" {
		return false
	}
	first, _ := utf8.DecodeRuneInString(needle)
	last, _ := utf8.DecodeLastRuneInString(needle)
	for off := 0; off <= len(hay)-len(needle); {
		i := strings.Index(hay[off:], needle)
		if i < 0 {
			return false
		}
		i += off
		before, _ := utf8.DecodeLastRuneInString(hay[:i])
		after, _ := utf8.DecodeRuneInString(hay[i+len(needle):])
		if (i == 0 || !isWordRune(first) || !isWordRune(before)) &&
			(i+len(needle) == len(hay) || !isWordRune(last) || !isWordRune(after)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(hay[i:])
		off = i + size
	}
	return false
}

// globMatch reports whether folded pattern, in which `*` matches any run
// of characters (spaces included) and everything else is literal, matches
// all of folded s. It backtracks only to the last star, so it runs in
// O(len(pattern)·len(s)).
func globMatch(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// alt is one compiled alternative of a warrant entry.
type alt struct {
	phrase
	glob bool
	// compound is true when the alternative may itself hold several
	// clauses (see coversAsSequence).
	compound bool
}

func (ar *arena) alt(folded string) alt {
	return alt{phrase: ar.phrase(folded), glob: strings.Contains(folded, "*"),
		compound: strings.ContainsAny(folded, ";|&") ||
			strings.Contains(folded, " then ") || strings.Contains(folded, " plus ")}
}

// entry is one compiled warrant list item.
type entry struct {
	item Item
	alts []alt
	// single is true when the entry has one alternative; only then does an
	// all-filler alternative match everything in strict mode.
	single bool
}

func (ar *arena) entry(it Item) entry {
	texts := splitAlternatives(Fold(it.Text))
	e := entry{item: it, alts: ar.altSlice(len(texts)), single: len(texts) == 1}
	for i, t := range texts {
		e.alts[i] = ar.alt(t)
	}
	return e
}

// subject is a compiled target: the whole folded text plus its clauses.
type subject struct {
	whole   phrase
	clauses []phrase
}

func (ar *arena) target(target string) subject {
	folded := Fold(target)
	s := subject{whole: ar.phrase(folded)}
	var clauses []string
	if strings.IndexFunc(target, isLineBreak) < 0 {
		clauses = splitClauses(folded) // one line: no need to fold again
	} else {
		clauses = Clauses(target)
	}
	for _, c := range clauses {
		s.clauses = append(s.clauses, ar.phrase(c))
	}
	return s
}

// empty reports whether nothing is left of the target after folding.
func (s *subject) empty() bool { return s.whole.text == "" }

// cautious reports whether a matches p in cautious mode (ask, never):
// substring or content-word subset in either direction. Ambiguity
// escalates to the human, so this errs toward matching.
func (a *alt) cautious(p *phrase) bool {
	if a.allFiller() {
		return true
	}
	if p.text == "" {
		return false
	}
	if a.glob {
		// Author-explicit glob over the whole text; its literal text still
		// counts as a phrase, so `rm -rf *` catches a target saying so.
		return globMatch(a.text, p.text) || containsPhrase(p.text, a.text)
	}
	return containsPhrase(p.text, a.text) || containsPhrase(a.text, p.text) ||
		wordsWithin(a.strict, p.strict, true) || wordsWithin(p.strict, a.strict, true)
}

// covers reports whether p covers a in strict mode (allow lists): p
// contains a as a phrase or contains every strict word of a (only strict
// filler may stay uncovered), and p reaches no wider than a (see widens).
// The reverse never allows: `email` does not cover `status email to the
// team`.
func (a *alt) covers(p *phrase) bool {
	if p.text == "" {
		return false
	}
	if a.glob {
		return globMatch(a.text, p.text)
	}
	return (containsPhrase(p.text, a.text) || wordsWithin(a.strict, p.strict, false) || recipientMoved(a.strict, p)) &&
		!a.widens(p)
}

// recipientMoved reports a target that names the alternative's recipient
// in another position, with no direction word of its own: `team status
// email` for `status email to the team`. Every word of the alternative is
// in the target but its direction words, and the word after each of those
// is there; the target holds no preposition at all (`push from the
// feature branch` reverses `push to the feature branch`).
func recipientMoved(sub []word, p *phrase) bool {
	super := p.strict
	for w, i := nextWord(p.text, 0); w != ""; w, i = nextWord(p.text, i) {
		if isDirection(w) || endsRecipient(w) {
			return false
		}
		switch w {
		case "for", "of", "in", "on", "at", "by", "about", "with", "without", "out", "off", "away", "against",
			"over", "under", "through", "behind", "past", "within", "across", "beyond", "except", "but", "not", "no":
			return false
		}
	}
	var rest []word
	moved := false
	for i := range sub {
		if !isDirection(sub[i].text) {
			rest = append(rest, sub[i])
			continue
		}
		if i == 0 || i+1 == len(sub) || !before(super, &sub[i+1], &sub[0]) {
			return false
		}
		moved = true
	}
	// every word of the entry but its direction words has a word of its
	// own in the target (`finance team` does not cover `team to the
	// finance team`)
	return moved && len(rest) > 0 && len(super) >= len(rest) && wordsWithin(rest, super, false)
}

// before reports whether word a stands in ws before word b: the recipient
// moved in front of what is sent (`team status email`), not merely left
// behind without its `to` (`status email team` stays vague).
func before(ws []word, a, b *word) bool {
	ia, ib := -1, -1
	for i := range ws {
		if ia < 0 && ws[i].same(a) {
			ia = i
		}
		if ib < 0 && ws[i].same(b) {
			ib = i
		}
	}
	return ia >= 0 && ib >= 0 && ia < ib
}

// versionAt reports a version number starting at strict word w of text
// (`2.0`, `1.2.3`, `v2`): after `to` it is where a value goes, not a
// recipient (`bump the version file to 2.0`).
func versionAt(text string, w *word) bool {
	t := w.text
	if strings.HasPrefix(t, "v") && len(t) > 1 {
		t = t[1:]
	}
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	end := int(w.at) + len(w.text)
	if w.text[0] == 'v' {
		return true
	}
	return end+1 < len(text) && text[end] == '.' && text[end+1] >= '0' && text[end+1] <= '9'
}

// widens reports whether target p reaches further than alternative a
// (docs/loop-format.md#strict-filler-words): p holds a scope word (everyone, the
// press, the public) that a does not, or a direction word (to, cc, into)
// whose recipient names none of a's words (scope words aside), or joins a
// recipient a does not name to one it does with `/`. The recipient runs
// to the next direction word, preposition, relative word or `(`. Extra
// words of other kinds (`for claim 4411`) only say which instance is meant
// and are allowed.
func (a *alt) widens(p *phrase) bool {
	for i := range p.strict {
		w := &p.strict[i]
		if isScopeWord(w.text) && !hasWord(a.strict, w) {
			return true
		}
		if !isDirection(w.text) || i+1 == len(p.strict) || versionAt(p.text, &p.strict[i+1]) {
			continue
		}
		named, prevNamed := false, false
		for j := i + 1; j < len(p.strict); j++ {
			r, prev := &p.strict[j], &p.strict[j-1]
			gap := p.text[int(prev.at)+len(prev.text) : r.at]
			if isDirection(r.text) || endsRecipient(r.text) || gapEndsRecipient(gap) {
				break
			}
			if isScopeWord(r.text) {
				continue
			}
			ok := hasWord(a.strict, r)
			if !ok && prevNamed && strings.ContainsRune(gap, '/') {
				// `to me/the board`: a second recipient after the named
				// one (a name such as `fix/nil-deref` is not split).
				return true
			}
			named, prevNamed = named || ok, ok
		}
		if !named {
			return true
		}
	}
	return false
}

// endsRecipient reports whether strict word w ends a recipient: a
// preposition or a word that starts a clause of its own.
func endsRecipient(w string) bool {
	switch w {
	case "from", "via", "as", "than", "per", "upon", "that", "which", "who", "where", "when", "because":
		return true
	}
	return false
}

// gapEndsRecipient reports whether the text between two strict words ends a
// recipient: a preposition the strict filler skips (`… to the team for
// claim 4411`), or an opening parenthesis.
func gapEndsRecipient(gap string) bool {
	if strings.ContainsRune(gap, '(') {
		return true
	}
	for w, i := nextWord(gap, 0); w != ""; w, i = nextWord(gap, i) {
		switch w {
		case "for", "of", "in", "on", "at", "by", "about", "with":
			return true
		}
	}
	return false
}

// hasWord reports whether some word of ws is the same word as w.
func hasWord(ws []word, w *word) bool {
	for i := range ws {
		if ws[i].same(w) {
			return true
		}
	}
	return false
}

// hitsCautious reports whether e matches s in cautious mode against the
// whole target or any clause with content words (docs/loop-format.md#the-warrant: any hit
// decides).
func (e *entry) hitsCautious(s *subject) bool {
	for i := range e.alts {
		a := &e.alts[i]
		if a.cautious(&s.whole) {
			return true
		}
		for j := range s.clauses {
			// A clause without content words ("it") would match too much;
			// one equal to the whole target was tried already.
			if c := &s.clauses[j]; c.ncontent > 0 && c.text != s.whole.text && a.cautious(c) {
				return true
			}
		}
	}
	return false
}

// MatchCautious reports whether the warrant entry pattern matches target
// the way ask and never entries do: some alternative matches the whole
// target or one of its clauses by substring or content-word subset in
// either direction, by glob, or because it is all filler.
func MatchCautious(pattern, target string) bool {
	var ar arena
	e := ar.entry(Item{Text: pattern})
	s := ar.target(target)
	return e.hitsCautious(&s)
}

// MatchStrict reports whether the allow entry pattern alone covers target:
// every clause of the target that has content words is covered by one of
// the pattern's alternatives (see allowCover). An empty target is never
// covered.
func MatchStrict(pattern, target string) bool {
	var ar arena
	s := ar.target(target)
	if s.empty() {
		return false
	}
	es := []entry{ar.entry(Item{Text: pattern})}
	_, uncovered, _ := allowCover(&ar, es, &s)
	return uncovered == ""
}
