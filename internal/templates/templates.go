// Package templates holds the starter loops offered by `gitwarrant new
// --template` and builds a loop file from the five interview answers
// (spec "Why a spec": know, how it is done, may do, stop, evidence).
package templates

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

//go:embed loops/*.loop.md
var files embed.FS

// Template is one starter loop.
type Template struct {
	Name        string
	Description string
	Body        []byte // the whole loop file
}

// List returns every template, sorted by name.
func List() []Template {
	entries, err := fs.ReadDir(files, "loops")
	if err != nil {
		// The directory is embedded at build time; failing here is a build bug.
		panic("templates: embedded loops missing: " + err.Error())
	}
	out := make([]Template, 0, len(entries))
	for _, e := range entries {
		t, err := load(e.Name())
		if err != nil {
			panic("templates: " + err.Error())
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Get returns the template called name.
func Get(name string) (Template, bool) {
	if !loops.ValidName(name) {
		return Template{}, false
	}
	t, err := load(name + loops.FileSuffix)
	return t, err == nil
}

// Names returns the template names, sorted, for help text and errors.
func Names() []string {
	var names []string
	for _, t := range List() {
		names = append(names, t.Name)
	}
	return names
}

func load(file string) (Template, error) {
	data, err := files.ReadFile("loops/" + file)
	if err != nil {
		return Template{}, err
	}
	l, err := loops.Parse(file, data)
	if err != nil {
		return Template{}, err
	}
	return Template{Name: l.Name, Description: l.Description, Body: data}, nil
}

// nameLineRE finds the `name:` line of the frontmatter.
var nameLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^name:[^\r\n]*`) })

// Render returns t's file with its `name:` line set to loopName and each
// `# gitwarrant:project <list>` line replaced by the typed entries proj
// found for that list (removed when it has none; kept when proj is nil), and nothing
// else changed, so the new loop diffs cleanly against its template. The
// result is parsed as `<loopName>.loop.md` before it is returned.
func Render(t Template, loopName string, proj *Project) ([]byte, error) {
	if !loops.ValidName(loopName) {
		return nil, fmt.Errorf("%q is not a loop name: use lowercase letters, digits and dashes (e.g. %s)", loopName, t.Name)
	}
	loc := nameLineRE().FindIndex(t.Body)
	if loc == nil {
		return nil, fmt.Errorf("template %s has no `name:` line: the template is broken, report it", t.Name)
	}
	var b bytes.Buffer
	b.Write(t.Body[:loc[0]])
	b.WriteString("name: " + loopName)
	b.Write(t.Body[loc[1]:])
	out := fillProject(b.Bytes(), proj)
	if _, err := loops.Parse(loopName+loops.FileSuffix, out); err != nil {
		return nil, fmt.Errorf("template %s does not render to a valid loop: %w", t.Name, err)
	}
	return out, nil
}

// Baseline is the name of the abstract loop `init` writes and every job
// loop `new` writes extends (docs/sessions.md#the-baseline).
const Baseline = "baseline"

// Extend returns a rendered loop that extends parent: an `extends:` line
// after its `name:` line. A loop that extends another, or is abstract,
// is returned as it is.
func Extend(body []byte, name, parent string) ([]byte, error) {
	l, err := loops.Parse(name+loops.FileSuffix, body)
	if err != nil {
		return nil, err
	}
	if l.Abstract || l.Extends.Text != "" {
		return body, nil
	}
	loc := nameLineRE().FindIndex(body)
	if loc == nil {
		return nil, fmt.Errorf("the loop has no `name:` line")
	}
	end := loc[1]
	if nl := bytes.IndexByte(body[end:], '\n'); nl >= 0 {
		end += nl + 1
	}
	var b bytes.Buffer
	b.Write(body[:end])
	b.WriteString("extends: " + parent + "\n")
	b.Write(body[end:])
	return b.Bytes(), nil
}

// projectLineRE finds the lines a template marks for the entries a
// repository's own build files supply.
var projectLineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^([ \t]*)# gitwarrant:project ([a-z]+)[ \t]*\r?\n`)
})

func fillProject(body []byte, proj *Project) []byte {
	if proj == nil {
		return body
	}
	return projectLineRE().ReplaceAllFunc(body, func(line []byte) []byte {
		m := projectLineRE().FindSubmatch(line)
		var b bytes.Buffer
		for _, e := range proj.Lists(string(m[2])) {
			b.Write(m[1])
			b.WriteString("- " + yamlItem(e) + "\n")
		}
		return b.Bytes()
	})
}

// yamlItem writes an entry as a plain scalar when YAML reads it back as
// written, else double-quoted.
func yamlItem(s string) string {
	if strings.ContainsAny(s[:1], "!&*?|>%@`'\"[]{},#-") || strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		q, _ := json.Marshal(s)
		return string(q)
	}
	return s
}
