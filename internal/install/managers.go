package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/protect"
	"gopkg.in/yaml.v3"
)

// Hook managers own the git hooks directory; install works through them
// instead of fighting them (docs/hook-protocol.md#hook-managers,
// docs/install.md#hook-managers). Their configuration is committed and
// shared, so it names gitwarrant by name; every edit is a marked block of
// whole lines placed by the YAML parser's positions, so the rest of the
// file keeps its bytes, comments and order, and uninstall cuts the block.

// The hook managers' files come from the one list self-protection guards
// (internal/protect), so install never writes a file the gate leaves open.
var (
	// LefthookFiles are lefthook's config file names, in its lookup order.
	LefthookFiles = protect.LefthookFiles
	// HuskyDir is husky's directory of user scripts.
	HuskyDir = protect.HuskyDir
)

// PreCommitConfig is the pre-commit framework's config file.
const PreCommitConfig = protect.PreCommitConfig

// PreCommitIDs are the hook ids gitwarrant's pre-commit framework hooks use,
// here and in the repository's .pre-commit-hooks.yaml; lefthook commands
// carry the same names.
var PreCommitIDs = map[string]string{"pre-commit": "gitwarrant-record", "commit-msg": "gitwarrant-trailer"}

// hookInvocation is the gitwarrant command a git hook runs, by name.
func hookInvocation(hook string) string {
	if hook == "commit-msg" {
		return `gitwarrant hook commit-msg "$1"`
	}
	return "gitwarrant hook " + hook
}

// guarded wraps the invocation for committed configuration, shared by
// teammates who may not have gitwarrant yet: a missing binary warns and
// lets the commit through (CI still verifies every chain and pinned head,
// docs/design.md#the-ci-gate) — unless the repository pins a gate
// (--loop or --strict in its Claude Code settings), which refuses the
// commit, as the per-clone hook does (hooks/pre-commit). `doctor` says
// when gitwarrant does not resolve.
func guarded(hook string) string {
	return fmt.Sprintf(`if command -v gitwarrant >/dev/null 2>&1; then %s || exit $?; else case "$(cat .claude/settings.json .claude/settings.local.json 2>/dev/null)" in *"gitwarrant hook claude "*--loop* | *"gitwarrant hook claude "*--strict*) echo "%s" >&2; exit 1 ;; *) echo "%s" >&2 ;; esac; fi`,
		hookInvocation(hook), refusedMessage(hook), missingMessage(hook))
}

// missingMessage is what a hook prints when gitwarrant is not on PATH.
func missingMessage(hook string) string {
	return "gitwarrant: not on PATH; " + hook + " hook skipped (CI still verifies the record). Install: " + InstallHint
}

// refusedMessage is what it prints when, besides, a gate is pinned.
func refusedMessage(hook string) string {
	return "gitwarrant: not on PATH, and this repository pins a gitwarrant gate, so the commit is refused (" + hook + " hook). Install: " + InstallHint
}

// ---- husky ----

// huskyLine is the marked line install puts first in .husky/<hook> (after
// a shebang), before anything in the user's script that can exit. husky 9
// runs the script with `sh -e` and the hook's arguments.
func huskyLine(hook string, createdFile bool) string {
	l := guarded(hook) + " # " + shimMarker
	if createdFile {
		l += " created"
	}
	return l
}

// huskyLegacyNewFile is what older versions created a missing husky
// script with, before their appended line.
const huskyLegacyNewFile = "#!/bin/sh\n"

// huskyInsertAt is where the line goes: after a shebang line, else first.
func huskyInsertAt(data []byte) int {
	if !bytes.HasPrefix(data, []byte("#!")) {
		return 0
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1
	}
	return len(data)
}

// planHusky puts gitwarrant's line first in .husky/<hook> (creating the
// script when absent); husky's own .husky/_ directory is never touched.
func (p *Plan) planHusky(dir, hook string) error {
	path := filepath.Join(dir, hook)
	data, existed, mode, err := fileState(path)
	if err != nil {
		return err
	}
	if !existed {
		mode = 0o755
	}
	if s, e := markedLine(data, " # "+shimMarker); s >= 0 {
		line := string(data[s:e])
		if strings.Contains(line, guarded(hook)) && s == huskyInsertAt(data) {
			return nil // ours, first, current
		}
		// An older line (appended last, or another command): take it out,
		// then place it afresh.
		created := strings.Contains(line, " # "+shimMarker+" created")
		rest := cutSpan(data, s, e)
		if !existed || created || string(rest) == huskyLegacyNewFile {
			created = true
		}
		p.add(path, data, existed, mode, insertHuskyLine(rest, hook, created && len(bytes.TrimSpace(rest)) == 0))
		return nil
	}
	p.add(path, data, existed, mode, insertHuskyLine(data, hook, !existed))
	return nil
}

func insertHuskyLine(data []byte, hook string, createdFile bool) []byte {
	line := huskyLine(hook, createdFile)
	at := huskyInsertAt(data)
	if at == len(data) && len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		return appendLine(data, line) // a lone shebang with no newline
	}
	return append(append(append([]byte{}, data[:at]...), line+"\n"...), data[at:]...)
}

// planUnhusky removes gitwarrant's line from .husky/<hook>, deleting the
// script only when the line says install created it and nothing else is
// left (or it holds just the shebang older versions created it with).
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
	created := bytes.Contains(data[s:e], []byte(" # "+shimMarker+" created"))
	out := cutSpan(data, s, e)
	if (created && len(out) == 0) || string(out) == huskyLegacyNewFile {
		p.remove(path, data, mode)
		return nil
	}
	p.add(path, data, true, mode, out)
	return nil
}

// appendLine adds line at the end of data. When data lacks a final newline
// the line goes after a new one and keeps none itself, so cutSpan can
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

// markedLine finds the first line containing marker; it returns its span
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

// ---- YAML configuration (lefthook, the pre-commit framework) ----

// yamlQuote renders s as a YAML double-quoted scalar (JSON strings are).
func yamlQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func blockBegin(what string) string {
	return "# gitwarrant:begin " + what + " — added by `gitwarrant install`, removed by `gitwarrant uninstall`"
}
func blockBeginPrefix(what string) string { return "# gitwarrant:begin " + what }
func blockEnd(what string) string         { return "# gitwarrant:end " + what }

// yamlDoc is a parsed YAML file with its lines.
type yamlDoc struct {
	data  []byte
	lines []string // with their newlines
	root  *yaml.Node
}

// parseYAML parses data; root is nil for an empty document.
func parseYAML(data []byte) (*yamlDoc, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	d := &yamlDoc{data: data, lines: strings.SplitAfter(string(data), "\n")}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		d.root = doc.Content[0]
	}
	return d, nil
}

// member returns the key and value nodes of key in mapping m.
func member(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

func isBlock(n *yaml.Node) bool { return n != nil && n.Style&yaml.FlowStyle == 0 }

// lineStart is the byte offset of 1-based line n.
func (d *yamlDoc) lineStart(n int) int {
	off := 0
	for i := 0; i < n-1 && i < len(d.lines); i++ {
		off += len(d.lines[i])
	}
	return off
}

// indentOf is the leading spaces of 1-based line n.
func (d *yamlDoc) indentOf(n int) string {
	l := d.lines[n-1]
	return l[:len(l)-len(strings.TrimLeft(l, " "))]
}

// insertBefore puts block (whole lines, each already indented) before
// 1-based line n, above any comment lines at the same indentation that sit
// directly on top of it, but never above line floor.
func (d *yamlDoc) insertBefore(n, floor int, block string) []byte {
	ind := d.indentOf(n)
	for n-1 > floor {
		prev := d.lines[n-2]
		if !strings.HasPrefix(strings.TrimLeft(prev, " "), "#") || !strings.HasPrefix(prev, ind) {
			break
		}
		n--
	}
	at := d.lineStart(n)
	return append(append(append([]byte{}, d.data[:at]...), block...), d.data[at:]...)
}

// appendBlock adds a top-level block at the end of the file, keeping a
// missing final newline missing (cutSpan restores it exactly).
func appendBlock(data []byte, block string) []byte {
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		return append(append(append([]byte{}, data...), '\n'), strings.TrimSuffix(block, "\n")...)
	}
	return append(append([]byte{}, data...), block...)
}

// indentLines prefixes every line of s with ind.
func indentLines(s, ind string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString(ind + l)
		}
	}
	return b.String()
}

// mentions reports whether any scalar under n contains s.
func mentions(n *yaml.Node, s string) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, s) {
		return true
	}
	for _, c := range n.Content {
		if mentions(c, s) {
			return true
		}
	}
	return false
}

// cutBlock removes the marked block for what (begin line to end line), if
// any, and reports whether it found one.
func cutBlock(data []byte, what string) ([]byte, bool) {
	s, _ := markedLine(data, blockBeginPrefix(what)+" ")
	if s < 0 {
		return data, false
	}
	_, e := markedLine(data[s:], blockEnd(what))
	if e < 0 {
		return data, false
	}
	return cutSpan(data, s, s+e), true
}

// ---- lefthook ----

// lefthookRun is the command lefthook runs ({1} is the first git argument).
func lefthookRun(hook string) string {
	return strings.ReplaceAll(guarded(hook), `"$1"`, `{1}`)
}

// findLefthook returns lefthook's config path under workTree, or "".
func findLefthook(workTree string) string {
	for _, n := range LefthookFiles {
		if _, err := os.Stat(filepath.Join(workTree, n)); err == nil {
			return filepath.Join(workTree, n)
		}
	}
	return ""
}

// lefthookEntry is gitwarrant's command for hook in the commands: form
// (a map entry) or the jobs: form (a list item), unindented.
func lefthookEntry(hook string, jobs bool) string {
	if jobs {
		return "- name: " + PreCommitIDs[hook] + "\n  run: " + yamlQuote(lefthookRun(hook)) + "\n"
	}
	return PreCommitIDs[hook] + ":\n  run: " + yamlQuote(lefthookRun(hook)) + "\n"
}

// lefthookUsesJobs reports whether any hook in the file uses lefthook's
// jobs: form (lefthook ≥ 1.10, and lefthook 2), so a new hook block
// follows the file's own form.
func lefthookUsesJobs(root *yaml.Node) bool {
	if root == nil || root.Kind != yaml.MappingNode {
		return false
	}
	for i := 1; i < len(root.Content); i += 2 {
		if k, _ := member(root.Content[i], "jobs"); k != nil {
			return true
		}
	}
	return false
}

// lefthookInsert returns data with gitwarrant's command for hook added, or
// an error saying why the file's shape is one install does not edit. The
// command goes first in the hook's jobs: list or commands: map (a new
// commands: key, or a new top-level hook block, when there is none).
func lefthookInsert(data []byte, hook string) ([]byte, error) {
	d, err := parseYAML(data)
	if err != nil {
		return nil, fmt.Errorf("it does not parse as YAML (%v)", err)
	}
	if d.root != nil && (d.root.Kind != yaml.MappingNode || !isBlock(d.root)) {
		return nil, fmt.Errorf("its top level is not a block mapping")
	}
	jobs := lefthookUsesJobs(d.root)
	begin, end := blockBegin(hook)+"\n", blockEnd(hook)+"\n"
	hk, hv := member(d.root, hook)
	if hk == nil {
		body := "commands:\n" + indentLines(lefthookEntry(hook, false), "  ")
		if jobs {
			body = "jobs:\n" + indentLines(lefthookEntry(hook, true), "  ")
		}
		return appendBlock(data, begin+hook+":\n"+indentLines(body, "  ")+end), nil
	}
	if hv.Kind != yaml.MappingNode || !isBlock(hv) || len(hv.Content) == 0 {
		return nil, fmt.Errorf("%s: (line %d) is not a block mapping", hook, hk.Line)
	}
	if jk, jv := member(hv, "jobs"); jk != nil {
		if jv.Kind != yaml.SequenceNode || !isBlock(jv) || len(jv.Content) == 0 {
			return nil, fmt.Errorf("%s: jobs: (line %d) is not a block list", hook, jk.Line)
		}
		first := jv.Content[0]
		ind := d.indentOf(first.Line)
		if !strings.HasPrefix(strings.TrimLeft(d.lines[first.Line-1], " "), "-") {
			return nil, fmt.Errorf("%s: jobs: (line %d) has a list item install cannot place a job before", hook, jk.Line)
		}
		return d.insertBefore(first.Line, jk.Line, indentLines(begin+lefthookEntry(hook, true)+end, ind)), nil
	}
	if ck, cv := member(hv, "commands"); ck != nil {
		if cv.Kind != yaml.MappingNode || !isBlock(cv) || len(cv.Content) == 0 {
			return nil, fmt.Errorf("%s: commands: (line %d) is not a block mapping", hook, ck.Line)
		}
		first := cv.Content[0]
		ind := d.indentOf(first.Line)
		step := strings.TrimPrefix(ind, d.indentOf(ck.Line))
		entry := strings.ReplaceAll(lefthookEntry(hook, false), "\n  ", "\n"+step)
		return d.insertBefore(first.Line, ck.Line, indentLines(begin+entry+end, ind)), nil
	}
	first := hv.Content[0]
	ind := d.indentOf(first.Line)
	step := strings.TrimPrefix(ind, d.indentOf(hk.Line))
	if step == "" {
		return nil, fmt.Errorf("%s: (line %d) has no indented keys", hook, hk.Line)
	}
	form, entry := "commands:\n", lefthookEntry(hook, false)
	if jobs {
		form, entry = "jobs:\n", lefthookEntry(hook, true)
	}
	entry = strings.ReplaceAll(entry, "\n  ", "\n"+step)
	return d.insertBefore(first.Line, hk.Line, indentLines(begin+form+indentLines(entry, step)+end, ind)), nil
}

// lefthookRuns checks, by parsing, that the config runs gitwarrant's
// command for hook under it (in any form), so an edit that did not land
// where lefthook reads it is never kept.
func lefthookRuns(data []byte, hook string) bool {
	d, err := parseYAML(data)
	if err != nil {
		return false
	}
	_, hv := member(d.root, hook)
	return mentions(hv, "gitwarrant hook "+hook)
}

// planLefthook adds gitwarrant's commands to lefthook's config and returns,
// per hook, whether the config runs gitwarrant after the plan. A hook it
// cannot edit gets a manual step instead.
func (p *Plan) planLefthook(path string) (map[string]bool, error) {
	data, existed, mode, err := fileState(path)
	if err != nil || !existed {
		return nil, err
	}
	wired := map[string]bool{}
	out := data
	for _, hook := range gitHookNames {
		if lefthookRuns(out, hook) {
			wired[hook] = true
			continue
		}
		next, err := lefthookInsert(out, hook)
		if err == nil && !lefthookRuns(next, hook) {
			err = fmt.Errorf("the edit did not parse back as a %s command", hook)
		}
		if err == nil {
			if back, ok := cutBlock(next, hook); !ok || !bytes.Equal(back, out) {
				err = fmt.Errorf("the edit would not come out byte for byte")
			}
		}
		if err != nil {
			form, jobs := "commands:", false
			if d, perr := parseYAML(out); perr == nil && lefthookUsesJobs(d.root) {
				form, jobs = "jobs:", true
			}
			p.manual(hook, p.rel(path), fmt.Sprintf("%s: install does not edit it automatically because %v", p.rel(path), err),
				fmt.Sprintf("# in %s, first under %s: → %s\n%s", p.rel(path), hook, form, indentLines(lefthookEntry(hook, jobs), "    ")))
			continue
		}
		out, wired[hook] = next, true
	}
	if !bytes.Equal(out, data) {
		p.add(path, data, true, mode, out)
		p.lefthookChanged = true
	}
	return wired, nil
}

// planUnlefthook removes every marked block from lefthook's config and
// returns the config as it will be.
func (p *Plan) planUnlefthook(path string) ([]byte, error) {
	data, existed, mode, err := fileState(path)
	if err != nil || !existed {
		return nil, err
	}
	out := data
	for _, hook := range gitHookNames {
		out, _ = cutBlock(out, hook)
	}
	p.add(path, data, true, mode, out)
	return out, nil
}

// lefthookConfigures reports whether a lefthook config has an entry for
// hook at all.
func lefthookConfigures(data []byte, hook string) bool {
	d, err := parseYAML(data)
	if err != nil {
		return true // unreadable: assume it does, and leave lefthook's script
	}
	k, _ := member(d.root, hook)
	return k != nil
}

// ---- the pre-commit framework ----

// preCommitBlock is the `repo: local` entry install adds to the repos list:
// `language: system` runs the gitwarrant on PATH, so it works offline and
// with any pre-commit version; stage is "commit" for pre-commit < 3.2 and
// "pre-commit" after.
func preCommitBlock(stage string) string {
	return `- repo: local
  hooks:
    - id: ` + PreCommitIDs["pre-commit"] + `
      name: gitwarrant record
      entry: gitwarrant hook pre-commit
      language: system
      stages: [` + stage + `]
      always_run: true
      pass_filenames: false
    - id: ` + PreCommitIDs["commit-msg"] + `
      name: gitwarrant trailer
      entry: gitwarrant hook commit-msg
      language: system
      stages: [commit-msg]
      always_run: true
      pass_filenames: true
`
}

const preCommitWhat = "repo"

// preCommitInsert adds the local repo first in repos:.
func preCommitInsert(data []byte, stage string) ([]byte, error) {
	d, err := parseYAML(data)
	if err != nil {
		return nil, fmt.Errorf("it does not parse as YAML (%v)", err)
	}
	if d.root == nil || d.root.Kind != yaml.MappingNode || !isBlock(d.root) {
		return nil, fmt.Errorf("its top level is not a block mapping")
	}
	rk, rv := member(d.root, "repos")
	if rk == nil {
		return nil, fmt.Errorf("it has no repos: list")
	}
	if rv.Kind != yaml.SequenceNode || !isBlock(rv) || len(rv.Content) == 0 {
		return nil, fmt.Errorf("repos: (line %d) is not a block list with an entry", rk.Line)
	}
	first := rv.Content[0]
	if !strings.HasPrefix(strings.TrimLeft(d.lines[first.Line-1], " "), "-") {
		return nil, fmt.Errorf("repos: (line %d) has an entry install cannot place one before", rk.Line)
	}
	block := blockBegin(preCommitWhat) + "\n" + preCommitBlock(stage) + blockEnd(preCommitWhat) + "\n"
	return d.insertBefore(first.Line, rk.Line, indentLines(block, d.indentOf(first.Line))), nil
}

// preCommitRuns reports per hook whether the config runs gitwarrant's
// command for it.
func preCommitRuns(data []byte) map[string]bool {
	d, err := parseYAML(data)
	out := map[string]bool{}
	if err != nil {
		return out
	}
	_, repos := member(d.root, "repos")
	for _, hook := range gitHookNames {
		out[hook] = mentions(repos, "gitwarrant hook "+hook) || mentions(repos, PreCommitIDs[hook])
	}
	return out
}

// planPreCommit adds the local repo to .pre-commit-config.yaml and returns,
// per hook, whether the config runs gitwarrant after the plan.
func (p *Plan) planPreCommit(path, stage string) (map[string]bool, error) {
	data, existed, mode, err := fileState(path)
	if err != nil || !existed {
		return nil, err
	}
	runs := preCommitRuns(data)
	if runs["pre-commit"] && runs["commit-msg"] {
		return runs, nil
	}
	out, err := preCommitInsert(data, stage)
	if err == nil && !preCommitRuns(out)["pre-commit"] {
		err = fmt.Errorf("the edit did not parse back as a repos entry")
	}
	if err == nil {
		if back, ok := cutBlock(out, preCommitWhat); !ok || !bytes.Equal(back, data) {
			err = fmt.Errorf("the edit would not come out byte for byte")
		}
	}
	if err != nil {
		for _, hook := range gitHookNames {
			if !runs[hook] {
				p.manual(hook, p.rel(path), fmt.Sprintf("%s: install does not edit it automatically because %v", p.rel(path), err),
					fmt.Sprintf("# in %s, first under repos:\n%s", p.rel(path), indentLines(preCommitBlock(stage), "  ")))
			}
		}
		return runs, nil
	}
	p.add(path, data, true, mode, out)
	p.Notices = append(p.Notices, fmt.Sprintf("stage %s (`git add %s`): the pre-commit framework refuses to run while its config has unstaged changes", p.rel(path), p.rel(path)))
	return map[string]bool{"pre-commit": true, "commit-msg": true}, nil
}

// planUnpreCommit removes the marked block from .pre-commit-config.yaml.
func (p *Plan) planUnpreCommit(path string) error {
	data, existed, mode, err := fileState(path)
	if err != nil || !existed {
		return err
	}
	if out, ok := cutBlock(data, preCommitWhat); ok {
		p.add(path, data, true, mode, out)
	}
	return nil
}
