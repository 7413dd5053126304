// Package route answers "which loop covers this task?" deterministically
// (guide, "Which loop covers this task?"; docs/design.md#reading-the-record `match`). Scoring is
// lexical and integer-weighted and reuses the warrant's cautious matcher.
// Routing matches generously — a false candidate costs one index line and
// the warrant still decides — but it fails closed: no candidate means no
// loop covers the task, and the human is asked.
package route

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Weights and limits of the score (guide: name +5, each trigger +4,
// warrant targets +1 each capped, description words +1 each capped,
// threshold 3, the top few returned).
const (
	NameWeight     = 5
	TriggerWeight  = 4
	WarrantCap     = 3
	DescriptionCap = 3
	Threshold      = 3
	MaxCandidates  = 3
)

// Candidate is a loop that may cover a task, with its score and the reasons
// that make it up, e.g. "name: insurance appeal", "trigger: denied claim,
// denial letter".
type Candidate struct {
	Loop  *loops.Loop
	Score int
	Why   []string
}

// Match scores every loop but the abstract ones (baselines, see
// docs/loop-format.md#extends-and-abstract) against task and returns the loops
// scoring at least Threshold, best first (score descending, then name), at most
// MaxCandidates. An empty result means no loop covers the task.
func Match(ls []*loops.Loop, task string) []Candidate {
	t := newTask(task)
	var out []Candidate
	for _, l := range ls {
		if l.Abstract {
			continue // a baseline is extended, never routed to
		}
		if c := t.score(l); c.Score >= Threshold {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Loop.Name < out[j].Loop.Name
	})
	if len(out) > MaxCandidates {
		out = out[:MaxCandidates]
	}
	return out
}

// Score returns l's score for task with its reasons, whatever the score.
func Score(l *loops.Loop, task string) Candidate {
	t := newTask(task)
	return t.score(l)
}

// task is a task prepared once for scoring against many loops. Its
// content words are indexed by stem key (loops.StemKeys), so comparing a
// pattern word with every task word is one map lookup: routing runs on the
// hook's hot path, once per tool call, against every loop.
type task struct {
	text  string
	words []string       // content words, in order
	keys  map[string]int // stem key → canonical index into words
	// clauses holds, for the whole task and each of its clauses
	// (loops.Clauses) with content words, the canonical word indices.
	clauses [][]int
	memo    map[string]int // pattern word → canonical index, or -1
}

func newTask(s string) *task {
	t := &task{text: s, words: loops.ContentWords(s), keys: map[string]int{}, memo: map[string]int{}}
	canon := make([]int, len(t.words))
	for i, w := range t.words {
		canon[i] = i
		ks := loops.StemKeys(w)
		for _, k := range ks {
			if j, ok := t.keys[k]; ok {
				canon[i] = j
				break
			}
		}
		for _, k := range ks {
			if _, ok := t.keys[k]; !ok {
				t.keys[k] = canon[i]
			}
		}
	}
	t.clauses = append(t.clauses, uniq(canon))
	for _, c := range loops.Clauses(s) {
		if idx := t.indices(loops.ContentWords(c)); len(idx) > 0 {
			t.clauses = append(t.clauses, idx)
		}
	}
	return t
}

// index returns the canonical index of the task word that is the same word
// as w (loops.SameWord), or -1.
func (t *task) index(w string) int {
	if i, ok := t.memo[w]; ok {
		return i
	}
	i := -1
	for _, k := range loops.StemKeys(w) {
		if j, ok := t.keys[k]; ok {
			i = j
			break
		}
	}
	t.memo[w] = i
	return i
}

// indices maps words to canonical task-word indices, dropping words the
// task does not have, each index once.
func (t *task) indices(words []string) []int {
	var out []int
	for _, w := range words {
		if i := t.index(w); i >= 0 && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

func uniq(xs []int) []int {
	var out []int
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// score adds up the four kinds of evidence. The name and each trigger are
// author-written routing statements and count in full; the warrant and
// the description are incidental vocabulary, so their points are bounded
// by how many distinct task words they share (see incidental): one shared
// word like "email" can never reach the threshold on its own.
func (t *task) score(l *loops.Loop) Candidate {
	c := Candidate{Loop: l}
	if len(t.words) == 0 {
		return c
	}
	phrase := strings.ReplaceAll(l.Name, "-", " ")
	if t.related(phrase) {
		c.Score += NameWeight
		c.Why = append(c.Why, "name: "+l.Name)
	}
	for _, tr := range l.Triggers {
		if tr.From != "" {
			continue // inherited: a baseline's words say nothing about which job this is (docs/sessions.md)
		}
		if t.related(tr.Text) {
			c.Score += TriggerWeight
			c.Why = append(c.Why, "trigger: "+strings.Join(strings.Fields(tr.Text), " "))
		}
	}
	t.incidental(l, &c)
	return c
}

// incidental scores warrant entries and description words. Warrant points
// are min(matching entries, distinct task words they share, WarrantCap);
// description points are the distinct task words the description shares,
// capped at DescriptionCap. So one shared word gives at most 1 + 1 = 2.
func (t *task) incidental(l *loops.Loop, c *Candidate) {
	var hits []string
	var shared []int
	for _, list := range loops.Lists {
		for _, it := range l.Warrant.List(list) {
			if loops.LooksTyped(it.Text) || it.From != "" {
				continue // a typed entry names tool calls, not the task (docs/typed-entries.md); an inherited one, the baseline
			}
			if ok, idx := t.match(it.Text); ok {
				hits = append(hits, strings.Join(strings.Fields(it.Text), " "))
				shared = union(shared, idx)
			}
		}
	}
	if n := min(len(hits), len(shared), WarrantCap); n > 0 {
		c.Score += n
		c.Why = append(c.Why, fmt.Sprintf("warrant: %s (+%d)", strings.Join(hits[:min(len(hits), WarrantCap)], ", "), n))
	}
	if words := t.sharedWords(l.Description); len(words) > 0 {
		n := min(len(words), DescriptionCap)
		c.Score += n
		c.Why = append(c.Why, fmt.Sprintf("description: %s (+%d)", strings.Join(words, ", "), n))
	}
}

// related reports whether some alternative of pattern (loops.Alternatives)
// matches the task the way the warrant's cautious mode does — content-word
// subset in either direction, against the whole task or one of its
// clauses, or by glob — and also shares a content word with it. The shared
// word rules out matches that carry no evidence about the task: an
// all-filler entry (`anything`, which the warrant reads as "everything")
// and a bare glob. TestRelatedAgreesWithMatchCautious holds this to
// loops.MatchCautious.
func (t *task) related(pattern string) bool {
	ok, _ := t.match(pattern)
	return ok
}

// match is related that also returns the task words the matching
// alternatives share, so the warrant score counts distinct words.
func (t *task) match(pattern string) (bool, []int) {
	var shared []int
	for _, alt := range loops.Alternatives(pattern) {
		if ok, hit := t.matchAlt(alt); ok {
			shared = union(shared, hit)
		}
	}
	return len(shared) > 0, shared
}

// relatedAlt reports whether one alternative matches (see related).
func (t *task) relatedAlt(alt string) bool {
	ok, _ := t.matchAlt(alt)
	return ok
}

func (t *task) matchAlt(alt string) (bool, []int) {
	words := loops.ContentWords(alt)
	hit := t.indices(words)
	switch {
	case len(hit) == 0:
		return false, nil
	case allKnown(t, words):
		return true, hit // the task covers the pattern
	}
	for _, c := range t.clauses {
		if subset(c, hit) {
			return true, hit // the pattern covers the task or one of its clauses
		}
	}
	if strings.Contains(alt, "*") && loops.MatchCautious(alt, t.text) {
		return true, hit
	}
	return false, nil
}

func union(a, b []int) []int {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

// allKnown reports whether every word is one of the task's.
func allKnown(t *task, words []string) bool {
	for _, w := range words {
		if t.index(w) < 0 {
			return false
		}
	}
	return true
}

func subset(small, big []int) bool {
	for _, x := range small {
		if !slices.Contains(big, x) {
			return false
		}
	}
	return len(small) > 0
}

// sharedWords returns the task's content words (in task order, once each)
// that s also has, under the matcher's stemming.
func (t *task) sharedWords(s string) []string {
	idx := t.indices(loops.ContentWords(s))
	slices.Sort(idx)
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = t.words[j]
	}
	return out
}
