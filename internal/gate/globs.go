package gate

import "strings"

// Patterns for screening a glob word against the protected places
// (docs/threat-model.md#globs-and-words-the-gate-cannot-read). A pattern
// is a lower-cased path in which starOne stands for any run of characters
// without a slash (the shell's `*`), anyOne for one such character (`?`,
// `[…]`), and starAll for any run at all (`**`, or a protected place's
// "and everything below it").
const (
	starOne = '\x01'
	anyOne  = '\x02'
	starAll = '\x03'
)

// globPattern turns a shell glob into a pattern. Classes `[…]` become one
// character; `**` becomes starAll; a backslash escapes. Whether `*` may
// match a leading dot is ignored: `shopt -s dotglob` may be on.
func globPattern(g string) string {
	var b strings.Builder
	g = strings.ToLower(g)
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '\\':
			if i+1 < len(g) {
				i++
				b.WriteByte(g[i])
			}
		case '*':
			if i+1 < len(g) && g[i+1] == '*' {
				for i+1 < len(g) && g[i+1] == '*' {
					i++
				}
				b.WriteByte(starAll)
			} else {
				b.WriteByte(starOne)
			}
		case '?':
			b.WriteByte(anyOne)
		case '[':
			if j := strings.IndexByte(g[i+1:], ']'); j >= 0 {
				i += j + 1
				b.WriteByte(anyOne)
			} else {
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// literalPattern is a plain path as a pattern (lower-cased).
func literalPattern(p string) string { return strings.ToLower(p) }

// intersect reports whether some string matches both patterns.
func intersect(a, b string) bool {
	memo := make([]int8, (len(a)+1)*(len(b)+1))
	var rec func(i, j int) bool
	rec = func(i, j int) bool {
		k := i*(len(b)+1) + j
		if memo[k] != 0 {
			return memo[k] > 0
		}
		r := step(a, b, i, j, rec)
		if r {
			memo[k] = 1
		} else {
			memo[k] = -1
		}
		return r
	}
	return rec(0, 0)
}

func isStar(c byte) bool { return c == starOne || c == starAll }

func step(a, b string, i, j int, rec func(i, j int) bool) bool {
	switch {
	case i == len(a) && j == len(b):
		return true
	case i < len(a) && isStar(a[i]):
		if rec(i+1, j) {
			return true
		}
		if j < len(b) && consumes(a[i], b[j]) {
			if isStar(b[j]) {
				return rec(i, j+1)
			}
			return rec(i, j+1)
		}
		return false
	case j < len(b) && isStar(b[j]):
		if rec(i, j+1) {
			return true
		}
		return i < len(a) && consumes(b[j], a[i]) && rec(i+1, j)
	case i < len(a) && j < len(b):
		return chars(a[i], b[j]) && rec(i+1, j+1)
	}
	return false
}

// consumes reports whether star s can absorb what c stands for.
func consumes(s, c byte) bool {
	if s == starAll {
		return true
	}
	// starOne: not a slash, and not something that may be a slash.
	return c != '/' && c != starAll
}

// chars reports whether two single-character pattern items can be equal.
func chars(x, y byte) bool {
	switch {
	case x == anyOne && y == anyOne:
		return true
	case x == anyOne:
		return y != '/'
	case y == anyOne:
		return x != '/'
	}
	return x == y
}
