package shell

import (
	"strings"
	"sync"
)

// gitOption is one option of a git subcommand, as its parse-options table
// declares it.
type gitOption struct {
	long  string
	arg   bool // takes an argument (attached with = or the next word)
	noneg bool // --no-<long> is not accepted
	alias string
}

type gitShort struct {
	long string // "" for a short-only option
	arg  bool
}

type gitOptions struct {
	long  []gitOption
	short map[byte]gitShort
}

var (
	gitOptsMu sync.Mutex
	gitOpts   map[string]*gitOptions // made on first use, under gitOptsMu
)

// buildGitOpts reads one subcommand's entries of gitOptTable (generated
// from git) and gitOptExtra (options of newer git) into a lookup table, or
// returns nil when neither names it. Only the subcommands a call uses are
// read: parsing the whole table was a tenth of a millisecond of every hook
// call (docs/threat-model.md#cost).
func buildGitOpts(sub string) *gitOptions {
	spec, inTable := gitOptTable()[sub]
	extra, inExtra := gitOptExtra()[sub]
	if !inTable && !inExtra {
		return nil
	}
	o := parseGitOptSpec(spec[0], spec[1])
	if inExtra {
		add := parseGitOptSpec(extra[0], extra[1])
		for _, l := range add.long {
			if o.find(l.long) == nil {
				o.long = append(o.long, l)
			}
		}
		for k, v := range add.short {
			o.short[k] = v
		}
	}
	return o
}

func parseGitOptSpec(long, short string) *gitOptions {
	o := &gitOptions{short: map[byte]gitShort{}}
	for _, f := range strings.Fields(long) {
		opt := gitOption{}
		if a, b, ok := strings.Cut(f, ">"); ok {
			f, opt.alias = a, b
		}
		opt.noneg = strings.HasSuffix(f, "!")
		f = strings.TrimSuffix(f, "!")
		opt.arg = strings.HasSuffix(f, "=")
		opt.long = strings.TrimSuffix(f, "=")
		o.long = append(o.long, opt)
	}
	for _, f := range strings.Fields(short) {
		if f == "" {
			continue
		}
		c := f[0]
		s := gitShort{}
		switch {
		case len(f) > 2 && f[1] == ':':
			s.long = f[2:]
			if l := o.find(s.long); l != nil {
				s.arg = l.arg
			}
		case strings.HasSuffix(f, "="):
			s.arg = true
		}
		o.short[c] = s
	}
	return o
}

func (o *gitOptions) find(long string) *gitOption {
	for i := range o.long {
		if o.long[i].long == long {
			return &o.long[i]
		}
	}
	return nil
}

// lookupGitOpts returns the option table for a subcommand ("push",
// "reflog expire" …), nil when there is none.
func lookupGitOpts(sub string) *gitOptions {
	gitOptsMu.Lock()
	defer gitOptsMu.Unlock()
	o, ok := gitOpts[sub]
	if !ok {
		o = buildGitOpts(sub)
		if gitOpts == nil {
			gitOpts = map[string]*gitOptions{}
		}
		gitOpts[sub] = o
	}
	return o
}

// matchLong resolves a long option (without its leading "--") exactly as
// git's parse-options parse_long_opt does: an exact match wins; otherwise a
// unique prefix of an option, or of its negation (--no-…), is that option;
// an option named no-x also answers to --x (negated). Two candidates that
// are not aliases of one another make the prefix ambiguous.
func (o *gitOptions) matchLong(arg string) (opt *gitOption, unset bool, value string, hasValue bool, ambiguous []string) {
	argEnd := strings.IndexByte(arg, '=')
	name := arg
	if argEnd >= 0 {
		name = arg[:argEnd]
	}
	var abbrev, ambig *gitOption
	var abbrevUnset, ambigUnset bool
	for i := range o.long {
		op := &o.long[i]
		longName := op.long
		flags, optFlags := false, false
		for {
			rest, ok := strings.CutPrefix(arg, longName)
			if !ok {
				abbreviated := false
				switch {
				case strings.HasPrefix(longName, name):
					abbreviated = true
				case op.noneg:
				case strings.HasPrefix("no-", arg): // negated and abbreviated very much
					flags = true
					abbreviated = true
				case !strings.HasPrefix(arg, "no-"):
					if n, ok := strings.CutPrefix(longName, "no-"); ok {
						longName, optFlags = n, true
						continue // again, with the name without no-
					}
				default:
					flags = true
					if r, ok := strings.CutPrefix(arg[3:], longName); ok {
						rest = r
						goto exact
					}
					abbreviated = strings.HasPrefix(longName, arg[3:])
				}
				if abbreviated {
					if abbrev != nil && !isGitAlias(abbrev, op) {
						ambig, ambigUnset = abbrev, abbrevUnset
					}
					abbrev, abbrevUnset = op, flags != optFlags
				}
				break
			}
		exact:
			if rest != "" && rest[0] != '=' {
				break
			}
			if rest != "" {
				value, hasValue = rest[1:], true
			}
			return op, flags != optFlags, value, hasValue, nil
		}
	}
	if ambig != nil {
		return nil, false, "", false, []string{dashName(ambig, ambigUnset), dashName(abbrev, abbrevUnset)}
	}
	if abbrev != nil {
		if argEnd >= 0 && !abbrevUnset {
			value, hasValue = arg[argEnd+1:], true
		}
		return abbrev, abbrevUnset, value, hasValue, nil
	}
	return nil, false, "", false, nil
}

func isGitAlias(a, b *gitOption) bool {
	return a.alias == b.long || b.alias == a.long || (a.alias != "" && a.alias == b.alias)
}

// dashName is the canonical spelling of an option as given: --name, or
// --no-name when negated (--x for a negated no-x).
func dashName(o *gitOption, unset bool) string {
	name := o.long
	if o.alias != "" {
		name = o.alias
	}
	if !unset {
		return "--" + name
	}
	if n, ok := strings.CutPrefix(name, "no-"); ok {
		return "--" + n
	}
	return "--no-" + name
}

// GitOpt is one option given to a git subcommand, by its long name after
// prefix expansion (short options are given their long name when they have
// one).
type GitOpt struct {
	Name     string // long name without dashes ("force", "no-verify"), or the short letter
	Negated  bool   // --no-<name> (or --<x> for an option named no-<x>)
	Value    string
	HasValue bool
	Word     Word // the argument as written
}

// is reports whether the option is name given positively.
func (o GitOpt) is(name string) bool { return o.Name == name && !o.Negated }

// parseGitArgs expands a subcommand's arguments with its option table:
// long options by unique prefix, short clusters split. Without a table the
// arguments are kept and options are recorded as written.
func parseGitArgs(sub string, args []Word, g *Git) {
	table := lookupGitOpts(sub)
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		if t == "--" || t == "--end-of-options" {
			g.Args = append(g.Args, a)
			if t == "--" {
				g.operands(args[i+1:]...)
				g.Args = append(g.Args, args[i+1:]...)
				g.DashDash = true
				return
			}
			g.operands(args[i+1:]...)
			g.Args = append(g.Args, args[i+1:]...)
			return
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			g.operands(a)
			g.Args = append(g.Args, a)
			continue
		}
		if !a.Literal || a.Glob {
			g.opaque("option word is not literal: " + t)
		}
		if table == nil {
			name, val, eq := strings.Cut(strings.TrimLeft(t, "-"), "=")
			g.option(GitOpt{Name: name, Value: val, HasValue: eq, Word: a})
			g.Args = append(g.Args, a)
			continue
		}
		if strings.HasPrefix(t, "--") {
			op, unset, val, has, amb := table.matchLong(t[2:])
			switch {
			case amb != nil:
				g.opaque("ambiguous option " + t + " (could be " + amb[0] + " or " + amb[1] + ")")
				g.Args = append(g.Args, a)
				continue
			case op == nil:
				g.opaque("unknown option " + t + " to git " + sub)
				g.Args = append(g.Args, a)
				continue
			}
			name := op.long
			if op.alias != "" {
				name = op.alias
			}
			if strings.HasPrefix(name, "no-") && unset {
				name, unset = name[3:], false
			}
			if op.arg && !has && !unset && i+1 < len(args) {
				i++
				val, has = args[i].Text, true
				if !args[i].Literal {
					g.opaque("option value is not literal: " + t)
				}
			}
			o := GitOpt{Name: name, Negated: unset, Value: val, HasValue: has, Word: a}
			g.option(o)
			exp := a
			exp.Text = dashName(&gitOption{long: name}, unset)
			if has && !op.arg || (has && strings.Contains(t, "=")) {
				exp.Text += "=" + val
			}
			g.Args = append(g.Args, exp)
			if op.arg && has && !strings.Contains(t, "=") {
				g.Args = append(g.Args, args[i])
			}
			continue
		}
		g.Args = append(g.Args, a)
		for j := 1; j < len(t); j++ {
			s, ok := table.short[t[j]]
			if !ok {
				g.opaque("unknown option -" + string(t[j]) + " to git " + sub)
				continue
			}
			name := s.long
			if name == "" {
				name = string(t[j])
			}
			o := GitOpt{Name: name, Word: a}
			if s.arg {
				if j+1 < len(t) {
					o.Value, o.HasValue = t[j+1:], true
				} else if i+1 < len(args) {
					i++
					o.Value, o.HasValue = args[i].Text, true
					g.Args = append(g.Args, args[i])
					if !args[i].Literal {
						g.opaque("option value is not literal: " + t)
					}
				}
				g.option(o)
				break
			}
			g.option(o)
		}
	}
}

// operands and option record the arguments in the order written, for
// Spellings.
func (g *Git) operands(ws ...Word) {
	for _, w := range ws {
		g.order = append(g.order, -1-len(g.Operands))
		g.Operands = append(g.Operands, w)
	}
}

func (g *Git) option(o GitOpt) {
	g.order = append(g.order, len(g.Options))
	g.Options = append(g.Options, o)
}

// Spelt is one word of a git command as an ask or never entry may spell
// it: the subcommand or an operand ('w'), an option under one of its
// names ('o'), or an option's value ('v').
type Spelt struct {
	Text string
	Role byte
}

// Spellings returns the subcommand and its arguments in the order written,
// every option spelt both ways — its short letter when it has one, then
// --long (or --no-long) — followed by its value, each word with its role.
// Ask and never entries are matched against it, so `git commit -qam wip`
// meets an entry written `git commit -am` or `git commit --all`, and a
// value never stands for a subcommand or an option: `git checkout
// --conflict=merge` does not meet `git merge`, nor `git switch -cfeature`
// `git switch -f` (docs/typed-entries.md#commands).
func (g *Git) Spellings() []Spelt {
	var out []Spelt
	for _, f := range strings.Fields(g.Sub) {
		out = append(out, Spelt{f, 'w'})
	}
	table := lookupGitOpts(g.Sub)
	for _, k := range g.order {
		if k >= 0 {
			out = append(out, g.Options[k].spelt(table)...)
		} else {
			out = append(out, Spelt{g.Operands[-1-k].Text, 'w'})
		}
	}
	return out
}

// spelt is one option under each of its names, then its value.
func (o GitOpt) spelt(table *gitOptions) []Spelt {
	var out []Spelt
	if len(o.Name) == 1 {
		out = append(out, Spelt{"-" + o.Name, 'o'})
	} else {
		if table != nil && !o.Negated {
			for c, s := range table.short {
				if s.long == o.Name {
					out = append(out, Spelt{"-" + string(c), 'o'})
					break
				}
			}
		}
		if o.Negated {
			out = append(out, Spelt{"--no-" + o.Name, 'o'})
		} else {
			out = append(out, Spelt{"--" + o.Name, 'o'})
		}
	}
	if o.HasValue {
		out = append(out, Spelt{o.Value, 'v'})
	}
	return out
}

// SplitAttached spells a short option written with its value attached
// (`-bfeature`, `-qbfeature`) as the option and the value apart (`-b`,
// `feature`; `-qb`, `feature`), as an allow entry names it (`git checkout
// -b *`); ok is false for any other word.
func SplitAttached(sub, t string) (opt, val string, ok bool) {
	if len(t) < 3 || t[0] != '-' || t[1] == '-' {
		return "", "", false
	}
	table := lookupGitOpts(sub)
	if table == nil {
		return "", "", false
	}
	for j := 1; j < len(t); j++ {
		s, known := table.short[t[j]]
		if !known {
			return "", "", false
		}
		if s.arg {
			if j+1 < len(t) {
				return t[:j+1], t[j+1:], true
			}
			return "", "", false
		}
	}
	return "", "", false
}
