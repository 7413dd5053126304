package ci

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/protect"
	"github.com/go-git/go-git/v5/plumbing"
)

// GateWarning is a change that removes or weakens the gate itself
// (docs/ci.md#the-gate-itself): a warning, a failure with --strict.
type GateWarning struct {
	File string `json:"file"`
	Line int    `json:"line"` // in head for an added line, in the merge base for a removed one
	What string `json:"what"`
}

// claudeLocal is Claude Code's per-clone settings, read over
// .claude/settings.json: meant to stay out of Git, but checked out like any
// file once a change commits it, and there it can switch the hook off
// (disableAllHooks) or point it elsewhere (env).
const claudeLocal = ".claude/settings.local.json"

// gateDirs and gateFiles are where the gate is wired: the Claude Code
// hook, hook managers' configuration, husky's hooks and the workflows.
var (
	gateFiles = append([]string{".claude/settings.json", claudeLocal, "lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml", ".pre-commit-config.yaml"}, protect.AgentHookFiles...)
	gateDirs  = []string{".husky", ".github/workflows"}
	// weakeners are lines whose addition to a file wiring the gate can
	// switch it off, and knobs whose removal weakens it (a hook's
	// "onFailure": without "block" a hook that fails lets the call
	// through, docs/hook-protocol.md). Naming another
	// project folder (other-gates, --other-gate, or one more folder in the
	// list) leaves that folder out of the gate: the workflow a pull request
	// runs is the one it changes (docs/ci.md#one-project-folder). So does
	// GITWARRANT_DIR or DOCKET_DIR (Claude Code's settings env, a hook
	// line): the hook takes its project from there before walking up. The
	// other clients' switches (docs/agents.md): Codex's `hooks = false`
	// feature and a hook's `enabled = false` state, Gemini CLI's
	// hooksConfig ("enabled": false, a "disabled" list).
	weakenAdd = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*-?\s*(continue-on-error\s*:\s*(true|\$\{\{)|if\s*:|strict\s*:\s*(false|'false'|"false")|require-user-presence\s*:\s*(false|'false'|"false")|fail_fast\s*:|skip\s*:|SKIP\s*[:=]|exclude\s*:|.*"disableAllHooks"|other-gates\s*:|.*--other-gate|.*\b(GITWARRANT|DOCKET)_DIR\b|\S*/\.(gitwarrant|docket)/?\s*$|(features\.)?hooks\s*=\s*false|enabled\s*=\s*false|.*"enabled"\s*:\s*false|.*"disabled"\s*:|.*"hooksConfig")`)
	})
	weakenRemove = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*-?\s*(strict|require-user-presence|fetch-depth|"onFailure")\s*:`)
	})
)

// gateWarnings lists what head removes from, or adds to, the files that
// wire the gate, compared with the merge base.
func gateWarnings(repo *gitx.Repo, mb, head plumbing.Hash) ([]GateWarning, error) {
	base, err := gateBlobs(repo, mb)
	if err != nil {
		return nil, err
	}
	hd, err := gateBlobs(repo, head)
	if err != nil {
		return nil, err
	}
	var out []GateWarning
	names := make([]string, 0, len(base))
	for p := range base {
		names = append(names, p)
	}
	sort.Strings(names)
	if hid, ok := hd[claudeLocal]; ok && hid != base[claudeLocal] && wired(repo, base[".claude/settings.json"]) {
		out = append(out, GateWarning{File: claudeLocal, What: "commits Claude Code's per-clone settings, read over .claude/settings.json, where they can switch the gitwarrant hook off (disableAllHooks) or point it elsewhere (env) — keep it out of Git"})
	}
	out = append(out, sandboxWarnings(repo, base[".claude/settings.json"], hd[".claude/settings.json"])...) // sandbox.go
	out = append(out, newAgentSwitches(repo, base, hd)...)
	for _, p := range names {
		if p == claudeLocal {
			continue // above
		}
		bb, err := repo.Blob(base[p])
		if err != nil {
			continue // a folder, not a file
		}
		if !mentionsGate(bb) {
			continue
		}
		hid, ok := hd[p]
		if !ok {
			out = append(out, GateWarning{File: p, What: "the file that wires the gitwarrant gate is deleted"})
			continue
		}
		if hid == base[p] {
			continue
		}
		hb, err := repo.Blob(hid)
		if err != nil {
			out = append(out, GateWarning{File: p, What: "the file that wires the gitwarrant gate is no longer a file"})
			continue
		}
		removed, added := lineDiff(string(bb), string(hb))
		for _, l := range removed {
			if strings.Contains(strings.ToLower(l.text), "gitwarrant") || weakenRemove().MatchString(l.text) {
				out = append(out, GateWarning{File: p, Line: l.n, What: fmt.Sprintf("removes %q", strings.TrimSpace(l.text))})
			}
		}
		for _, l := range added {
			if weakenAdd().MatchString(l.text) {
				out = append(out, GateWarning{File: p, Line: l.n, What: fmt.Sprintf("adds %q, which can switch the gate off", strings.TrimSpace(l.text))})
			}
		}
	}
	return out, nil
}

// wired reports whether blob id (empty: none) mentions gitwarrant.
func wired(repo *gitx.Repo, id string) bool {
	if id == "" {
		return false
	}
	b, err := repo.Blob(id)
	return err == nil && mentionsGate(b)
}

func mentionsGate(b []byte) bool { return strings.Contains(strings.ToLower(string(b)), "gitwarrant") }

// gateBlobs lists the gate's files at commit c, path → blob id.
func gateBlobs(repo *gitx.Repo, c plumbing.Hash) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range gateFiles {
		ents, err := repo.DirAt(c, path.Dir(f))
		if err != nil {
			return nil, err
		}
		if id, ok := ents[path.Base(f)]; ok {
			out[f] = id
		}
	}
	for _, d := range gateDirs {
		ents, err := repo.DirAt(c, d)
		if err != nil {
			return nil, err
		}
		for name, id := range ents {
			if d == ".github/workflows" && !strings.HasSuffix(name, ".yml") && !strings.HasSuffix(name, ".yaml") {
				continue
			}
			out[path.Join(d, name)] = id
		}
	}
	return out, nil
}

type numbered struct {
	n    int
	text string
}

// lineDiff returns the lines of a not in b and of b not in a, as
// multisets of lines (blank lines aside), with their line numbers.
func lineDiff(a, b string) (removed, added []numbered) {
	split := func(s string) []numbered {
		var out []numbered
		for i, l := range strings.Split(s, "\n") {
			if t := strings.TrimSpace(l); t != "" {
				out = append(out, numbered{i + 1, strings.TrimRight(l, "\r")})
			}
		}
		return out
	}
	la, lb := split(a), split(b)
	diff := func(x, y []numbered) []numbered {
		count := map[string]int{}
		for _, l := range y {
			count[strings.TrimSpace(l.text)]++
		}
		var out []numbered
		for _, l := range x {
			k := strings.TrimSpace(l.text)
			if count[k] > 0 {
				count[k]--
			} else {
				out = append(out, l)
			}
		}
		return out
	}
	return diff(la, lb), diff(lb, la)
}

// newAgentSwitches reports a client's hook file that head adds with a line
// that switches hooks off — `hooks = false` in a new .codex/config.toml
// turns off the hooks .codex/hooks.json wires — when the gate was wired at
// the merge base.
func newAgentSwitches(repo *gitx.Repo, base, hd map[string]string) []GateWarning {
	wiredAtBase := false
	for _, id := range base {
		if wired(repo, id) {
			wiredAtBase = true
			break
		}
	}
	var out []GateWarning
	for _, f := range protect.AgentHookFiles {
		id, ok := hd[f]
		if _, inBase := base[f]; inBase || !ok || !wiredAtBase {
			continue
		}
		b, err := repo.Blob(id)
		if err != nil {
			continue
		}
		_, added := lineDiff("", string(b))
		for _, l := range added {
			if weakenAdd().MatchString(l.text) {
				out = append(out, GateWarning{File: f, Line: l.n, What: fmt.Sprintf("adds %q, which can switch the gate off", strings.TrimSpace(l.text))})
			}
		}
	}
	return out
}
