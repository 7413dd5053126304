package eval

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

const (
	advSeedOne = 0xad7e_5a71_0000_0002
	advSeedTwo = 0x5eed_ad7e_5a71_0002
	// advVariants is how many generated variants each hard-stop
	// alternative gets per class that draws at random.
	advVariants = 3
	// advPartners is how many allowed phrases each variant is joined to.
	advPartners = 3
)

// variant is one rewrite of a hard stop. keepsWords is true when every
// content word of the hard stop survives (perhaps inflected or disguised):
// only those may be fused into an allowed phrase without a separator, since
// a lexical matcher cannot see intent in words that are not there (the
// spec's "Known limitation").
type variant struct {
	class      string
	text       string
	keepsWords bool
}

// Adversarial is the adversarial suite (spec "Pattern matching": fuzzy
// only toward caution). Every never and ask entry of every template is
// rewritten — casing, punctuation, filler, re-ordering, inflection,
// look-alike characters, embedding in a sentence, shared-word paraphrases —
// and checked under every verb, alone and joined to each kind of allowed
// phrase. None may be allowed. A never variant that weakens to ask is
// within the invariant but counted in the open.
func Adversarial() (*Suite, error) {
	s := newSuite("adversarial",
		"no variant of a template's never or ask entry is ever ALLOW — under any verb, alone, embedded in a sentence, or joined to an allowed phrase (a never variant may weaken to ASK; how often is reported)")
	ts, err := templateWarrants()
	if err != nil {
		return nil, err
	}
	r := newRand(advSeedOne, advSeedTwo)
	for _, t := range ts {
		allowed := allowEntries(&t.loop.Warrant)
		for _, list := range []string{"never", "ask"} {
			for _, it := range t.loop.Warrant.List(list) {
				for _, v := range hardStopVariants(it.Text, r) {
					advCheck(s, t, list, it.Text, v, allowed, r)
				}
			}
		}
	}
	return s, nil
}

// hardStopVariants rewrites one entry: the entry itself, then each of its
// alternatives through every class.
func hardStopVariants(entry string, r *rand.Rand) []variant {
	out := []variant{{"verbatim", entry, true}}
	for _, a := range splitAlts(entry) {
		out = append(out, variant{"verbatim", a, true})
		for i := range 3 {
			out = append(out, variant{"casing", casing(a, i, r), true})
		}
		for i := range 8 {
			out = append(out, variant{"punctuation", punctuate(a, i), true})
		}
		for i := range 5 {
			out = append(out, variant{"look-alike", disguise(a, i, r), true})
		}
		for range advVariants {
			out = append(out,
				variant{"filler", withFiller(a, 1+r.IntN(3), r), true},
				variant{"inflected", inflectAll(a, r), true},
				variant{"embedded", embed(a, r), true},
				variant{"combined", combine(a, r), true})
		}
		out = append(out, variant{"re-ordered", reorder(a, true, r), true},
			variant{"re-ordered", reorder(a, false, r), true})
		out = append(out, sharedWordVariants(a, r)...)
	}
	return out
}

// combine applies two to four content-preserving rewrites in a row.
func combine(a string, r *rand.Rand) string {
	steps := []func(string) string{
		func(s string) string { return casing(s, r.IntN(3), r) },
		func(s string) string { return withFiller(s, 1+r.IntN(2), r) },
		func(s string) string { return reorder(s, false, r) },
		func(s string) string { return inflectAll(s, r) },
		func(s string) string { return embed(s, r) },
	}
	r.Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
	n := 2 + r.IntN(3)
	for _, f := range steps[:n] {
		a = f(a)
	}
	// Disguise last: every other rewrite expects plain letters.
	if r.IntN(2) == 0 {
		a = disguise(a, r.IntN(5), r)
	}
	if r.IntN(3) == 0 {
		a = punctuate(a, r.IntN(2))
	}
	return a
}

// synonyms replaces one word of a hard stop with a near-synonym, keeping
// the others: the "synonyms with shared words" paraphrase.
var synonyms = map[string]string{
	"accepting": "taking", "rejecting": "declining", "settlement": "payout offer", "quoting": "offering",
	"prices": "rates", "discounts": "rebates", "agreeing": "committing", "deadlines": "due dates",
	"scope": "requirement", "sharing": "forwarding", "information": "details", "storing": "saving",
	"secrets": "private keys", "passwords": "passphrases", "tokens": "access keys", "personal": "private",
	"publishing": "releasing", "deploying": "shipping", "pushing": "sending", "deleting": "removing",
	"signing": "endorsing", "rewriting": "editing", "disabling": "skipping", "merging": "landing",
	"credentials": "logins", "editing": "modifying", "changing": "altering", "paying": "remitting",
	"approving": "signing off", "cancelling": "calling off", "committing": "promising", "contacting": "calling",
	"requesting": "asking for", "scheduling": "booking", "addressed": "sent", "tags": "labels", "tag": "label",
	"production": "prod", "main": "trunk", "force": "forced", "data": "records", "meetings": "calls",
	"files": "documents", "upgrades": "bumps", "dependency": "package", "dependencies": "packages",
	"closing": "resolving", "restarting": "rebooting", "rolling": "reverting", "paging": "calling",
	"posting": "writing", "announcing": "broadcasting", "opening": "starting", "creating": "making",
	"customers": "clients", "registry": "index", "database": "db", "databases": "dbs", "migrations": "schema changes",
}

// sharedWordVariants keeps some of a hard stop's content words and drops or
// replaces the rest. The shortened ones must still match cautiously (the
// target's words are a subset of the entry's); a replaced word is a real
// paraphrase that a lexical matcher may miss, so it can weaken to ask —
// which is counted, never hidden.
func sharedWordVariants(a string, r *rand.Rand) []variant {
	words := strings.Fields(a)
	var content []int
	for i, w := range words {
		if !isFillerWord(w) {
			content = append(content, i)
		}
	}
	var out []variant
	if len(content) >= 2 {
		drop := content[r.IntN(len(content))]
		kept := append(append([]string{}, words[:drop]...), words[drop+1:]...)
		out = append(out, variant{"shared words (one dropped)", strings.Join(kept, " "), false})
	}
	for _, i := range content {
		syn, ok := synonyms[strings.ToLower(words[i])]
		if !ok {
			continue
		}
		c := append([]string{}, words...)
		c[i] = syn
		out = append(out, variant{"synonym (one word replaced)", strings.Join(c, " "), false})
	}
	return out
}

// advCheck checks one variant under every verb alone, then joined to (and,
// when it keeps its words, fused with) allowed phrases of the template.
func advCheck(s *Suite, t tmplWarrant, list, entry string, v variant, allowed []verbEntry, r *rand.Rand) {
	w := &t.loop.Warrant
	for _, verb := range loops.Verbs {
		advOne(s, t.name, list, entry, v, v.class, verb, v.text, w)
	}
	if len(allowed) == 0 {
		return
	}
	for range advPartners {
		a := pick(r, allowed)
		j := pick(r, joiners)
		advOne(s, t.name, list, entry, v, "joined after an allowed phrase", a.verb, a.text+j+v.text, w)
		advOne(s, t.name, list, entry, v, "joined before an allowed phrase", a.verb, v.text+j+a.text, w)
		if v.keepsWords {
			advOne(s, t.name, list, entry, v, "fused into an allowed phrase", a.verb, a.text+" "+v.text, w)
		}
	}
}

func advOne(s *Suite, tmpl, list, entry string, v variant, how string, verb loops.Verb, target string, w *loops.Warrant) {
	res := loops.Check(w, verb, target)
	ex := Example{
		Input: fmt.Sprintf("%s %s %q (variant of %s %q, %s, %s)", tmpl, verb, target, list, entry, v.class, how),
		Got:   fmt.Sprintf("%s — %s", strings.ToUpper(string(res.Verdict)), res.Rule),
	}
	ex.Note = "a variant of a hard stop must never be allowed"
	s.Check(res.Verdict != loops.Allow, ex)
	if res.Verdict == loops.Allow {
		return
	}
	key := list + " variants"
	if list == "never" {
		weakened := res.Verdict != loops.Deny
		s.Count("never variants that weakened to ASK (not ALLOW): "+v.class, b2i(weakened), 1)
		s.Count("never variants that weakened to ASK, all classes", b2i(weakened), 1)
		if weakened && res.List != "ask" {
			// Only the default (or a partial cover) stood between this
			// variant and an allow: the closest calls.
			ex.Note = "a never variant no list caught; rule 4 (unlisted means ask) held"
			s.NearOnce(tmpl+v.class, 1+b2i(res.List == "partial"), ex)
		}
		return
	}
	caught := res.List == "ask" || res.List == "never"
	s.Count(key+" caught by the ask or never list", b2i(caught), 1)
	if !caught {
		ex.Note = "an ask variant no list caught; rule 4 held"
		s.NearOnce(tmpl+v.class, b2i(res.List == "partial"), ex)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
