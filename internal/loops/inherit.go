package loops

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// maxExtendsDepth bounds an `extends` chain; a longer one is a mistake.
const maxExtendsDepth = 10

// inheritField decodes `extends` and `abstract`
// (docs/loop-format.md#extends-and-abstract). A parent is named, never a path:
// it must be a loop in the same loops folder, because a parent outside it
// could be written by the agent to widen a warrant.
func (c *checker) inheritField(key string, v *yaml.Node, l *Loop) error {
	if key == "abstract" {
		if v.Kind == yaml.ScalarNode && v.Tag == "!!bool" {
			return v.Decode(&l.Abstract)
		}
		return c.errf(v.Line, fmt.Sprintf("abstract must be true or false, not %q", v.Value),
			"write `abstract: true` for a baseline other loops extend, or remove the line")
	}
	name, err := c.text(v, key)
	if err != nil {
		return err
	}
	switch {
	case name == "":
		return c.errf(v.Line, "extends names no loop", "write `extends: <loop name>`, or remove the line")
	case strings.ContainsAny(name, `/\`) || strings.HasSuffix(name, ".md"):
		return c.errf(v.Line, fmt.Sprintf("extends %q is a path: a parent is named, never a path", name),
			"name a loop in the same loops folder (`extends: org-baseline`); a parent elsewhere could be edited to widen this warrant")
	case !ValidName(name):
		return c.errf(v.Line, fmt.Sprintf("extends %q is not a loop name", name),
			"name a loop in the same loops folder: lowercase letters, digits and dashes (`extends: org-baseline`)")
	}
	l.Extends = Item{Text: name, Line: v.Line + c.off}
	return nil
}

// resolveExtends folds l's `extends` chain, read from dir, into l: every
// list is the union, parent first; goal and stop are the loop's own or else
// the parent's; budget is the smaller when both read as durations, else the
// parent's; prose (brief, procedure) stays the loop's own. A missing parent,
// a parent that does not load, a cycle and an over-long chain are errors at
// the `extends` line.
//
// Every file of the chain is read on every call; the cache c (nil for
// none) only spares parsing and merging bytes it has seen.
func (c *Cache) resolveExtends(l *Loop, dir string, chain []string) (*Loop, error) {
	if l.Extends.Text == "" {
		return l, nil
	}
	name := l.Extends.Text
	at := func(msg, hint string) error {
		return &Error{File: l.Path, Line: l.Extends.Line, Msg: msg, Hint: hint}
	}
	chain = append(slices.Clone(chain), l.Name)
	if slices.Contains(chain, name) {
		return nil, at(fmt.Sprintf("extends cycle: %s → %s", strings.Join(chain, " → "), name),
			"break the cycle: a baseline must not extend, directly or not, a loop that extends it")
	}
	if len(chain) > maxExtendsDepth {
		return nil, at(fmt.Sprintf("extends chain is over %d loops deep", maxExtendsDepth), "extend the baseline directly")
	}
	path := filepath.Join(dir, name+FileSuffix)
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, at(fmt.Sprintf("extends %q, but there is no %s%s in %s", name, name, FileSuffix, dir),
			"create that loop, or fix the name; a parent must be a loop in the same folder")
	}
	if err == nil {
		if err := exactName(path, info); err != nil {
			return nil, at(fmt.Sprintf("the parent loop %s does not load: %v", name, err), "fix the parent loop first")
		}
	}
	parent, err := c.parseFile(path)
	if err != nil {
		return nil, at(fmt.Sprintf("the parent loop %s does not load: %v", name, err), "fix the parent loop first")
	}
	if parent, err = c.resolveExtends(parent, dir, chain); err != nil {
		return nil, err
	}
	if l.allowsNothing {
		// No version of l is in force: its parent's allow entries are
		// not either (docs/signing.md#only-a-signed-warrant-is-in-force).
		return stripAllows(c.merge(parent, l)), nil
	}
	return c.merge(parent, l), nil
}

// mergeLoops returns child with parent folded in (see resolveExtends).
func mergeLoops(parent, child *Loop) *Loop {
	m := *child
	m.Warrant = Warrant{}
	for _, name := range Lists {
		m.Warrant.SetList(name, unionItems(parent.Name, parent.Warrant.List(name), child.Warrant.List(name)))
	}
	m.Reserved = unionItems(parent.Name, parent.Reserved, child.Reserved)
	m.Record = unionItems(parent.Name, parent.Record, child.Record)
	m.Triggers = unionItems(parent.Name, parent.Triggers, child.Triggers)
	if m.Goal == "" {
		m.Goal = parent.Goal
	}
	if m.Stop == "" {
		m.Stop = parent.Stop
	}
	m.Budget = mergeBudget(parent.Budget, child.Budget)
	m.Inherits = append(slices.Clone(parent.Inherits), parent.Name)
	m.Unsigned = joinNotes(parent.Unsigned, child.Unsigned)
	return &m
}

// unionItems is parent's items (marked as from parent unless they came
// from further up) then child's, dropping a child item the union holds
// already (the same EntryKey), so the first wording stays.
func unionItems(parent string, p, c []Item) []Item {
	out := make([]Item, 0, len(p)+len(c))
	seen := make(map[string]bool, len(p)+len(c))
	for _, it := range p {
		if it.From == "" {
			it.From = parent
		}
		if k := EntryKey(it.Text); !seen[k] {
			seen[k] = true
			out = append(out, it)
		}
	}
	for _, it := range c {
		if k := EntryKey(it.Text); !seen[k] {
			seen[k] = true
			out = append(out, it)
		}
	}
	return out
}

// EntryKey is the form in which two warrant entries are the same entry:
// a natural-language entry's folded text (matching folds pattern and
// target alike), a typed entry's text as written, since its paths,
// commands and names are matched as written — `Edit(.GITHUB/**)` does not
// stop an edit of `.github/ci.yml` that `Edit(.github/**)` stops
// (docs/typed-entries.md). Folding a typed entry would make a hard stop
// and a look-alike that stops nothing one entry.
func EntryKey(text string) string {
	if LooksTyped(text) {
		return "typed\x00" + strings.TrimSpace(text)
	}
	return Fold(text)
}

// mergeBudget lowers a ceiling, never raises it: the smaller of two
// durations, else the parent's budget (an order gitwarrant cannot read is
// not guessed at), else the child's.
func mergeBudget(parent, child string) string {
	switch {
	case parent == "":
		return child
	case child == "":
		return parent
	}
	p, perr := time.ParseDuration(strings.TrimSpace(parent))
	c, cerr := time.ParseDuration(strings.TrimSpace(child))
	if perr == nil && cerr == nil && c < p {
		return child
	}
	return parent
}
