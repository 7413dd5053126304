package eval

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

const (
	propSeedOne = 0x9e37_79b9_7f4a_0003
	propSeedTwo = 0x5eed_9e37_79b9_0003
	// propWarrants is how many warrants are generated; each is checked
	// against propTargets targets per property.
	propWarrants = 700
	propTargets  = 6
)

// propWords is the word pool: nouns and verbs that recur in warrants, so
// generated entries and targets overlap often enough to exercise matches.
var propWords = []string{"invoice", "letter", "email", "report", "payment", "contract", "customer",
	"refund", "ticket", "deploy", "release", "database", "backup", "secret", "token", "calendar",
	"meeting", "summary", "branch", "push", "main", "notes", "publish", "delete", "tag", "wire",
	"funds", "draft", "status", "team", "policy", "claim", "settlement", "accept", "merge", "review"}

var propFiller = []string{"the", "a", "to", "of", "any", "all", "our"}

// genPhrase makes a phrase of 1–3 pool words with optional filler and
// inflection.
func genPhrase(r *rand.Rand) string {
	n := 1 + r.IntN(3)
	var words []string
	for range n {
		if r.IntN(3) == 0 {
			words = append(words, pick(r, propFiller))
		}
		w := pick(r, propWords)
		if r.IntN(4) == 0 {
			if v := inflect(w, r.IntN(4)); v != "" {
				w = v
			}
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// genEntryText makes a warrant entry: a phrase, sometimes a list of
// alternatives, sometimes all filler, sometimes a glob.
func genEntryText(r *rand.Rand) string {
	switch r.IntN(20) {
	case 0:
		return pick(r, []string{"anything", "everything", "all of it", "any"})
	case 1:
		return genPhrase(r) + " *"
	case 2, 3:
		return genPhrase(r) + ", " + genPhrase(r) + " or " + genPhrase(r)
	}
	return genPhrase(r)
}

// genTarget makes a target: a phrase, sometimes two joined as a compound.
func genTarget(r *rand.Rand) string {
	t := genPhrase(r)
	if r.IntN(3) == 0 {
		t += pick(r, joiners) + genPhrase(r)
	}
	if r.IntN(5) == 0 {
		t = casing(t, r.IntN(3), r)
	}
	return t
}

func genList(r *rand.Rand, max int) []loops.Item {
	n := r.IntN(max + 1)
	out := make([]loops.Item, n)
	for i := range out {
		out[i] = loops.Item{Text: genEntryText(r), Line: i + 1}
	}
	return out
}

// genWarrant makes a warrant with rare all-filler entries.
func genWarrant(r *rand.Rand) *loops.Warrant {
	w := &loops.Warrant{}
	for _, l := range loops.Lists {
		max := 4
		if l == "ask" || l == "never" {
			max = 2
		}
		var items []loops.Item
		for _, it := range genList(r, max) {
			// Keep all-filler entries rare: one decides every check.
			if isAllFillerText(it.Text) && r.IntN(4) != 0 {
				continue
			}
			items = append(items, it)
		}
		w.SetList(l, items)
	}
	return w
}

func isAllFillerText(s string) bool {
	return len(strings.Fields(s)) > 0 && len(loops.ContentWords(s)) == 0
}

func cloneWarrant(w *loops.Warrant) *loops.Warrant {
	c := &loops.Warrant{}
	for _, l := range loops.Lists {
		c.SetList(l, slices.Clone(w.List(l)))
	}
	return c
}

func severity(v loops.Verdict) int {
	switch v {
	case loops.Allow:
		return 0
	case loops.Ask:
		return 1
	}
	return 2
}

// Properties is the properties suite: generated warrants and targets,
// checked for the verdict algorithm's algebra — adding an ask or never
// entry never lowers a verdict; removing an allow entry never creates an
// allow; every allow is covered under the strict rule, re-derived here from
// the spec; verdicts are deterministic and independent of list order; an
// all-filler never entry denies everything.
func Properties() (*Suite, error) {
	s := newSuite("properties", "adding an ask/never entry never lowers a verdict; removing an allow entry never creates an allow; every allow is covered clause by clause under the strict rule (re-derived from the spec) and escapes every ask/never entry; verdicts are deterministic and independent of list order; an all-filler never entry denies everything")
	r := newRand(propSeedOne, propSeedTwo)
	for range propWarrants {
		w := genWarrant(r)
		for range propTargets {
			t := genTarget(r)
			v := loops.Verbs[r.IntN(len(loops.Verbs))]
			p := &prop{s: s, w: w, v: v, t: t, base: loops.Check(w, v, t)}
			p.addHardStop(r)
			p.removeAllow(r)
			p.strictCover()
			p.deterministic(r)
			p.allFiller(r)
		}
	}
	return s, nil
}

type prop struct {
	s    *Suite
	w    *loops.Warrant
	v    loops.Verb
	t    string
	base loops.Result
}

func (p *prop) ex(what string, got loops.Result) Example {
	return Example{Input: fmt.Sprintf("%s %q under %s", p.v, p.t, describeWarrant(p.w)),
		Got: fmt.Sprintf("%s → %s (%s)", strings.ToUpper(string(p.base.Verdict)), strings.ToUpper(string(got.Verdict)), got.Rule), Note: what}
}

func (p *prop) addHardStop(r *rand.Rand) {
	for _, list := range []string{"ask", "never"} {
		w := cloneWarrant(p.w)
		items := w.List(list)
		at := r.IntN(len(items) + 1)
		w.SetList(list, slices.Insert(items, at, loops.Item{Text: genEntryText(r), Line: 99}))
		got := loops.Check(w, p.v, p.t)
		p.s.Check(severity(got.Verdict) >= severity(p.base.Verdict), p.ex("adding a "+list+" entry must never lower the verdict", got))
	}
}

func (p *prop) removeAllow(r *rand.Rand) {
	items := p.w.List(string(p.v))
	if len(items) == 0 {
		return
	}
	w := cloneWarrant(p.w)
	i := r.IntN(len(items))
	w.SetList(string(p.v), slices.Delete(slices.Clone(items), i, i+1))
	got := loops.Check(w, p.v, p.t)
	p.s.Check(severity(got.Verdict) >= severity(p.base.Verdict), p.ex("removing an allow entry must never create an allow", got))
}

// strictCover re-derives an allow from the spec: no ask or never entry
// matches in cautious mode, and every clause with content words contains
// all content words of some allow alternative, or the alternative as a
// substring, or matches its glob — or the entry is a lone all-filler one.
func (p *prop) strictCover() {
	if p.base.Verdict != loops.Allow {
		return
	}
	ok := p.base.List == string(p.v)
	for _, it := range append(slices.Clone(p.w.Ask), p.w.Never...) {
		if loops.MatchCautious(it.Text, p.t) {
			ok = false
		}
	}
	for _, c := range loops.Clauses(p.t) {
		if len(loops.StrictContentWords(c)) == 0 {
			continue
		}
		if !coveredBySpec(p.w.List(string(p.v)), c) {
			ok = false
		}
	}
	p.s.Check(ok, p.ex("every allow must be covered clause by clause under the strict rule", p.base))
	if ok && len(loops.Clauses(p.t)) > 1 && !isAllFillerText(p.base.Pattern) {
		p.s.Near(1, p.ex("a compound target allowed because each clause is covered", p.base))
	}
}

func coveredBySpec(list []loops.Item, clause string) bool {
	cw := loops.StrictContentWords(clause)
	fc := loops.Fold(clause)
	for _, it := range list {
		alts := splitAlts(it.Text)
		if len(alts) == 1 && isUniversalText(alts[0]) {
			return true
		}
		for _, a := range alts {
			fa := loops.Fold(a)
			if strings.Contains(fa, "*") {
				if globRE(fa).MatchString(fc) || globRE(fa).MatchString(loops.Fold(strings.Join(strings.Fields(clause), " "))) {
					return true
				}
				continue
			}
			if strings.Contains(fc, fa) || subsetWords(loops.StrictContentWords(a), cw) {
				return true
			}
		}
	}
	return false
}

// isUniversalText reports whether an allow alternative is the spec's
// `anything`: words, each strict filler or one meaning everything
// (docs/loop-format.md#strict-filler-words).
func isUniversalText(s string) bool {
	if len(strings.Fields(s)) == 0 {
		return false
	}
	for _, w := range loops.StrictContentWords(s) {
		if !slices.Contains([]string{"anything", "everything", "any", "all", "whatever"}, w) {
			return false
		}
	}
	return true
}

func globRE(folded string) *regexp.Regexp {
	parts := strings.Split(folded, "*")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return regexp.MustCompile(`(?s)^` + strings.Join(parts, ".*") + `$`)
}

func (p *prop) deterministic(r *rand.Rand) {
	again := loops.Check(p.w, p.v, p.t)
	p.s.Check(again == p.base, p.ex("the same check must give the same result", again))
	w := cloneWarrant(p.w)
	for _, l := range loops.Lists {
		items := w.List(l)
		r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	}
	got := loops.Check(w, p.v, p.t)
	p.s.Check(got.Verdict == p.base.Verdict, p.ex("the verdict must not depend on list order", got))
}

func (p *prop) allFiller(r *rand.Rand) {
	w := cloneWarrant(p.w)
	filler := pick(r, []string{"anything", "everything", "all of it", "any", "the"})
	w.Never = slices.Insert(slices.Clone(w.Never), r.IntN(len(w.Never)+1), loops.Item{Text: filler, Line: 98})
	got := loops.Check(w, p.v, p.t)
	p.s.Check(got.Verdict == loops.Deny, p.ex(fmt.Sprintf("an all-filler never entry (%q) must deny everything", filler), got))
}

func describeWarrant(w *loops.Warrant) string {
	var parts []string
	for _, l := range loops.Lists {
		if items := w.List(l); len(items) > 0 {
			parts = append(parts, l+": ["+strings.Join(loops.Texts(items), "; ")+"]")
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}
