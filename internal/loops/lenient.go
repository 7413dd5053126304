package loops

import (
	"fmt"
	"strings"
)

// Warning is something a loop file gets away with but should not: the file
// loads, and `gitwarrant lint` reports it with its line.
type Warning struct {
	Line int // 1-based, in the whole file
	Msg  string
	Hint string
}

// lenientFields are the top-level single-line text fields whose unquoted
// value may hold `: ` (docs/loop-format.md#docket-leniency). Warrant lists never do:
// a list entry read two ways is a permission read two ways.
var lenientFields = []string{"name", "description", "goal", "stop", "budget"}

// lenient rewrites, in place, each top-level line `field: text: more` of a
// lenient field into `field: 'text: more'` — the rest of the line is the
// value, as docket reads it — and records a warning for it. YAML would
// otherwise reject the line ("mapping values are not allowed"), and one
// such file would make every unpinned hook call ask.
func (c *checker) lenient() {
	for i, line := range c.lines {
		key, rest, ok := strings.Cut(line, ":")
		if !ok || !contains(lenientFields, key) || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		v := strings.TrimSpace(rest)
		if v == "" || strings.ContainsRune(`"'[{|>&*!%@`+"`", rune(v[0])) || strings.HasPrefix(v, "#") {
			continue
		}
		if !strings.Contains(v, ": ") && !strings.HasSuffix(v, ":") {
			continue
		}
		c.lines[i] = key + ": '" + strings.ReplaceAll(v, "'", "''") + "'"
		c.warnings = append(c.warnings, Warning{Line: i + 1 + c.off,
			Msg:  fmt.Sprintf("unquoted `: ` in %s: the rest of the line is read as the value", key),
			Hint: fmt.Sprintf("quote the value: %s: %q", key, v)})
	}
}
