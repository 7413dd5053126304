// Package route answers "which loop covers this task?" deterministically
// (guide, "Which loop covers this task?"; DESIGN §8 `match`). Scoring is
// lexical and integer-weighted and reuses the warrant's cautious matcher.
// Routing matches generously — a false candidate costs one index line and
// the warrant still decides — but it fails closed: no candidate means no
// loop covers the task, and the human is asked.
package route

import (
	"fmt"
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

// Match scores every loop against task and returns the loops scoring at
// least Threshold, best first (score descending, then name), at most
// MaxCandidates. An empty result means no loop covers the task.
func Match(ls []*loops.Loop, task string) []Candidate {
	t := newTask(task)
	var out []Candidate
	for _, l := range ls {
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

// task is a task prepared once for scoring against many loops.
type task struct {
	text  string
	words []string // content words
}

func newTask(s string) *task { return &task{text: s, words: loops.ContentWords(s)} }

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
		if t.relatedAny(loops.Alternatives(tr.Text)) {
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
	shared := map[string]bool{}
	for _, list := range loops.Lists {
		for _, it := range l.Warrant.List(list) {
			if words := t.sharedWords(it.Text); len(words) > 0 && t.related(it.Text) {
				hits = append(hits, strings.Join(strings.Fields(it.Text), " "))
				for _, w := range words {
					shared[w] = true
				}
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

// related reports whether phrase and the task match the way the warrant's
// cautious mode does, and also share a content word. The shared word rules
// out matches that carry no evidence about the task: an all-filler entry
// (`anything`, which the warrant reads as "everything") and a bare glob.
func (t *task) related(phrase string) bool {
	if len(t.sharedWords(phrase)) == 0 {
		return false
	}
	return loops.MatchCautious(phrase, t.text) || t.covers(phrase)
}

func (t *task) relatedAny(alternatives []string) bool {
	for _, a := range alternatives {
		if t.related(a) {
			return true
		}
	}
	return false
}

// covers reports whether every content word of phrase is among the task's
// (content-word containment, for phrases MatchCautious would split
// differently).
func (t *task) covers(phrase string) bool {
	pw := loops.ContentWords(phrase)
	for _, w := range pw {
		if !hasWord(t.words, w) {
			return false
		}
	}
	return len(pw) > 0
}

// sharedWords returns the task's content words (in task order, once each)
// that s also has, under the matcher's stemming.
func (t *task) sharedWords(s string) []string {
	other := loops.ContentWords(s)
	var out []string
	for _, w := range t.words {
		if hasWord(other, w) && !hasWord(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func hasWord(words []string, w string) bool {
	for _, x := range words {
		if loops.SameWord(x, w) {
			return true
		}
	}
	return false
}
