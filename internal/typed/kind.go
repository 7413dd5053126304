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
		// `corepack pnpm@9.1.0 publish` runs that version of pnpm.
		argv, name = argv[1:], baseName(argv[1])
		if at := strings.IndexByte(name, '@'); at > 0 {
			name = name[:at]
		}
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
	case "bun":
		return bunKind(argv, c, env, depth)
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
	out, rest, ok, _ = positionalGap(args, n, values, flags)
	return out, rest, ok
}

// positionalGap is positional that also says how many words came before
// the first option it does not know after the first word (gap, -1 for
// none). Cobra's CLIs (gh, kubectl, docker, helm) and gcloud take an
// option they do not know between words as taking the next word as its
// value: `kubectl rollout -l status restart` restarts.
func positionalGap(args []string, n int, values, flags map[string]bool) (out []string, rest []string, ok bool, gap int) {
	gap = -1
	for i := 0; i < len(args) && len(out) < n; i++ {
		a := args[i]
		switch {
		case a == "--":
			return out, nil, true, gap
		case strings.HasPrefix(a, "-") && len(a) > 1:
			name, _, hasValue := strings.Cut(a, "=")
			switch {
			case values[name] && !hasValue:
				i++
			case values[name] || flags[name] || name == "--help" || name == "--version" || name == "-h":
			case len(out) == 0:
				return out, args[i:], false, gap
			case gap < 0 && !hasValue:
				gap = len(out)
			}
		default:
			out = append(out, a)
			rest = args[i+1:]
		}
	}
	return out, rest, true, gap
}

// onlyHelp reports arguments that are all a help or version option.
func onlyHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--help", "-h", "--version", "-v", "-V", "help", "version":
		default:
			return false
		}
	}
	return len(args) > 0
}

// twoWord reports a first word with second words of its own in the
// table: a group, or the first word of a two-word row.
func (t *table) twoWord(w string) bool {
	if _, g := t.groups[w]; g {
		return true
	}
	for k := range t.subs {
		if strings.HasPrefix(k, w+" ") {
			return true
		}
	}
	return false
}

func (t *table) kind(name string, args []string) Kind {
	words, _, ok, gap := positionalGap(args, 2, t.values, t.flags)
	if !ok {
		return Kind{Verb: t.widest.v, Cmd: name, Why: t.widest.why}
	}
	if len(words) == 0 {
		// Only options the table knows: a version or help, unless the
		// bare command has a row of its own (`vercel` deploys) or the
		// table has no rows at all (`semantic-release`, `np` publish).
		if s, bare := t.subs[""]; bare {
			return Kind{Verb: s.v, Cmd: name, Why: s.why}
		}
		if len(t.subs) == 0 && !onlyHelp(args) {
			return Kind{Verb: t.widest.v, Cmd: name, Why: t.widest.why}
		}
		return Kind{Verb: loops.Read, Cmd: name}
	}
	if gap == 1 && t.twoWord(words[0]) {
		// An option the table does not know between the two words may
		// take the second as its value (`docker compose -f ls push`).
		return Kind{Verb: t.widest.v, Cmd: name + " " + words[0], Why: t.widest.why + " (" + words[0] +
			" is given an option the gate does not know before its command)"}
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
	before := true
	for _, a := range args {
		o, _, _ := strings.Cut(a, "=")
		if ok, hit := t.optKinds[words[0]][o]; hit && rank(ok.v) > rank(s.v) {
			s = ok
		}
		if before = before && a != words[0]; before && rank(s.v) == rank(loops.Change) {
			// An option before the command that sends it elsewhere
			// (`docker -H ssh://prod rm db`).
			if ok, hit := t.optKinds[""][o]; hit {
				s = ok
			}
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
