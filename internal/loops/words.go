package loops

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds the word level of the matcher (spec, "Pattern matching"):
// splitting folded text into words, telling filler from content words, and
// light candidate-set stemming.

// isFiller reports whether w (folded) is a filler word: one that carries no
// intent of its own, so it neither makes nor breaks a match. Verbs and
// nouns never belong here — dropping them would let `send the letter`
// cover a pattern about reading it. A switch keeps the list immutable.
func isFiller(w string) bool {
	switch w {
	case "a", "an", "the", "any", "anything", "all", "some", "every",
		"everything", "something", "each", "both", "either", "whatever",
		"to", "of", "for", "in", "on", "at", "by", "with", "from", "into",
		"onto", "upon", "about", "via", "per", "as", "than",
		"my", "our", "your", "their", "its", "his", "her", "me", "us",
		"i", "we", "you", "he", "she", "they", "them", "him",
		"this", "that", "these", "those", "it",
		"is", "are", "be", "am", "was", "were", "been",
		"and", "or", "etc", "also", "just", "please":
		return true
	}
	return false
}

// isWordRune reports whether r belongs inside a word: letters, digits and
// the combining marks some scripts need to spell words.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
}

// splitWords returns the words of folded text s as substrings of s. An
// apostrophe inside a word is kept (insurer's) so possessives can be
// stemmed; a trailing one (insurers') is dropped.
func splitWords(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
		case r == '\'' && start >= 0 && nextIsWord(s[i+1:]):
			// Inside a word: keep going.
		default:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

func nextIsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

// ContentWords returns the content words of s: the words of Fold(s) that
// are not filler.
func ContentWords(s string) []string {
	var out []string
	for _, w := range splitWords(Fold(s)) {
		if !isFiller(w) {
			out = append(out, w)
		}
	}
	return out
}

// SameWord reports whether a and b are the same word under folding and
// light stemming: their candidate sets (see stems) intersect, so quotes ~
// quote, contacting ~ contact, wiring ~ wire, pushed ~ push.
func SameWord(a, b string) bool {
	return newWord(Fold(a)).same(newWord(Fold(b)))
}

// minStem is how much of a word must remain after a suffix is removed for
// the remainder to count as a stem (spec: "when enough of the word
// remains"). Three keeps bus, gas, red and sing whole.
const minStem = 3

// stem is one candidate: base followed by an optional restored letter
// (quot+e, polic+y). Keeping the letter apart avoids allocating.
type stem struct {
	base string
	add  byte
}

func (a stem) eq(b stem) bool {
	if a.add == b.add {
		return a.base == b.base
	}
	if a.add != 0 && b.add != 0 {
		return false
	}
	if a.add != 0 {
		a, b = b, a
	}
	// a has no added letter: it must equal b.base + b.add.
	n := len(b.base)
	return len(a.base) == n+1 && a.base[n] == b.add && a.base[:n] == b.base
}

// word is a folded content word with its stem candidates.
type word struct {
	text  string
	stems [8]stem
	n     int
}

func (w *word) add(s stem) {
	if w.n < len(w.stems) {
		w.stems[w.n] = s
		w.n++
	}
}

// newWord computes the candidate set of folded word t: t itself, t without
// a possessive 's, and t without -s, -es, -ed or -ing when at least minStem
// letters remain, with e-restoration (wiring → wire), y-restoration
// (policies → policy) and undoubling (shipped → ship).
func newWord(t string) word {
	w := word{text: t}
	w.add(stem{base: t})
	switch {
	case strings.HasSuffix(t, "'s"):
		t = t[:len(t)-2]
		w.add(stem{base: t})
	case strings.HasSuffix(t, "'"):
		t = t[:len(t)-1]
		w.add(stem{base: t})
	}
	switch {
	case strings.HasSuffix(t, "ies") && len(t)-3 >= minStem-1:
		w.add(stem{base: t[:len(t)-3], add: 'y'})
		w.add(stem{base: t[:len(t)-1]})
	case strings.HasSuffix(t, "es") && len(t)-2 >= minStem:
		w.add(stem{base: t[:len(t)-2]})
		w.add(stem{base: t[:len(t)-1]})
	case strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "ss") && len(t)-1 >= minStem:
		w.add(stem{base: t[:len(t)-1]})
	case strings.HasSuffix(t, "ied") && len(t)-3 >= minStem-1:
		w.add(stem{base: t[:len(t)-3], add: 'y'})
	case strings.HasSuffix(t, "ed") && len(t)-2 >= minStem:
		w.addVerbStem(t[:len(t)-2])
	case strings.HasSuffix(t, "ing") && len(t)-3 >= minStem:
		w.addVerbStem(t[:len(t)-3])
	}
	return w
}

// addVerbStem adds the stems left by -ed or -ing: the bare stem, the stem
// with its silent e restored, and the stem with a doubled final consonant
// undone.
func (w *word) addVerbStem(s string) {
	w.add(stem{base: s})
	w.add(stem{base: s, add: 'e'})
	if n := len(s); n-1 >= minStem && s[n-1] == s[n-2] && !strings.ContainsRune("aeiou", rune(s[n-1])) {
		w.add(stem{base: s[:n-1]})
	}
}

// same reports whether the candidate sets of w and o intersect.
func (w *word) same(o word) bool {
	for i := 0; i < w.n; i++ {
		for j := 0; j < o.n; j++ {
			if w.stems[i].eq(o.stems[j]) {
				return true
			}
		}
	}
	return false
}

// phrase is a folded piece of text with its content words.
type phrase struct {
	text  string
	words []word
	// nwords counts all words, filler included.
	nwords int
}

func newPhrase(folded string) phrase {
	p := phrase{text: folded}
	for _, t := range splitWords(folded) {
		p.nwords++
		if !isFiller(t) {
			p.words = append(p.words, newWord(t))
		}
	}
	return p
}

// allFiller reports whether p has words and every one is filler — the
// spec's `anything`, which matches every target.
func (p *phrase) allFiller() bool {
	return p.nwords > 0 && len(p.words) == 0
}

// wordsWithin reports whether every content word of sub has a SameWord in
// super. An empty sub is not within anything: an empty set matching
// vacuously would make a vague target match every entry.
func wordsWithin(sub, super []word) bool {
	if len(sub) == 0 {
		return false
	}
	for i := range sub {
		found := false
		for j := range super {
			if sub[i].same(super[j]) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
