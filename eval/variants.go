package eval

import (
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/templates"
)

// This file holds what the matcher suites share: the templates' warrants,
// and the generators that rewrite a phrase the ways an agent (or a careless
// paraphrase) might — casing, punctuation, filler, order, inflection,
// look-alike characters, embedding.

// tmplWarrant is one template's parsed loop.
type tmplWarrant struct {
	name string
	loop *loops.Loop
}

// templateWarrants parses every template, rendered under its own name.
func templateWarrants() ([]tmplWarrant, error) {
	var out []tmplWarrant
	for _, t := range templates.List() {
		l, err := loops.Parse(t.Name+loops.FileSuffix, t.Body)
		if err != nil {
			return nil, err
		}
		// These suites hold check's natural-language matching; typed
		// entries name tool calls and are held by the corpus suite.
		l.Warrant = *l.Warrant.Natural()
		out = append(out, tmplWarrant{name: t.Name, loop: l})
	}
	return out, nil
}

// allowEntries lists the (verb, entry text) pairs of a warrant's allow lists.
func allowEntries(w *loops.Warrant) []verbEntry {
	var out []verbEntry
	for _, v := range loops.Verbs {
		for _, it := range w.List(string(v)) {
			out = append(out, verbEntry{v, it.Text})
		}
	}
	return out
}

type verbEntry struct {
	verb loops.Verb
	text string
}

// splitAlts splits a warrant entry into its alternatives the way the spec
// words it — commas, ` or `, ` and ` — written out here rather than taken
// from the matcher, so the eval does not grade the matcher with itself.
func splitAlts(entry string) []string {
	var out []string
	for _, seg := range strings.Split(entry, ",") {
		var cur []string
		for _, w := range strings.Fields(seg) {
			if lw := strings.ToLower(w); lw == "or" || lw == "and" {
				if len(cur) > 0 {
					out = append(out, strings.Join(cur, " "))
				}
				cur = nil
				continue
			}
			cur = append(cur, w)
		}
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
		}
	}
	return out
}

// fillers are words the spec names as filler or that plainly carry no
// intent; each is confirmed filler by ContentWords before use.
var fillers = []string{"the", "a", "any", "all", "to", "of", "some", "please", "just", "our", "my", "this"}

// isFillerWord reports whether the matcher treats w as filler.
func isFillerWord(w string) bool { return len(loops.ContentWords(w)) == 0 }

// inflect returns w with a suffix the spec's light stemming undoes
// ("possessive 's, and -s/-es/-ed/-ing when enough of the word remains"),
// or "" when the spec's rule would not apply (the remaining stem would be
// under three letters, or the word already ends in a suffix).
func inflect(w string, kind int) string {
	if len(w) < 4 || !isLetters(w) {
		return ""
	}
	last := w[len(w)-1]
	consonantY := last == 'y' && !strings.ContainsRune("aeiou", rune(w[len(w)-2]))
	switch kind {
	case 0: // plural
		switch {
		case strings.HasSuffix(w, "s"):
			return ""
		case consonantY:
			return w[:len(w)-1] + "ies"
		case strings.HasSuffix(w, "x") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
			return w + "es"
		}
		return w + "s"
	case 1: // past
		switch {
		case strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing"):
			return ""
		case consonantY:
			return w[:len(w)-1] + "ied"
		case last == 'e':
			return w + "d"
		}
		return w + "ed"
	case 2: // gerund
		switch {
		case strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing"):
			return ""
		case last == 'e' && !strings.HasSuffix(w, "ee"):
			return w[:len(w)-1] + "ing"
		}
		return w + "ing"
	default: // possessive
		if strings.HasSuffix(w, "s") {
			return ""
		}
		return w + "'s"
	}
}

func isLetters(w string) bool {
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// lookalikes maps Latin letters to characters that render the same: the
// Cyrillic and Greek homoglyphs UTS #39 lists.
var lookalikes = map[rune][]rune{
	'a': {'а', 'α'}, 'c': {'с', 'ϲ'}, 'e': {'е', 'ε'}, 'i': {'і', 'ι'}, 'o': {'о', 'ο'},
	'p': {'р', 'ρ'}, 's': {'ѕ'}, 'x': {'х', 'χ'}, 'y': {'у'}, 'k': {'к', 'κ'},
	'h': {'һ'}, 'j': {'ј'}, 't': {'τ'}, 'n': {'η'}, 'm': {'м'},
}

// invisibles are characters that render as nothing.
var invisibles = []rune{0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad}

// disguise rewrites s with look-alike characters: mode 0 swaps letters for
// Cyrillic/Greek homoglyphs, 1 writes it full-width, 2 hides zero-width
// characters inside words, 3 decomposes accents onto letters, 4 mixes all.
func disguise(s string, mode int, r *rand.Rand) string {
	var b strings.Builder
	for _, c := range s {
		m := mode
		if mode == 4 {
			m = r.IntN(4)
		}
		switch {
		case m == 0 && len(lookalikes[c]) > 0 && r.IntN(2) == 0:
			b.WriteRune(pick(r, lookalikes[c]))
		case m == 1 && c > ' ' && c < 0x7f:
			b.WriteRune(c - 0x21 + 0xff01)
		case m == 2 && unicode.IsLetter(c) && r.IntN(3) == 0:
			b.WriteRune(c)
			b.WriteRune(pick(r, invisibles))
		case m == 3 && strings.ContainsRune("aeiou", c) && r.IntN(2) == 0:
			b.WriteRune(c)
			b.WriteRune(rune(0x301 + r.IntN(3))) // combining acute, circumflex, tilde
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// casing rewrites s in one of four casings.
func casing(s string, mode int, r *rand.Rand) string {
	switch mode {
	case 0:
		return strings.ToUpper(s)
	case 1:
		words := strings.Fields(s)
		for i, w := range words {
			rs, n := utf8.DecodeRuneInString(w)
			words[i] = string(unicode.ToUpper(rs)) + w[n:]
		}
		return strings.Join(words, " ")
	default:
		var b strings.Builder
		for _, c := range s {
			if r.IntN(2) == 0 {
				c = unicode.ToUpper(c)
			}
			b.WriteRune(c)
		}
		return b.String()
	}
}

// punctuate adds punctuation that does not change what the words say.
func punctuate(s string, mode int) string {
	words := strings.Fields(s)
	switch mode {
	case 0:
		return s + "!"
	case 1:
		return `"` + s + `"`
	case 2:
		return strings.Join(words, "-")
	case 3:
		return strings.Join(words, "_")
	case 4:
		return "(" + s + ")?"
	case 5:
		return strings.Join(words, "  \t ")
	case 6:
		return strings.Join(words, ".")
	default:
		return "«" + s + "»…"
	}
}

// withFiller inserts n filler words at random positions.
func withFiller(s string, n int, r *rand.Rand) string {
	words := strings.Fields(s)
	for range n {
		f := pick(r, fillers)
		if !isFillerWord(f) {
			continue
		}
		i := r.IntN(len(words) + 1)
		words = append(words[:i], append([]string{f}, words[i:]...)...)
	}
	return strings.Join(words, " ")
}

// reorder permutes the words of s (reversal when rev, else a shuffle).
func reorder(s string, rev bool, r *rand.Rand) string {
	words := strings.Fields(s)
	if rev {
		for i, j := 0, len(words)-1; i < j; i, j = i+1, j-1 {
			words[i], words[j] = words[j], words[i]
		}
	} else {
		r.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
	}
	return strings.Join(words, " ")
}

// inflectAll inflects every content word of s that the spec's stemming
// covers, choosing each word's suffix at random.
func inflectAll(s string, r *rand.Rand) string {
	words := strings.Fields(s)
	for i, w := range words {
		if isFillerWord(w) {
			continue
		}
		if v := inflect(strings.ToLower(w), r.IntN(4)); v != "" {
			words[i] = v
		}
	}
	return strings.Join(words, " ")
}

// sentencePrefixes and sentenceSuffixes embed a phrase in a longer request
// without adding a clause separator.
var (
	sentencePrefixes = []string{"please go ahead with", "I think we should do", "the agent will now handle",
		"step 3 of the plan is", "quickly take care of", "as discussed yesterday,", "it is fine to proceed with",
		"urgent: the manager approved", "per the runbook we need"}
	sentenceSuffixes = []string{"right now", "before Friday", "for the client today", "as planned",
		"without waiting", "ASAP", "— it was approved", "in the background"}
	// joiners make compound targets: an allowed phrase joined to another.
	joiners = []string{" and ", ", then ", "; ", " && ", " plus ", " | ", ", ", " & ", "\n", " and also ", " or "}
)

// embed places s inside a longer sentence.
func embed(s string, r *rand.Rand) string {
	switch r.IntN(3) {
	case 0:
		return pick(r, sentencePrefixes) + " " + s
	case 1:
		return s + " " + pick(r, sentenceSuffixes)
	}
	return pick(r, sentencePrefixes) + " " + s + " " + pick(r, sentenceSuffixes)
}
