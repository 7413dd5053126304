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
		"and", "or", "etc", "also", "just", "please",
		// the rest of docket's stopwords, so cautious matching folds at
		// least what docket's does
		"anyone", "without", "will", "even", "then", "other":
		return true
	}
	return false
}

// isStrictFiller reports whether w (folded) may stay uncovered when an allow
// entry is matched strictly (docs/loop-format.md#strict-filler-words): articles,
// plain prepositions, auxiliaries and joining words. It is a subset of
// docket's stopwords; pronouns, recipients, quantifiers, negations and
// direction words are not in it, because each of them limits what an allow
// entry permits (`daily summary to me` must not cover `… to the press`).
func isStrictFiller(w string) bool {
	switch w {
	case "a", "an", "the", "of", "for", "with", "on", "in", "at", "by", "about",
		"is", "are", "be", "will", "even", "or", "and", "then", "also":
		return true
	}
	return false
}

// isUniversal reports whether w (folded) means "everything": an allow
// alternative made of these and strict filler alone is the spec's
// `anything`, which covers every target.
func isUniversal(w string) bool {
	switch w {
	case "anything", "everything", "any", "all", "whatever":
		return true
	}
	return false
}

// isScopeWord reports whether w (folded) widens the audience or reach of a
// target: a target holding one that its allow alternative does not name is
// not covered (docs/loop-format.md#strict-filler-words). `… to everyone`, `… to the
// press` and `… to everyone at acme` are how an allowed target grows.
func isScopeWord(w string) bool {
	switch w {
	case "everyone", "everybody", "anyone", "anybody", "all", "every", "any", "each",
		"public", "publicly", "press", "media", "world", "worldwide",
		"everywhere", "external", "externally", "outside", "others", "else", "nobody":
		return true
	}
	return false
}

// isDirection reports whether w (folded) points the action at someone or
// somewhere: the word after it in a target names where the action goes,
// so that word must be one the allow alternative names.
func isDirection(w string) bool {
	switch w {
	case "to", "cc", "bcc", "into", "onto", "toward", "towards":
		return true
	}
	return false
}

// isWordRune reports whether r belongs inside a word: letters, digits and
// the combining marks some scripts need to spell words.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
}

// splitWords returns the words of folded text s as substrings of s (see
// nextWord).
func splitWords(s string) []string {
	var out []string
	for w, i := nextWord(s, 0); w != ""; w, i = nextWord(s, i) {
		out = append(out, w)
	}
	return out
}

// nextWord returns the first word of s at or after byte offset i and the
// offset just past it, or "" at the end. An apostrophe inside a word is
// kept (insurer's) so possessives can be stemmed; a trailing one
// (insurers') is not part of the word.
func nextWord(s string, i int) (string, int) {
	start := -1
	for i < len(s) {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
		case r == '\'' && start >= 0 && nextIsWord(s[i+1:]):
			// Inside a word: keep going.
		case start >= 0:
			return s[start:i], i
		}
		i += size
	}
	if start >= 0 {
		return s[start:], len(s)
	}
	return "", len(s)
}

func nextIsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

// StrictContentWords returns the words of Fold(s) that an allow entry
// keeps as limits: every word but the strict filler words.
func StrictContentWords(s string) []string {
	var out []string
	for _, w := range splitWords(Fold(s)) {
		if !isStrictFiller(w) {
			out = append(out, w)
		}
	}
	return out
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
	wa, wb := newWord(Fold(a)), newWord(Fold(b))
	return wa.same(&wb)
}

// minStem is how much of a word must remain after a suffix is removed for
// the remainder to count as a stem (spec: "when enough of the word
// remains"). Three keeps bus, gas, red and sing whole.
const minStem = 3

// stem is one candidate: the first n bytes of the word followed by an
// optional restored letter (quot+e, polic+y). Every candidate is a prefix
// of the word plus at most one letter, so it is stored as a length and the
// letter, which keeps a word small and allocation-free.
type stem struct {
	n   uint16
	add byte
}

// word is a folded content word with its stem candidates.
type word struct {
	text  string
	stems [7]stem
	k     uint8
	// at is the word's byte offset in its phrase's text (0 outside one).
	at int32
	// soft marks a word cautious matching skips (isFiller) but strict
	// matching keeps (a pronoun, a quantifier, a direction word).
	soft bool
}

func (w *word) add(base string, add byte) {
	if int(w.k) < len(w.stems) && len(base) <= 0xffff {
		w.stems[w.k] = stem{n: uint16(len(base)), add: add}
		w.k++
	}
}

// eqStem reports whether candidate a of word x equals candidate b of y.
func eqStem(x string, a stem, y string, b stem) bool {
	xa, ya := x[:a.n], y[:b.n]
	if a.add == b.add {
		return xa == ya
	}
	if a.add != 0 && b.add != 0 {
		return false
	}
	if a.add != 0 {
		xa, ya, a, b = ya, xa, b, a
	}
	// xa has no added letter: it must equal ya + b.add.
	n := len(ya)
	return len(xa) == n+1 && xa[n] == b.add && xa[:n] == ya
}

// newWord computes the candidate set of folded word t: t itself, t without
// a possessive 's, and t without -s, -es, -ed or -ing when at least minStem
// letters remain, with e-restoration (wiring → wire), y-restoration
// (policies → policy) and undoubling (shipped → ship).
func newWord(t string) word {
	w := word{text: t}
	w.add(t, 0)
	switch {
	case strings.HasSuffix(t, "'s"):
		t = t[:len(t)-2]
		w.add(t, 0)
	case strings.HasSuffix(t, "'"):
		t = t[:len(t)-1]
		w.add(t, 0)
	}
	switch {
	case strings.HasSuffix(t, "ies") && len(t)-3 >= minStem-1:
		w.add(t[:len(t)-3], 'y')
		w.add(t[:len(t)-1], 0)
	case strings.HasSuffix(t, "es") && len(t)-2 >= minStem:
		w.add(t[:len(t)-2], 0)
		w.add(t[:len(t)-1], 0)
	case strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "ss") && len(t)-1 >= minStem:
		w.add(t[:len(t)-1], 0)
	case strings.HasSuffix(t, "ied") && len(t)-3 >= minStem-1:
		w.add(t[:len(t)-3], 'y')
	case strings.HasSuffix(t, "ed") && len(t)-2 >= minStem:
		w.addVerbStem(t[:len(t)-2])
	case strings.HasSuffix(t, "ing") && len(t)-3 >= minStem:
		w.addVerbStem(t[:len(t)-3])
	case strings.HasSuffix(t, "ion") && len(t)-3 >= minStem:
		// suggestion ~ suggested, deletion ~ delete (docket's -ion stem).
		w.add(t[:len(t)-3], 0)
		w.add(t[:len(t)-3], 'e')
	}
	// suggestions ~ suggested: the -ion stem of a plural.
	if n := len(t) - 4; strings.HasSuffix(t, "ions") && n >= minStem {
		w.add(t[:n], 0)
		w.add(t[:n], 'e')
	}
	return w
}

// addVerbStem adds the stems left by -ed or -ing: the bare stem, the stem
// with its silent e restored, and the stem with a doubled final consonant
// undone.
func (w *word) addVerbStem(s string) {
	w.add(s, 0)
	w.add(s, 'e')
	if n := len(s); n-1 >= minStem && s[n-1] == s[n-2] && !strings.ContainsRune("aeiou", rune(s[n-1])) {
		w.add(s[:n-1], 0)
	}
}

// same reports whether the candidate sets of w and o intersect.
func (w *word) same(o *word) bool {
	if w.text == o.text {
		return true
	}
	// Every candidate keeps at least the word's first two bytes (the
	// shortest is a two-letter base plus a restored y), so words that
	// differ there cannot share one; this rejects most pairs cheaply.
	if len(w.text) < 2 || len(o.text) < 2 || w.text[:2] != o.text[:2] {
		return false
	}
	for i := 0; i < int(w.k); i++ {
		for j := 0; j < int(o.k); j++ {
			if eqStem(w.text, w.stems[i], o.text, o.stems[j]) {
				return true
			}
		}
	}
	return false
}

// phrase is a folded piece of text with its words.
type phrase struct {
	text string
	// strict are the words strict matching keeps (all but isStrictFiller),
	// in order; the ones not soft are the content words cautious matching
	// uses (isFiller).
	strict []word
	// ncontent counts the words of strict that are not soft.
	ncontent int
	// nwords counts all words, filler included.
	nwords int
	// universal is true when every strict word is a universal one
	// (isUniversal): `anything`, `all of the above`.
	universal bool
}

func (ar *arena) phrase(folded string) phrase {
	p := phrase{text: folded, universal: true}
	start := len(ar.words)
	for t, i := nextWord(folded, 0); t != ""; t, i = nextWord(folded, i) {
		p.nwords++
		if isStrictFiller(t) {
			continue
		}
		if ar.words == nil {
			ar.words = make([]word, 0, 64)
		}
		w := newWord(t)
		w.at = int32(i - len(t))
		w.soft = isFiller(t)
		if !w.soft {
			p.ncontent++
		}
		ar.words = append(ar.words, w)
		p.universal = p.universal && isUniversal(t)
	}
	// append copies the whole chunk when it grows, so this phrase's words
	// are contiguous here; earlier phrases keep the old, unchanged chunk.
	p.strict = ar.words[start:len(ar.words):len(ar.words)]
	return p
}

// allFiller reports whether p has words and every one is filler — the
// spec's `anything`, which matches every target in cautious mode.
func (p *phrase) allFiller() bool {
	return p.nwords > 0 && p.ncontent == 0
}

// strictAllFiller is allFiller for allow lists: p has words and each is
// strict filler or universal. `anything` qualifies; `them` and `to me` do
// not — a pronoun alone is a limit, not permission for everything.
func (p *phrase) strictAllFiller() bool {
	return p.nwords > 0 && p.universal
}

// wordsWithin reports whether every word of sub has a SameWord in super;
// with content set, only the words that are not soft count, on both sides
// (cautious matching). A sub with no word that counts is not within
// anything: an empty set matching vacuously would make a vague target
// match every entry.
func wordsWithin(sub, super []word, content bool) bool {
	n := 0
	for i := range sub {
		if content && sub[i].soft {
			continue
		}
		n++
		found := false
		for j := range super {
			if (!content || !super[j].soft) && sub[i].same(&super[j]) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return n > 0
}

// arena hands out word and alternative storage in chunks, so compiling a
// warrant for one Check costs a few allocations rather than several per
// entry. An arena lives for one call; nothing is shared between calls.
type arena struct {
	words []word
	alts  []alt
}

// altSlice returns n zeroed alternatives. Chunks are never grown in
// place, so slices handed out earlier stay valid.
func (ar *arena) altSlice(n int) []alt {
	l := len(ar.alts)
	if n > cap(ar.alts)-l {
		ar.alts, l = make([]alt, 0, max(32, n)), 0
	}
	ar.alts = ar.alts[:l+n]
	return ar.alts[l : l+n : l+n]
}
