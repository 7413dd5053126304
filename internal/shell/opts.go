package shell

import "strings"

// optSpec describes a command's options well enough to find where its
// operands (or the command it runs) start. See docs/shell.md#wrappers.
type optSpec struct {
	argShort string   // short options that take an argument (attached or next word)
	flags    string   // short options known to take none
	argLong  []string // long options that take an argument (=value or next word)
	flagLong []string // long options known to take none (or only =value)
	// permute: options may follow operands (GNU getopt); otherwise the
	// first operand ends the options.
	permute bool
}

type scanned struct {
	opts    []opt // options in order
	rest    int   // index of the first operand
	unknown []string
}

type opt struct {
	name  string // "-x" or "--long"
	value string
	has   bool // value given
}

func (s scanned) has(names ...string) bool {
	for _, o := range s.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

func (s scanned) values(names ...string) []string {
	var out []string
	for _, o := range s.opts {
		for _, n := range names {
			if o.name == n && o.has {
				out = append(out, o.value)
			}
		}
	}
	return out
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// scanOpts reads options from args[start:] until the first operand (or
// "--"). Unknown options are taken to have no argument and listed.
func scanOpts(args []string, start int, spec optSpec) scanned {
	s := scanned{rest: len(args)}
	i := start
	for i < len(args) {
		a := args[i]
		if a == "--" {
			s.rest = i + 1
			return s
		}
		if strings.HasPrefix(a, "--") {
			name, val, eq := strings.Cut(a[2:], "=")
			name = longPrefix(name, spec)
			o := opt{name: "--" + name, value: val, has: eq}
			switch {
			case inList(spec.argLong, name):
				if !eq && i+1 < len(args) {
					o.value, o.has = args[i+1], true
					i++
				}
			case inList(spec.flagLong, name):
			default:
				s.unknown = append(s.unknown, a)
			}
			s.opts = append(s.opts, o)
			i++
			continue
		}
		if len(a) > 1 && a[0] == '-' {
			for j := 1; j < len(a); j++ {
				c := a[j]
				if strings.IndexByte(spec.argShort, c) >= 0 {
					o := opt{name: "-" + string(c)}
					if j+1 < len(a) {
						o.value, o.has = a[j+1:], true
					} else if i+1 < len(args) {
						o.value, o.has = args[i+1], true
						i++
					}
					s.opts = append(s.opts, o)
					break
				}
				if strings.IndexByte(spec.flags, c) < 0 {
					s.unknown = append(s.unknown, "-"+string(c))
				}
				s.opts = append(s.opts, opt{name: "-" + string(c)})
			}
			i++
			continue
		}
		s.rest = i
		return s
	}
	return s
}

// operands returns the operands of a command whose options may come
// anywhere (GNU getopt permutation), after scanning with spec.
func operands(args []string, spec optSpec) ([]int, scanned) {
	var idx []int
	all := scanned{rest: len(args)}
	i := 1
	for i < len(args) {
		s := scanOpts(args, i, spec)
		all.opts = append(all.opts, s.opts...)
		all.unknown = append(all.unknown, s.unknown...)
		if s.rest >= len(args) {
			break
		}
		if s.rest > 0 && args[s.rest-1] == "--" && (s.rest-1 >= i) {
			for j := s.rest; j < len(args); j++ {
				idx = append(idx, j)
			}
			break
		}
		idx = append(idx, s.rest)
		i = s.rest + 1
	}
	return idx, all
}

// longPrefix expands an abbreviated long option as GNU getopt_long does:
// an exact name wins, else a prefix of exactly one known long option
// stands for it (`cp --target-dir=D` is --target-directory). An ambiguous
// or unknown prefix is left as it is (getopt refuses it, so the command
// fails). See docs/shell.md#wrappers.
func longPrefix(name string, spec optSpec) string {
	if name == "" || inList(spec.argLong, name) || inList(spec.flagLong, name) {
		return name
	}
	found := ""
	for _, list := range [][]string{spec.argLong, spec.flagLong} {
		for _, l := range list {
			if strings.HasPrefix(l, name) {
				if found != "" && found != l {
					return name
				}
				found = l
			}
		}
	}
	if found == "" {
		return name
	}
	return found
}
