package loops

import "strings"

// shellMeanings returns plain words for what a shell command spells
// tersely, one clause per line, so that ask and never entries written in
// plain language (`force push`) still catch `git push -f origin main`. It
// only ever adds words to the cautious screening (docs/loop-format.md#the-warrant: fuzzy only
// toward caution); allow coverage never sees them.
func shellMeanings(target string) string {
	var out []string
	for _, clause := range Clauses(target) {
		f := strings.Fields(clause)
		i := indexPair(f, "git", "push")
		if i < 0 {
			continue
		}
		for _, a := range f[i+2:] {
			switch {
			case a == "--force", strings.HasPrefix(a, "--force-"), a == "--mirror",
				len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'f'),
				len(a) > 1 && a[0] == '+':
				out = append(out, "force push "+clause)
			case a == "--delete", a == "-d", len(a) > 1 && a[0] == ':':
				out = append(out, "delete remote branch "+clause)
			}
		}
	}
	return strings.Join(out, "\n")
}

// indexPair returns the index of the first a immediately followed by b
// (git options such as `git -C dir push` are allowed in between), or -1.
func indexPair(f []string, a, b string) int {
	for i := 0; i < len(f); i++ {
		if f[i] != a {
			continue
		}
		for j := i + 1; j < len(f); j++ {
			if f[j] == b {
				return j - 1
			}
			if !strings.HasPrefix(f[j], "-") && (j == i+1 || !strings.HasPrefix(f[j-1], "-")) {
				break
			}
		}
	}
	return -1
}
