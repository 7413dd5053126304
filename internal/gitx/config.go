package gitx

import (
	"bufio"
	"bytes"
	"strings"
)

// ConfigValue returns the last value of section.key (no subsection) in one
// Git config file, or "" when the file cannot be read or has no such key —
// the answer go-git's format/config decoder gave, without linking it: it
// pulls in gcfg and encoding/gob, whose initialisation every hook call
// paid (objects.go explains why start-up matters). Section and key names
// are case-insensitive, as in Git. Includes are not followed (go-git did
// not follow them either).
func ConfigValue(path, section, key string) string {
	return ConfigValues(path, section, key)[0]
}

// ConfigValues is ConfigValue for several keys of one section, reading
// the file once: the value of each key, in order.
func ConfigValues(path, section string, keys ...string) []string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = section + "." + k
	}
	return ConfigKeys(path, names...)
}

// ConfigKeys is ConfigValue for several "section.key" names (no
// subsection, sections may differ), reading the file once: the value of
// each, in order.
func ConfigKeys(path string, names ...string) []string {
	vals := make([]string, len(names))
	b, err := ReadFile(path)
	if err != nil {
		return vals
	}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		for strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`) && sc.Scan() {
			line = line[:len(line)-1] + sc.Text() // a continued value
		}
		if strings.HasPrefix(line, "[") {
			name, rest, _ := strings.Cut(line[1:], "]")
			section = strings.TrimSpace(name)
			line = strings.TrimSpace(rest) // `[user] name = x` is valid
		}
		if section == "" || line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, hasEq := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		for i, n := range names {
			sec, key, _ := strings.Cut(n, ".")
			if !strings.EqualFold(section, sec) || !strings.EqualFold(k, key) {
				continue
			}
			if !hasEq {
				vals[i] = "true" // a bare key is boolean true
				continue
			}
			vals[i] = configUnquote(strings.TrimSpace(v))
		}
	}
	return vals
}

// configUnquote strips comments and quotes and resolves escapes in a
// config value.
func configUnquote(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			default:
				b.WriteByte(v[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}
