package sign

import "strings"

// matchPattern is OpenSSH's match_pattern: `*` matches any run of
// characters, `?` exactly one, everything else itself (case-sensitive, as
// principals and namespaces are compared in sshsig.c).
func matchPattern(s, pattern string) bool {
	for {
		if pattern == "" {
			return s == ""
		}
		if pattern[0] == '*' {
			for len(pattern) > 0 && pattern[0] == '*' {
				pattern = pattern[1:]
			}
			if pattern == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if matchPattern(s[i:], pattern) {
					return true
				}
			}
			return false
		}
		if s == "" {
			return false
		}
		if pattern[0] != '?' && pattern[0] != s[0] {
			return false
		}
		s, pattern = s[1:], pattern[1:]
	}
}

// matchPatternList is OpenSSH's match_pattern_list: list is
// comma-separated patterns, a leading `!` negates one. A matching negated
// pattern refuses outright (-1); otherwise any positive match accepts (1);
// no match is 0.
func matchPatternList(s, list string) int {
	got := 0
	for _, p := range strings.Split(list, ",") {
		neg := strings.HasPrefix(p, "!")
		if neg {
			p = p[1:]
		}
		if !matchPattern(s, p) {
			continue
		}
		if neg {
			return -1
		}
		got = 1
	}
	return got
}
