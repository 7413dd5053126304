package typed

import (
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/shell"
)

// This file sorts a clause by the kind of work it does
// (docs/typed-entries.md#kinds): it reads, changes the work tree and local
// refs, or sends — publishes, deploys, pushes, changes remote state, or
// rewrites a protected branch or tag. An allow entry allows a clause only
// of its own list's kind or a narrower one, and the record keeps a hook
// call's widest kind as its action.

// Kind is what one clause does, as far as a table knows its command.
type Kind struct {
	// Verb is loops.Read, loops.Change or loops.Send; "" when no table
	// knows the command (then the list an entry stands in is its kind).
	Verb loops.Verb
	// Cmd names the command the way a reason quotes it ("pnpm publish").
	Cmd string
	// Why says what makes it that kind ("sends a package"), "" for a read.
	Why string
	// Manifests are the package.json files whose scripts decided the kind
	// (a package script run): the loop must vouch for each.
	Manifests []loops.FilePath
}

// rank orders kinds and lists: read ⊂ change ⊂ send. A draft is written
// where it was made and not sent, so a draft list reaches as far as change.
func rank(v loops.Verb) int {
	switch v {
	case loops.Read:
		return 1
	case loops.Draft, loops.Change:
		return 2
	case loops.Send:
		return 3
	}
	return 0
}

// ListAllows reports whether an allow entry in list may allow a clause of
// kind v: the list's kind must be v's or wider.
func ListAllows(list string, v loops.Verb) bool {
	return rank(loops.Verb(list)) >= rank(v)
}

// Wider returns the wider of two kinds (a when they rank the same).
func Wider(a, b Kind) Kind {
	if rank(b.Verb) > rank(a.Verb) {
		b.Manifests = append(append([]loops.FilePath{}, a.Manifests...), b.Manifests...)
		return b
	}
	if len(b.Manifests) > 0 {
		a.Manifests = append(append([]loops.FilePath{}, a.Manifests...), b.Manifests...)
	}
	return a
}

// RecordVerb is the verb the record keeps for a kind: a command no table
// knows runs code that may write the work tree, so it counts as change.
func (k Kind) RecordVerb() loops.Verb {
	if k.Verb == "" {
		return loops.Change
	}
	return k.Verb
}

// maxScriptDepth bounds package scripts followed into package scripts.
const maxScriptDepth = 3

// ClauseKind classifies one clause by its command's table. The files the
// clause reads and writes are units of their own, with their own kinds.
func ClauseKind(c shell.Clause, env Env) Kind {
	return clauseKind(c, nil, env, 0)
}

// clauseKind is ClauseKind with the clause's git reading when the caller
// has it already (g nil: read it here).
func clauseKind(c shell.Clause, g *shell.Git, env Env, depth int) Kind {
	if c.Opaque || len(c.Argv) == 0 {
		return Kind{}
	}
	argv := c.Strings()
	name := c.Name()
	if name == "corepack" && len(argv) > 1 {
		argv, name = argv[1:], baseName(argv[1])
	}
	switch name {
	case "git":
		if g == nil {
			g, _ = c.Git()
		}
		if g == nil || g.Opaque {
			return Kind{}
		}
		return gitKind(g, env)
	case "npm", "pnpm", "yarn":
		return nodeKind(name, argv, c, env, depth)
	}
	if readOnly()[name] {
		return Kind{Verb: loops.Read, Cmd: name}
	}
	if t := toolTable(name); t != nil {
		return t.kind(name, argv[1:])
	}
	if f := toolFunc(name); f != nil {
		return f(name, argv[1:])
	}
	return Kind{}
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// ScriptKind is the widest kind among a parsed command's clauses, those it
// runs through wrappers included: with the files the call writes, the
// action a hook entry records. A clause no table knows counts as change.
func ScriptKind(s *shell.Script, env Env) Kind {
	k := Kind{}
	for _, c := range s.Clauses {
		ck := ClauseKind(c, env)
		if ck.Verb == "" {
			ck.Verb = loops.Change
		}
		k = Wider(k, ck)
	}
	if k.Verb == "" {
		k.Verb = loops.Change // nothing readable: counted as change, never as read
	}
	return k
}

// sub is one row of a tool table: a kind and why.
type sub struct {
	v   loops.Verb
	why string
}

var (
	rd = sub{v: loops.Read}
	ch = func(why string) sub { return sub{loops.Change, why} }
	sd = func(why string) sub { return sub{loops.Send, why} }
)

// table is a tool whose subcommand (one or two words) says its kind.
type table struct {
	widest sub            // an unknown subcommand, or an option before it the table does not know
	subs   map[string]sub // "publish", or "config get" for a two-word subcommand
	groups map[string]sub // a one-word subcommand that takes a second word; its row is the unknown second word's kind
	values map[string]bool
	flags  map[string]bool
	// optKinds raise a subcommand's kind when one of its options is given
	// ("build --push": a push).
	optKinds map[string]map[string]sub
}

// positional returns up to n words that are not options, skipping the
// values of the options the table knows; ok is false when an option before
// them is one the table does not know (its value could be the subcommand).
func positional(args []string, n int, values, flags map[string]bool) (out []string, rest []string, ok bool) {
	for i := 0; i < len(args) && len(out) < n; i++ {
		a := args[i]
		switch {
		case a == "--":
			return out, nil, true
		case strings.HasPrefix(a, "-") && len(a) > 1:
			name, _, hasValue := strings.Cut(a, "=")
			switch {
			case values[name] && !hasValue:
				i++
			case values[name] || flags[name] || name == "--help" || name == "--version" || name == "-h":
			case len(out) == 0:
				return out, args[i:], false
			}
		default:
			out = append(out, a)
			rest = args[i+1:]
		}
	}
	return out, rest, true
}

func (t *table) kind(name string, args []string) Kind {
	words, _, ok := positional(args, 2, t.values, t.flags)
	if !ok {
		return Kind{Verb: t.widest.v, Cmd: name, Why: t.widest.why}
	}
	if len(words) == 0 {
		// Only options the table knows: a version or help, unless the
		// bare command has a row of its own (`vercel` deploys).
		if s, bare := t.subs[""]; bare {
			return Kind{Verb: s.v, Cmd: name, Why: s.why}
		}
		return Kind{Verb: loops.Read, Cmd: name}
	}
	cmd := name + " " + words[0]
	s, found := sub{}, false
	if len(words) > 1 {
		s, found = t.subs[words[0]+" "+words[1]]
		if found {
			cmd += " " + words[1]
		}
	}
	if !found {
		if g, isGroup := t.groups[words[0]]; isGroup {
			s, found = g, true
			if len(words) > 1 {
				cmd += " " + words[1]
			}
		} else {
			s, found = t.subs[words[0]]
		}
	}
	if !found {
		s = t.widest
	}
	for _, a := range args {
		o, _, _ := strings.Cut(a, "=")
		if ok, hit := t.optKinds[words[0]][o]; hit && rank(ok.v) > rank(s.v) {
			s = ok
		}
	}
	return Kind{Verb: s.v, Cmd: cmd, Why: s.why}
}

// set makes a lookup set of words.
func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// rows gives every word the same row.
func rows(m map[string]sub, s sub, ws ...string) {
	for _, w := range ws {
		m[w] = s
	}
}
