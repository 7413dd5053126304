package gate

import (
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds symlink hops while resolving one path (Linux's own limit
// is 40); a longer chain resolves to what was reached, which is still
// screened lexically as well.
const maxLinks = 40

// Resolve makes path absolute and follows it the way the kernel would when
// writing it (docs/threat-model.md#how-a-written-path-is-resolved): against
// cwd, `~` (home), `..` after each symlink, symlinks in every existing
// component, and the target of a final symlink even when that target does
// not exist yet (a dangling link is where a write lands). It never fails:
// the part that does not exist is appended as written.
func Resolve(path, cwd, home string) string {
	// Joined without cleaning: `..` after a symlink goes up from the
	// link's target, as the kernel does (src/h/../config, with src/h a link
	// to .git/hooks, is .git/config), so it is applied during the walk.
	if path == "~" || strings.HasPrefix(path, "~/") {
		if home != "" {
			path = home + string(filepath.Separator) + path[1:]
		}
	}
	if !filepath.IsAbs(path) {
		if cwd == "" {
			cwd = string(filepath.Separator)
		}
		path = cwd + string(filepath.Separator) + path
	}
	rest := splitPath(path)
	cur := string(filepath.Separator)
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 || hops >= maxLinks {
			if err != nil {
				// Nothing below a missing component exists: the rest is
				// taken as written, `..` applied lexically.
				return filepath.Join(append([]string{next}, rest...)...)
			}
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			cur = next
			continue
		}
		hops++
		if filepath.IsAbs(target) {
			cur = string(filepath.Separator)
		}
		rest = append(splitPath(target), rest...)
	}
	return cur
}

func splitPath(p string) []string {
	return strings.Split(filepath.ToSlash(p), "/")
}

// Lexical is path made absolute against cwd (and ~) and cleaned, without
// looking at the file system: the name as the agent wrote it.
func Lexical(path, cwd, home string) string {
	if path == "~" || strings.HasPrefix(path, "~/") {
		if home != "" {
			path = filepath.Join(home, path[1:])
		}
	}
	if !filepath.IsAbs(path) && cwd != "" {
		path = filepath.Join(cwd, path)
	}
	return filepath.Clean(path)
}

// within reports whether p is dir or inside it, ignoring case (macOS and
// Windows file systems do).
func within(p, dir string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(strings.ToLower(dir), strings.ToLower(p))
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}
