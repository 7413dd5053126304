package gitx

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// ConfigEntries reads every key of the given Git config files, in order,
// into canonical keys (section and name lower-cased, the subsection kept:
// `remote.origin.push`) with all their values, the files' own includes
// (include.path, and includeIf.*.path whatever its condition) followed
// three levels deep. A file that cannot be read adds nothing. It serves
// the gate, which must see every value git might use (a push refspec, a
// mirror flag, push.default) without running git.
func ConfigEntries(files ...string) map[string][]string {
	out := map[string][]string{}
	seen := map[string]bool{}
	var read func(path string, depth int)
	read = func(path string, depth int) {
		if depth > 3 || seen[path] {
			return
		}
		seen[path] = true
		b, err := ReadFile(path)
		if err != nil {
			return
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 0, 4096), 1<<20)
		section := ""
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			for strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`) && sc.Scan() {
				line = line[:len(line)-1] + sc.Text()
			}
			if strings.HasPrefix(line, "[") {
				head, rest, _ := strings.Cut(line[1:], "]")
				section = configSection(head)
				line = strings.TrimSpace(rest)
			}
			if section == "" || line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
			k, v, hasEq := strings.Cut(line, "=")
			key := section + "." + strings.ToLower(strings.TrimSpace(k))
			val := "true"
			if hasEq {
				val = configUnquote(strings.TrimSpace(v))
			}
			out[key] = append(out[key], val)
			if key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path") {
				p := val
				if strings.HasPrefix(p, "~/") {
					if h, err := os.UserHomeDir(); err == nil {
						p = filepath.Join(h, p[2:])
					}
				}
				if !filepath.IsAbs(p) {
					p = filepath.Join(filepath.Dir(path), p)
				}
				read(p, depth+1)
			}
		}
	}
	for _, f := range files {
		if f != "" {
			read(f, 0)
		}
	}
	return out
}

// configSection turns a section header's inside (`remote "origin"`,
// `branch.main`, `core`) into the canonical prefix of its keys.
func configSection(head string) string {
	head = strings.TrimSpace(head)
	name, sub, ok := strings.Cut(head, " ")
	if !ok {
		// the deprecated [section.subsection] form lower-cases both
		return strings.ToLower(head)
	}
	sub = strings.TrimSpace(sub)
	if len(sub) >= 2 && sub[0] == '"' && sub[len(sub)-1] == '"' {
		sub = sub[1 : len(sub)-1]
	}
	sub = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(sub)
	return strings.ToLower(strings.TrimSpace(name)) + "." + sub
}
