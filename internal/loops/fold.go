package loops

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Fold returns s in the form every comparison of the matcher uses: invisible
// characters removed, Unicode compatibility forms decomposed (NFKC, so
// full-width ｗｉｒｅ is wire), full case folding, look-alike letters mapped
// to Latin (see confusable), and whitespace runs collapsed to one space with
// none at either end.
//
// This is docs/loop-format.md#the-warrant's look-alike folding: targets and patterns are both
// folded before matching, so a hard stop written `wire funds` still denies
// `wіre funds` with a Cyrillic і, or `wi\u200bre funds` with a zero-width
// space. Folding only ever makes more strings equal, never fewer.
func Fold(s string) string {
	if isASCII(s) {
		if isFoldedASCII(s) {
			return s
		}
		return foldASCII(s)
	}
	// NFKD first so compatibility forms and precomposed letters are split
	// into base letter plus marks; the marks that only decorate Latin,
	// Greek and Cyrillic letters are then dropped (wíre is wire), and NFC
	// recomposes whatever marks other scripts need.
	// Look-alikes are mapped before NFKD too: NFKD rewrites some of them
	// first (the lunate sigma ϲ, a c look-alike, becomes final sigma ς,
	// which case-folds to σ, an o look-alike), so `ѕeϲrets` would not fold
	// to `secrets`.
	s = strings.Map(foldRune, s)
	s = norm.NFKD.String(s)
	s = strings.Map(foldRune, s)
	// Case folding can itself produce marks (İ folds to i + U+0307) and
	// Cyrillic or Greek lower-case forms, so map again afterwards. A Caser
	// is stateful, so each call makes its own rather than sharing one.
	s = cases.Fold().String(s)
	s = strings.Map(foldRune, s)
	s = norm.NFC.String(s)
	return collapseSpace(s)
}

// foldRune maps one rune for Fold: -1 drops it, a space stands for any
// whitespace, and look-alikes become their Latin letter.
func foldRune(r rune) rune {
	switch {
	case unicode.IsSpace(r):
		return ' '
	case isInvisible(r):
		return -1
	case r >= 0x300 && r <= 0x36f:
		// Combining Diacritical Marks: accents that turn wire into wíre
		// without changing how a reader parses it.
		return -1
	case r >= 0xab70 && r <= 0xabbf:
		// Cherokee folds to its capitals (CaseFolding.txt), but
		// x/text's Fold swaps small and capital, which would make Fold
		// not idempotent; map to the capitals here, on both sides of it.
		return r - 0xab70 + 0x13a0
	case r >= 0x13f8 && r <= 0x13fd:
		return r - 0x13f8 + 0x13f0
	}
	if c, ok := confusable(r); ok {
		return c
	}
	return r
}

// isInvisible reports whether r renders as nothing: format characters (Cf,
// which includes U+200B..U+200F, U+2060..U+2064, U+FEFF and the soft
// hyphen U+00AD), other default-ignorable code points such as the Hangul
// fillers, variation selectors, and control characters that are not
// whitespace. An agent can hide any of them inside a word.
func isInvisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Cc, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		r == utf8.RuneError
}

// foldASCII is Fold's fast path: for ASCII, NFKC is the identity and case
// folding is lower-casing, so only controls and whitespace need work.
func foldASCII(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || (c >= '\t' && c <= '\r'):
			space = b.Len() > 0
			continue
		case c < 0x20 || c == 0x7f:
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isFoldedASCII reports whether ASCII s is already what foldASCII would
// return, so the common case of a plain lower-case pattern costs no
// allocation.
func isFoldedASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			if i == 0 || i == len(s)-1 || s[i-1] == ' ' {
				return false
			}
		case c < 0x20 || c == 0x7f || (c >= 'A' && c <= 'Z'):
			return false
		}
	}
	return true
}

// collapseSpace trims s and replaces each run of spaces with one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
