package loops

import (
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Path patterns of Read(…) and Edit(…) (docs/typed-entries.md#paths):
// gitignore rules relative to the repository root. Without a slash a
// pattern matches at any depth; with one it is anchored at the root;
// `//abs/…` is absolute and `~/…` is under the home directory. A path
// outside the repository matches only absolute and home patterns.

type pathBase int

const (
	baseRepo pathBase = iota
	baseAbs
	baseHome
)

type pathPattern struct {
	base pathBase
	glob string // doublestar pattern, relative to its base ("/…" when absolute)
}

func parsePathPattern(arg string) (*pathPattern, error) {
	s := arg
	if s != strings.TrimSpace(s) {
		return nil, fmt.Errorf("a path pattern has no leading or trailing spaces")
	}
	p := &pathPattern{}
	switch {
	case strings.HasPrefix(s, "//"):
		p.base, s = baseAbs, "/"+strings.TrimLeft(s, "/")
	case s == "~" || strings.HasPrefix(s, "~/"):
		p.base, s = baseHome, strings.TrimLeft(strings.TrimPrefix(s, "~"), "/")
		if s == "" {
			s = "**"
		}
	case strings.HasPrefix(s, "~"):
		return nil, fmt.Errorf("only your own home is written `~/…`; write another user's home as //home/<user>/…")
	case strings.HasPrefix(s, "/"):
		s = strings.TrimLeft(s, "/") // anchored at the repository root
	default:
		// gitignore: a slash anywhere but at the end anchors the pattern.
		if !strings.Contains(strings.TrimSuffix(s, "/"), "/") {
			s = "**/" + s
		}
	}
	s = strings.TrimSuffix(s, "/")
	if s == "" || s == "**/**" || s == "**/*" {
		s = "**" // every path below the base
	}
	for _, part := range strings.Split(s, "/") {
		if part == ".." || part == "." {
			return nil, fmt.Errorf("a path pattern may not hold %q: write it from the repository root, or as //absolute/path or ~/path", part)
		}
	}
	if !doublestar.ValidatePattern(s) {
		return nil, fmt.Errorf("%q is not a valid glob pattern", arg)
	}
	p.glob = s
	return p, nil
}

// outside reports whether the pattern names paths outside the repository.
func (p *pathPattern) outside() bool { return p.base != baseRepo }

// FilePath is a file a tool call touches, as the matchers see it: an
// absolute, cleaned path with symbolic links already resolved by the caller,
// the repository root and the home directory (both absolute; Home may be "").
type FilePath struct {
	Abs, Root, Home string
}

// Rel returns the path relative to the repository root and whether it lies
// inside it ("." for the root itself).
func (f FilePath) Rel() (string, bool) {
	return within(f.Abs, f.Root)
}

func within(abs, base string) (string, bool) {
	if base == "" || abs == "" {
		return "", false
	}
	abs, base = path.Clean(abs), path.Clean(base)
	if abs == base {
		return ".", true
	}
	prefix := strings.TrimSuffix(base, "/") + "/"
	if strings.HasPrefix(abs, prefix) {
		return abs[len(prefix):], true
	}
	return "", false
}

// match reports whether the pattern names f: f itself or a directory
// holding it (gitignore: a matched directory covers what is below it).
func (p *pathPattern) match(f FilePath) bool {
	var subject string
	switch p.base {
	case baseRepo:
		rel, ok := f.Rel()
		if !ok {
			return false
		}
		subject = rel
	case baseAbs:
		if !strings.HasPrefix(f.Abs, "/") {
			return false
		}
		subject = path.Clean(f.Abs)
	case baseHome:
		rel, ok := within(f.Abs, f.Home)
		if !ok {
			return false
		}
		subject = rel
	}
	if subject == "." {
		return p.glob == "**"
	}
	for s := subject; s != "" && s != "." && s != "/"; s = path.Dir(s) {
		if ok, _ := doublestar.Match(p.glob, s); ok {
			return true
		}
	}
	return false
}

// MatchPath reports whether a Read or Edit entry names a call of that kind
// on f. A Read entry names Read, Glob, Grep, LS and NotebookRead; an Edit
// entry names Write, Edit, MultiEdit and NotebookEdit. kind is ToolRead or
// ToolEdit.
func (t *Typed) MatchPath(kind string, f FilePath) bool {
	return t.Tool == kind && t.path != nil && t.path.match(f)
}

// coversGlob reports whether every path a search glob can name lies within
// the pattern (an allow entry must cover every path-like parameter of a
// call: Grep's glob, Glob's pattern). glob is relative to dir f. It is
// deliberately narrow: the pattern names the whole repository, a folder
// the glob stays inside, or the same any-depth file pattern.
func (p *pathPattern) coversGlob(f FilePath, glob string) bool {
	if p.base != baseRepo || strings.Contains(glob, "..") || strings.HasPrefix(glob, "/") || strings.HasPrefix(glob, "~") {
		return false
	}
	dir, ok := f.Rel()
	if !ok {
		return false
	}
	subject := path.Join(dir, glob)
	switch {
	case p.glob == "**":
		return true
	case strings.HasSuffix(p.glob, "/**") && !strings.ContainsAny(p.glob[:len(p.glob)-3], "*?[{"):
		return strings.HasPrefix(subject, p.glob[:len(p.glob)-2])
	case strings.HasPrefix(p.glob, "**/") && !strings.Contains(p.glob[3:], "/"):
		return path.Base(subject) == p.glob[3:] && !strings.Contains(path.Dir(subject), "{")
	}
	return false
}

// mayNameBelow is the cautious reading of a recursive read of directory
// f: the pattern names f (or a folder holding it), or, for a pattern
// outside the repository (`~/…`, `//…`), its fixed leading folders lie
// inside f — `~/.ssh/**` for `grep -r x ~/.ssh` and for `grep -r x ~`.
// Patterns in the repository are not taken to lie inside every directory
// searched (`**/.env`, `config/credentials.yml`): that would stop every
// `grep -r` of the work tree.
func (p *pathPattern) mayNameBelow(f FilePath) bool {
	if p.match(f) {
		return true
	}
	var base string
	switch p.base {
	case baseRepo:
		return false
	case baseHome:
		base = f.Home
	case baseAbs:
		base = "/"
	}
	if base == "" {
		return false
	}
	var lit []string
	for _, seg := range strings.Split(strings.TrimPrefix(p.glob, "/"), "/") {
		if strings.ContainsAny(seg, "*?[{\\") {
			break
		}
		lit = append(lit, seg)
	}
	if len(lit) == 0 {
		return false
	}
	fixed := path.Join(append([]string{base}, lit...)...)
	_, inside := within(fixed, f.Abs)
	return inside
}

// mayNameGlob is the cautious reading for ask and never: a search glob is
// screened when it spells every literal part of the pattern (`**/secrets*`
// against `secrets`, `*.pem` against `*.pem`; `tsconfig*.json` does not
// spell `*password*.json`).
func (p *pathPattern) mayNameGlob(glob string) bool {
	g := strings.ToLower(glob)
	n := 0
	for _, part := range strings.FieldsFunc(p.glob, func(r rune) bool { return strings.ContainsRune("/*?[]{}", r) }) {
		if len(part) < 2 {
			continue
		}
		if !strings.Contains(g, strings.ToLower(part)) {
			return false
		}
		n++
	}
	return n > 0
}
