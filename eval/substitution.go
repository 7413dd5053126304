package eval

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

const (
	subSeedOne = 0x5b57_1707_0000_0008
	subSeedTwo = 0x5eed_5b57_1707_0008
	// subGenerated is how many allow entries the generated corpus holds.
	subGenerated = 400
	// subMaxProbeWords bounds the vague-target probes: an alternative with
	// more words than this gets only its single words and leave-one-out
	// subsets (docket's own probe set), not every proper subset.
	subMaxProbeWords = 8
)

// Word classes an allow entry's limit is written in. Replacing a word of
// one class with another of the same class changes what the entry permits
// (docs/loop-format.md#strict-filler-words), so the result must never be
// ALLOW under that entry alone.
var (
	subPronouns = []string{"me", "us", "you", "them", "him", "her", "it", "my", "your", "our",
		"their", "his", "its", "this", "that", "these", "those"}
	subQuantifiers = []string{"all", "every", "each", "some", "any", "no", "none", "both",
		"either", "other", "another", "several", "many", "most", "only"}
	subDirections = []string{"to", "from", "into", "onto", "toward", "cc", "bcc", "via"}
	subNegations  = []string{"not", "no", "without", "never", "except", "unless"}
	// subRecipients are wider audiences, put in place of a pronoun or a
	// recipient, or appended to an entry.
	subRecipients = []string{"everyone", "everybody", "anyone", "the press", "the board",
		"the public", "the whole company", "all customers", "every customer", "everyone at acme", "other people"}
	// subContent replaces a content word: words that share nothing with
	// one another under the spec's stemming.
	subContent = []string{"payroll", "production", "password", "vendor", "lawyer", "invoice",
		"database", "contract", "salary", "budget", "press", "board", "offer", "refund"}
	// subWider are appended to an allowed phrase: each names a wider
	// recipient than the entry did.
	subWider = []string{" to everyone", " to the press", " and the board", " to the whole company",
		" to everyone at acme", " cc the press", " to all customers", " and everyone else",
		" to the public", ", the board", " to them", " to every customer", " plus the press",
		" + the board", "; cc everyone"}
	// subWiderJoined are appended right after an entry's own recipient.
	subWiderJoined = []string{"/the board", " / investors", "/everyone"}
	// subRecipientHeads are the heads of recipients the generated corpus
	// writes after `to`.
	subRecipientHeads = []string{"me", "us", "them", "the team", "my manager", "the client",
		"our lawyers", "the finance team", "you", "him", "her"}
	subScoped = []string{"my", "our", "your", "their", "this", "these", "every", "all", "each",
		"some", "no", "only"}
)

// Substitution is the substitution suite (issue: allow entries keep their
// limits). For every allow entry of every template, of docket's shipped
// loops and of a generated corpus, each alternative is checked under a
// warrant holding only that entry:
//
//   - replacing any one content word, pronoun, recipient, quantifier,
//     direction word or negation with another of its class (or a pronoun
//     or recipient with a wider audience) never yields ALLOW;
//   - appending a wider recipient (`… to everyone`, `… to the press`,
//     `… and the board`) never yields ALLOW;
//   - vague-target probes (docket's): every proper subset of the
//     alternative's words never yields ALLOW unless it covers another
//     alternative of the same entry.
//
// Each alternative verbatim is also checked to be ALLOW, so the suite
// cannot pass by asking about everything.
func Substitution() (*Suite, error) {
	s := newSuite("substitution", "replacing one content word, pronoun, recipient, quantifier, direction word or negation of an allow entry with another, appending a wider recipient, or keeping only a proper subset of its words (docket's vague-target probes) never yields ALLOW")
	entries, err := substitutionCorpus()
	if err != nil {
		return nil, err
	}
	r := newRand(subSeedOne, subSeedTwo)
	for _, e := range entries {
		subEntry(s, e, r)
	}
	return s, nil
}

// subSource is one allow entry and where it came from.
type subSource struct {
	from string
	verb loops.Verb
	text string
}

// substitutionCorpus lists every allow entry of the templates and of
// docket's loops, then the generated corpus.
func substitutionCorpus() ([]subSource, error) {
	var out []subSource
	ts, err := templateWarrants()
	if err != nil {
		return nil, err
	}
	dk, err := docketWarrants()
	if err != nil {
		return nil, err
	}
	for _, t := range append(ts, dk...) {
		for _, ve := range allowEntries(&t.loop.Warrant) {
			out = append(out, subSource{t.name, ve.verb, ve.text})
		}
	}
	r := newRand(subSeedTwo, subSeedOne)
	for i := range subGenerated {
		out = append(out, subSource{fmt.Sprintf("generated #%d", i), loops.Verbs[r.IntN(len(loops.Verbs))], genScopedEntry(r)})
	}
	return out, nil
}

// docketWarrants parses docket's shipped loops from testdata/docket at the
// module root (see its README for the commit they were read at).
func docketWarrants() ([]tmplWarrant, error) {
	dir, err := moduleDir("testdata/docket")
	if err != nil {
		return nil, err
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*"+loops.FileSuffix))
	if err != nil || len(paths) == 0 {
		return nil, fmt.Errorf("no docket loops in %s", dir)
	}
	var out []tmplWarrant
	for _, p := range paths {
		l, err := loops.LoadFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, tmplWarrant{name: "docket " + l.Name, loop: l})
	}
	return out, nil
}

// moduleDir finds rel under the module root, walking up from the working
// directory (go test runs in eval/, the report command at the root).
func moduleDir(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, rel), nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the working directory: run the eval inside the module")
		}
		dir = up
	}
}

// genScopedEntry makes an allow entry whose limit is written in pronouns,
// recipients, quantifiers, directions or negations.
func genScopedEntry(r *rand.Rand) string {
	noun := genPhrase(r)
	switch r.IntN(6) {
	case 0, 1:
		return noun + " to " + pick(r, subRecipientHeads)
	case 2:
		return pick(r, subScoped) + " " + noun
	case 3:
		return noun + " for " + pick(r, subRecipientHeads)
	case 4:
		return noun + " " + pick(r, []string{"without", "except", "not"}) + " " + pick(r, propWords)
	}
	return pick(r, subScoped) + " " + noun + " " + pick(r, []string{"to", "from", "into"}) + " " + pick(r, subRecipientHeads)
}

// subEntry runs every check for one allow entry.
func subEntry(s *Suite, e subSource, r *rand.Rand) {
	w := &loops.Warrant{}
	w.SetList(string(e.verb), []loops.Item{{Text: e.text, Line: 1}})
	alts := splitAlts(e.text)
	for _, alt := range alts {
		words := strings.Fields(alt)
		if len(words) == 0 || isAllFillerText(alt) {
			continue
		}
		subCheck(s, w, e, alt, true, "the entry's own words must be allowed")
		for i, word := range words {
			lw := strings.ToLower(word)
			if strings.Contains(lw, "*") || countSame(words, lw) > 1 {
				continue
			}
			for _, rep := range replacements(lw, r) {
				t := strings.Join(slices.Concat(words[:i], []string{rep}, words[i+1:]), " ")
				subCheck(s, w, e, t, false, fmt.Sprintf("%q replaced by %q", word, rep))
			}
		}
		for _, wide := range subWider {
			if names(words, wide) {
				continue // `… to them` is no wider than an entry saying so
			}
			subCheck(s, w, e, alt+wide, false, "wider recipient appended")
		}
		if endsInRecipient(words) {
			for _, wide := range subWiderJoined {
				subCheck(s, w, e, alt+wide, false, "wider recipient appended")
			}
		}
		vagueProbes(s, w, e, alt, alts)
	}
}

// endsInRecipient reports whether the last words of ws are a recipient: a
// recipient's direction word (not from or via: those name a source or a
// route) followed by words that are no preposition.
func endsInRecipient(ws []string) bool {
	for i := len(ws) - 1; i >= 0; i-- {
		w := strings.ToLower(ws[i])
		if slices.Contains([]string{"to", "into", "onto", "toward", "cc", "bcc"}, w) {
			return i < len(ws)-1
		}
		if isPlainWord(w) && w != "the" && w != "a" && w != "an" {
			return false
		}
	}
	return false
}

// names reports whether every word of phrase but its plain and direction
// words is already one of ws: the recipient it appends is the entry's own.
func names(ws []string, phrase string) bool {
	var pw []string
	for _, w := range strings.Fields(strings.Trim(phrase, " ,")) {
		if !isPlainWord(w) && !slices.Contains(subDirections, w) {
			pw = append(pw, w)
		}
	}
	return subsetWords(pw, ws)
}

// countSame counts the words of ws that are the same word as w.
func countSame(ws []string, w string) int {
	n := 0
	for _, x := range ws {
		if loops.SameWord(x, w) {
			n++
		}
	}
	return n
}

// replacements lists what may stand in for word w: the other members of
// its class (pronouns and recipients also get wider audiences), or for a
// content word two unrelated content words. Articles and the spec's plain
// prepositions (of, for, in, …) are not limits and are not replaced.
func replacements(w string, r *rand.Rand) []string {
	var pool []string
	switch {
	case slices.Contains(subPronouns, w):
		pool = slices.Concat(subPronouns, subRecipients)
	case slices.Contains(subQuantifiers, w):
		pool = subQuantifiers
	case slices.Contains(subDirections, w):
		pool = subDirections
	case slices.Contains(subNegations, w):
		pool = slices.Concat(subNegations, []string{"with", "including"})
	case isPlainWord(w):
		return nil
	default:
		pool = []string{pick(r, subContent), pick(r, subContent), pick(r, subRecipients)}
	}
	var out []string
	for _, p := range pool {
		if p != w && !loops.SameWord(p, w) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// isPlainWord reports whether w is an article, a plain preposition or an
// auxiliary: words that name no limit, which the substitution property
// leaves alone.
func isPlainWord(w string) bool {
	switch w {
	case "a", "an", "the", "of", "for", "with", "on", "in", "at", "by", "about",
		"is", "are", "be", "will", "even", "or", "and", "then", "also":
		return true
	}
	return false
}

// vagueProbes checks every proper subset of alt's words (docket's probes:
// a vague target never inherits a specific entry's permission). A subset
// that covers another alternative of the entry has earned that one.
func vagueProbes(s *Suite, w *loops.Warrant, e subSource, alt string, alts []string) {
	var words []string
	for _, x := range strings.Fields(alt) {
		if !isPlainWord(strings.ToLower(x)) {
			words = append(words, x)
		}
	}
	n := len(words)
	if n < 2 {
		return
	}
	var subsets [][]string
	if n <= subMaxProbeWords {
		for mask := 1; mask < 1<<n-1; mask++ {
			var sub []string
			for i := range n {
				if mask&(1<<i) != 0 {
					sub = append(sub, words[i])
				}
			}
			subsets = append(subsets, sub)
		}
	} else {
		for i := range n {
			subsets = append(subsets, []string{words[i]})
			subsets = append(subsets, slices.Concat(words[:i], words[i+1:]))
		}
	}
	for _, sub := range subsets {
		t := strings.Join(sub, " ")
		// Under stemming a subset can still hold every word (`compiled`
		// is the same word as `compile`): that is not a vaguer target.
		if subsetWords(words, sub) || coversOther(t, alt, alts) {
			continue
		}
		subCheck(s, w, e, t, false, "vague target: a proper subset of the entry's words")
	}
}

// coversOther reports whether target t holds every word of some other
// alternative (compared under the spec's stemming).
func coversOther(t, alt string, alts []string) bool {
	tw := strings.Fields(strings.ToLower(t))
	for _, a := range alts {
		if a == alt {
			continue
		}
		aw := strings.Fields(strings.ToLower(a))
		if subsetWords(aw, tw) {
			return true
		}
	}
	return false
}

func subCheck(s *Suite, w *loops.Warrant, e subSource, target string, wantAllow bool, note string) {
	res := loops.Check(w, e.verb, target)
	ex := Example{Input: fmt.Sprintf("%s: %s [%s] ← %s %q", e.from, e.verb, e.text, e.verb, target),
		Got: fmt.Sprintf("%s — %s", strings.ToUpper(string(res.Verdict)), res.Rule), Note: note}
	if wantAllow {
		s.Check(res.Verdict == loops.Allow, ex)
		return
	}
	s.Check(res.Verdict != loops.Allow, ex)
	kind := note
	if strings.Contains(note, "replaced by") {
		kind = "one word replaced"
	}
	s.Count("checks: "+kind, 1, 0)
	// Closest calls: the target holds every word of the alternative, so
	// only the rule that a target may not reach wider held it.
	if subsetWords(loops.StrictContentWords(e.text), loops.StrictContentWords(target)) ||
		subsetWords(strings.Fields(strings.ToLower(e.text)), strings.Fields(strings.ToLower(target))) {
		s.Count("held only because the target reaches wider (every word of the entry is in it)", 1, 0)
		s.NearOnce(kind, 2, ex)
	} else if res.List == "partial" {
		s.NearOnce(kind, 1, ex)
	}
}
