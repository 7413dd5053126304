package eval

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

const (
	warSeedOne = 0x3a77_a7ed_0000_0006
	warSeedTwo = 0x5eed_3a77_a7ed_0006
	// warPerEntry is how many generated elaborations each allow entry gets
	// besides the fixed ones.
	warPerEntry = 40
)

// verbPrefixes are how a person asks for each verb's work in plain words.
var verbPrefixes = map[loops.Verb][]string{
	loops.Read:   {"read the", "open the", "look through the", "check the", "skim the", "go through the", "search the"},
	loops.Draft:  {"draft the", "write the", "prepare a", "put together the", "write up a new", "revise the"},
	loops.Change: {"update the", "edit the", "tidy the", "reorganise the", "append a line to the", "fix a typo in the"},
	loops.Send:   {"", "now", "go ahead:", "please"},
}

// contextSuffixes say which instance of the work is meant.
var contextSuffixes = []string{"for claim 4411", "for v1.4.2", "for issue #318", "from last week",
	"for this sprint", "in the repo", "(second pass)", "for Monday", "version 2", "for the Acme account",
	"as a first draft", "in docs/guide.md", "on branch fix/parser-nil", "that Sam mentioned", "below"}

// Warranted is the warranted-work suite: for every template, the work its
// allow lists intend — each entry verbatim, in other casings and numbers,
// inside a realistic request, and two allowed pieces joined — is ALLOW.
// Elaborations add only words that share nothing with the template's ask
// and never entries, so a block is the matcher being wrong, not cautious.
func Warranted() (*Suite, error) {
	s := newSuite("warranted", "work a template's allow lists intend — its entries verbatim or elaborated with words unrelated to its ask and never entries — is ALLOW (zero warranted work blocked)")
	ts, err := templateWarrants()
	if err != nil {
		return nil, err
	}
	r := newRand(warSeedOne, warSeedTwo)
	for _, t := range ts {
		stops := hardStopWords(&t.loop.Warrant)
		for _, ve := range allowEntries(&t.loop.Warrant) {
			for _, target := range elaborations(ve, stops, r) {
				warCheck(s, t, ve.verb, target, stops)
			}
		}
		warPairs(s, t, stops, r)
	}
	return s, nil
}

// hardStopWords is every content word of the template's ask and never lists.
func hardStopWords(w *loops.Warrant) []string {
	var out []string
	for _, it := range append(append([]loops.Item{}, w.Ask...), w.Never...) {
		out = append(out, loops.ContentWords(it.Text)...)
	}
	return out
}

// clean reports whether extra adds no word that is the same word (under the
// spec's stemming) as a hard-stop word, and no clause separator.
func clean(extra string, stops []string) bool {
	if strings.ContainsAny(extra, ",;|&\n") {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(extra)) {
		if w == "and" || w == "or" || w == "then" || w == "plus" {
			return false
		}
	}
	for _, w := range loops.ContentWords(extra) {
		for _, h := range stops {
			if loops.SameWord(w, h) {
				return false
			}
		}
	}
	return true
}

// elaborations lists realistic targets for one allow entry.
func elaborations(ve verbEntry, stops []string, r *rand.Rand) []string {
	e := ve.text
	out := []string{e, "the " + e, casing(e, 0, r), casing(e, 1, r), withStrictFiller(e, r)}
	if words := strings.Fields(e); len(words) > 0 {
		if pl := inflect(strings.ToLower(words[len(words)-1]), 0); pl != "" {
			out = append(out, strings.Join(append(words[:len(words)-1:len(words)-1], pl), " "))
		}
	}
	for range warPerEntry {
		pre := pick(r, verbPrefixes[ve.verb])
		suf := pick(r, contextSuffixes)
		switch r.IntN(3) {
		case 0:
			suf = ""
		case 1:
			pre = ""
		}
		if !clean(pre+" "+suf, stops) {
			continue
		}
		t := strings.TrimSpace(pre + " " + e + " " + suf)
		if r.IntN(4) == 0 {
			t = casing(t, 1, r)
		}
		out = append(out, t)
	}
	return out
}

// strictFillers are words an allow entry may gain anywhere without changing
// what it permits (docs/loop-format.md#strict-filler-words): articles.
// Pronouns and quantifiers (`any`, `our`, `this`) are limits, and a
// preposition dropped into a recipient (`to about the team`) ends it, so
// inserting either is not an elaboration of the same work.
var strictFillers = []string{"the", "a", "an"}

// withStrictFiller inserts one strict filler word into s, each confirmed
// filler by StrictContentWords before use.
func withStrictFiller(s string, r *rand.Rand) string {
	f := pick(r, strictFillers)
	if len(loops.StrictContentWords(f)) != 0 {
		return s
	}
	words := strings.Fields(s)
	i := r.IntN(len(words) + 1)
	return strings.Join(slices.Insert(words, i, f), " ")
}

// warPairs joins two allowed entries of the same verb: every clause is
// covered, so the compound is allowed too (docs/loop-format.md#the-warrant's clause rule must
// not block honest compound work).
func warPairs(s *Suite, t tmplWarrant, stops []string, r *rand.Rand) {
	for _, v := range loops.Verbs {
		list := t.loop.Warrant.List(string(v))
		for i := range list {
			for j := range list {
				if i == j {
					continue
				}
				if spansHardStop(&t.loop.Warrant, list[i].Text+" "+list[j].Text) {
					continue // the pair together says a hard stop: asking is right
				}
				j2 := pick(r, []string{" and ", ", ", "; ", " then ", " && "})
				warCheck(s, t, v, list[i].Text+j2+list[j].Text, stops)
			}
		}
	}
}

func warCheck(s *Suite, t tmplWarrant, verb loops.Verb, target string, stops []string) {
	res := loops.Check(&t.loop.Warrant, verb, target)
	ex := Example{Input: fmt.Sprintf("%s %s %q", t.name, verb, target),
		Got:  fmt.Sprintf("%s — %s", strings.ToUpper(string(res.Verdict)), res.Rule),
		Note: "warranted work must be allowed"}
	s.Check(res.Verdict == loops.Allow && res.List == string(verb), ex)
	if res.Verdict != loops.Allow {
		return
	}
	// Closest calls: allowed targets sharing the most words with a hard stop.
	shared := 0
	for _, w := range loops.ContentWords(target) {
		for _, h := range stops {
			if loops.SameWord(w, h) {
				shared++
				break
			}
		}
	}
	if shared > 0 {
		ex.Note = fmt.Sprintf("allowed while sharing %d word(s) with the template's ask/never entries", shared)
		s.NearOnce(t.name, shared, ex)
	}
}

// spansHardStop reports whether text holds every content word of some ask
// or never alternative (compared under the spec's stemming).
func spansHardStop(w *loops.Warrant, text string) bool {
	words := loops.ContentWords(text)
	for _, it := range append(append([]loops.Item{}, w.Ask...), w.Never...) {
		for _, a := range splitAlts(it.Text) {
			if subsetWords(loops.ContentWords(a), words) {
				return true
			}
		}
	}
	return false
}

// subsetWords reports whether every word of sub is SameWord as one of super.
func subsetWords(sub, super []string) bool {
	if len(sub) == 0 {
		return false
	}
	for _, a := range sub {
		found := false
		for _, b := range super {
			if loops.SameWord(a, b) {
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
