package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// Hook managers own the git hooks directory; install works through them
// instead of fighting them (docs/design.md#enforcement-surfaces, docs/hook-protocol.md#hook-managers).

// lefthookFiles are lefthook's config file names, in its lookup order.
var lefthookFiles = []string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"}

// preCommitConfig is the pre-commit framework's config file.
const preCommitConfig = ".pre-commit-config.yaml"

// Hook ids in this repository's .pre-commit-hooks.yaml.
var preCommitIDs = map[string]string{"pre-commit": "gitwarrant-record", "commit-msg": "gitwarrant-trailer"}

// huskyLine is the marked line appended to a husky script. husky v9 runs
// .husky/<hook> with `sh -e` and the hook's arguments.
func huskyLine(hook string) string {
	return guarded(hook) + " # " + shimMarker
}

// huskyNewFile is the content of a husky script install creates.
const huskyNewFile = "#!/bin/sh\n"

// appendLine adds line at the end of data. When data lacks a final newline
// the line goes after a new one and keeps none itself, so cutLine can
// restore the bytes exactly.
func appendLine(data []byte, line string) []byte {
	out := append([]byte{}, data...)
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		return append(append(out, '\n'), line...)
	}
	return append(append(out, line...), '\n')
}

// cutSpan removes data[s:e] (whole lines, e past the newline or at EOF);
// when the span ends the file without a newline, the newline before it
// goes too (appendLine added it).
func cutSpan(data []byte, s, e int) []byte {
	if e == len(data) && !bytes.HasSuffix(data, []byte("\n")) && s > 0 {
		s--
	}
	return append(append([]byte{}, data[:s]...), data[e:]...)
}

// markedLine finds the line containing marker; it returns its span
// [start, end) including the newline, or -1.
func markedLine(data []byte, marker string) (int, int) {
	i := bytes.Index(data, []byte(marker))
	if i < 0 {
		return -1, -1
	}
	s := bytes.LastIndexByte(data[:i], '\n') + 1
	e := bytes.IndexByte(data[i:], '\n')
	if e < 0 {
		return s, len(data)
	}
	return s, i + e + 1
}

// planHusky appends gitwarrant's line to .husky/<hook> (created when
// absent); husky's own .husky/_ directory is never touched.
func (p *Plan) planHusky(dir, hook string) error {
	path := filepath.Join(dir, hook)
	data, existed, mode, err := fileState(path)
	if err != nil {
		return err
	}
	line := huskyLine(hook)
	if !existed {
		data, mode = []byte(huskyNewFile), 0o755
	}
	out := appendLine(data, line)
	if s, e := markedLine(data, " # "+shimMarker); s >= 0 {
		out = append(append(append([]byte{}, data[:s]...), line+"\n"...), data[e:]...)
		if e == len(data) && !bytes.HasSuffix(data, []byte("\n")) {
			out = out[:len(out)-1]
		}
	}
	p.add(path, data, existed, mode, out)
	return nil
}

// planUnhusky removes gitwarrant's line from .husky/<hook>, deleting a file
// that is left holding only what install created.
func (p *Plan) planUnhusky(dir, hook string) error {
	path := filepath.Join(dir, hook)
	data, existed, mode, err := fileState(path)
	if err != nil || !existed {
		return err
	}
	s, e := markedLine(data, " # "+shimMarker)
	if s < 0 {
		return nil
	}
	out := cutSpan(data, s, e)
	if string(out) == huskyNewFile {
		p.remove(path, data, mode)
		return nil
	}
	p.add(path, data, true, mode, out)
	return nil
}

// lefthookRun is the command lefthook runs ({1} is the first git argument).
func lefthookRun(hook string) string {
	return strings.ReplaceAll(guarded(hook), `"$1"`, `{1}`)
}

// yamlQuote renders s as a YAML double-quoted scalar (JSON strings are).
func yamlQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func lefthookBegin(hook string) string { return "# gitwarrant:begin " + hook }
func lefthookEnd(hook string) string   { return "# gitwarrant:end " + hook }

// lefthookEntry is the marked command entry, indented by ind with sub-level
// step.
func lefthookEntry(hook, ind, step string) string {
	return ind + lefthookBegin(hook) + " — added by `gitwarrant install`, removed by `gitwarrant uninstall`\n" +
		ind + preCommitIDs[hook] + ":\n" +
		ind + step + "run: " + yamlQuote(lefthookRun(hook)) + "\n" +
		ind + lefthookEnd(hook) + "\n"
}

// findLefthook returns lefthook's config path under workTree, or "".
func findLefthook(workTree string) string {
	for _, n := range lefthookFiles {
		if _, err := os.Stat(filepath.Join(workTree, n)); err == nil {
			return filepath.Join(workTree, n)
		}
	}
	return ""
}

// planLefthook adds gitwarrant's commands to lefthook's config as a marked
// text edit: a new top-level block when the hook is not configured yet, or
// an entry under its `commands:` map. Anything else (a `jobs:` list, flow
// style) is left to the user with the exact snippet to add. lefthook owns
// .git/hooks, so that directory is not touched.
func (p *Plan) planLefthook(path string, hooks []string) error {
	data, existed, mode, err := fileState(path)
	if err != nil || !existed {
		return err
	}
	orig := data
	for _, hook := range hooks {
		if bytes.Contains(data, []byte(lefthookBegin(hook))) || bytes.Contains(data, []byte("gitwarrant hook "+hook)) {
			continue // ours, or added by hand
		}
		out, ok := lefthookInsert(data, hook)
		if !ok || !lefthookHas(out, hook) {
			p.Snippets = append(p.Snippets, fmt.Sprintf("# add to %s under %s: → commands:\n%s", p.rel(path), hook, lefthookEntry(hook, "    ", "  ")))
			p.Notices = append(p.Notices, fmt.Sprintf("%s already configures %s in a shape install does not edit; add the snippet printed on stdout by hand", p.rel(path), hook))
			continue
		}
		data = out
	}
	p.add(path, orig, true, mode, data)
	return nil
}

// lefthookInsert returns data with gitwarrant's entry for hook added.
func lefthookInsert(data []byte, hook string) ([]byte, bool) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, false
	}
	if _, ok := doc[hook]; !ok {
		block := lefthookBegin(hook) + "\n" + hook + ":\n  commands:\n" + lefthookBody(hook) + lefthookEnd(hook) + "\n"
		if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
			return append(append(append([]byte{}, data...), '\n'), strings.TrimSuffix(block, "\n")...), true
		}
		return append(append([]byte{}, data...), block...), true
	}
	lines := strings.SplitAfter(string(data), "\n")
	top := -1
	for i, l := range lines {
		if strings.HasPrefix(l, hook+":") {
			top = i
		}
	}
	if top < 0 {
		return nil, false
	}
	for i := top + 1; i < len(lines); i++ {
		l := lines[i]
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(t, "#") {
			break // next top-level key
		}
		if strings.TrimSpace(l) != "commands:" {
			continue
		}
		parent := l[:len(l)-len(strings.TrimLeft(l, " "))]
		child := childIndent(lines[i+1:])
		if len(child) <= len(parent) {
			return nil, false
		}
		entry := lefthookEntry(hook, child, child[len(parent):])
		out := strings.Join(lines[:i+1], "") + entry + strings.Join(lines[i+1:], "")
		return []byte(out), true
	}
	return nil, false
}

// lefthookBody is a new top-level block's content between the markers.
func lefthookBody(hook string) string {
	return "    " + preCommitIDs[hook] + ":\n      run: " + yamlQuote(lefthookRun(hook)) + "\n"
}

func childIndent(lines []string) string {
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			return l[:len(l)-len(strings.TrimLeft(l, " "))]
		}
	}
	return ""
}

// lefthookHas checks, by parsing, that the edited config runs our command:
// a text edit that did not land where lefthook reads it is not kept.
func lefthookHas(data []byte, hook string) bool {
	var doc map[string]struct {
		Commands map[string]struct {
			Run string `yaml:"run"`
		} `yaml:"commands"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return false
	}
	return doc[hook].Commands[preCommitIDs[hook]].Run == lefthookRun(hook)
}

// planUnlefthook removes every marked block from lefthook's config.
func (p *Plan) planUnlefthook(path string) error {
	data, existed, mode, err := fileState(path)
	if err != nil || !existed {
		return err
	}
	out := data
	for _, hook := range gitHookNames {
		s, _ := markedLine(out, lefthookBegin(hook))
		_, e := markedLine(out, lefthookEnd(hook))
		if s >= 0 && e > s {
			out = cutSpan(out, s, e)
		}
	}
	p.add(path, data, true, mode, out)
	return nil
}

// preCommitSnippet is what a pre-commit framework user adds to
// .pre-commit-config.yaml; the framework owns .git/hooks/pre-commit.
func preCommitSnippet(version string) string {
	return fmt.Sprintf(`# add to .pre-commit-config.yaml under repos:
  - repo: https://github.com/gitwarrant/gitwarrant
    rev: v%s
    hooks:
      - id: %s
      - id: %s
# and install both stages: pre-commit install -t pre-commit -t commit-msg
# (or set default_install_hook_types: [pre-commit, commit-msg])
`, strings.TrimPrefix(version, "v"), preCommitIDs["pre-commit"], preCommitIDs["commit-msg"])
}
