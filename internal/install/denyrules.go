package install

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// The deny rules install compiles from the warrant's typed never entries
// into the settings' permissions.deny (docs/install.md#deny-rules): the
// client refuses those calls itself, before any hook runs, and merges the
// Read and Edit ones into its sandbox's deny lists. A rule string cannot
// carry a marker, so what install added is kept per clone, under the git
// dir (settingsState): uninstall takes back exactly that, and a later
// install, after the loops change, replaces exactly that.

// settingsStateFile is where, under the git dir, install keeps what it
// wrote into .claude/settings.json that the file cannot mark as its own.
const settingsStateFile = "gitwarrant/claude-settings.json"

// settingsState is what install wrote into .claude/settings.json.
type settingsState struct {
	Deny    []string `json:"deny,omitempty"`    // the rules it added to permissions.deny
	Created string   `json:"created,omitempty"` // the container it created: "permissions" or "deny"
	// Sandbox is the sandbox object install last wrote, so a later
	// install can tell it from one the person edited and bring it in step
	// with changed loops.
	Sandbox json.RawMessage `json:"sandbox,omitempty"`
}

// loadedState is the state file as read once per plan.
type loadedState struct {
	settingsState
	path    string
	old     []byte
	existed bool
}

// state reads the state file once per plan (nil outside a git work tree).
func (p *Plan) state() *loadedState {
	if p.st == nil {
		st, path, old, existed := readState(p.Root)
		p.st = &loadedState{settingsState: st, path: path, old: old, existed: existed}
	}
	if p.st.path == "" {
		return nil
	}
	return p.st
}

func statePath(root string) (string, error) {
	r, err := gitx.Discover(root)
	if err != nil {
		return "", err
	}
	return filepath.Join(r.CommonDir, filepath.FromSlash(settingsStateFile)), nil
}

func readState(root string) (settingsState, string, []byte, bool) {
	var st settingsState
	path, err := statePath(root)
	if err != nil {
		return st, "", nil, false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return st, path, nil, false
	}
	if json.Unmarshal(b, &st) != nil {
		return settingsState{}, path, b, true
	}
	return st, path, b, true
}

// editDenyRules brings permissions.deny in step with the compiled rules
// (add) or takes back what install added (remove), and plans the state
// file to match. Install adds each rule the array lacks; a rule it added
// earlier that the warrant no longer compiles to is taken out; a rule the
// person wrote is never touched.
func (p *Plan) editDenyRules(d *jsonDoc, add bool) (*jsonDoc, bool, error) {
	if p.sandbox == nil {
		return d, false, nil
	}
	ls := p.state()
	if ls == nil {
		return d, false, nil
	}
	st, path, old, existed := ls.settingsState, ls.path, ls.old, ls.existed
	want := p.sandbox.Deny
	if !add {
		if !existed {
			// Another clone installed them: the rules the warrant compiles
			// to now are taken as install's, and an array left empty goes
			// (a permissions object is kept: nothing says who made it).
			st.Deny, st.Created = present(d, want), "deny"
		}
		want = nil
	}
	changed := false
	// Take back what install added and no longer wants.
	for _, r := range st.Deny {
		if slices.Contains(want, r) {
			continue
		}
		perms, _, _ := d.objectAt(d.root, "permissions", '{')
		if perms == nil {
			break
		}
		deny, di, err := d.objectAt(perms, "deny", '[')
		if err != nil || deny == nil {
			break
		}
		for i, it := range deny.items {
			if sameJSON(d.data[it.val.start:it.val.end], r) {
				var err error
				if d, err = reparse(d.removeItem(deny, i)); err != nil {
					return nil, false, err
				}
				changed = true
				break
			}
		}
		// A container install created goes when it is empty again.
		perms, pi, _ := d.objectAt(d.root, "permissions", '{')
		if deny, di, _ = d.objectAt(perms, "deny", '['); deny != nil && len(deny.items) == 0 && st.Created != "" {
			out := d.removeItem(perms, di)
			if st.Created == "permissions" && len(perms.items) == 1 {
				out = d.removeItem(d.root, pi)
			}
			var err error
			if d, err = reparse(out); err != nil {
				return nil, false, err
			}
			st.Created = ""
		}
	}
	kept := slices.DeleteFunc(slices.Clone(st.Deny), func(r string) bool { return !slices.Contains(want, r) })
	st.Deny = kept
	// Add what the warrant compiles to and the array lacks.
	for _, r := range want {
		perms, _, err := d.objectAt(d.root, "permissions", '{')
		if err != nil {
			return nil, false, err
		}
		var out []byte
		switch {
		case perms == nil:
			out, st.Created = d.insertItem(d.root, "permissions", map[string][]string{"deny": {r}}), "permissions"
		default:
			deny, _, err := d.objectAt(perms, "deny", '[')
			if err != nil {
				return nil, false, err
			}
			if deny == nil {
				out, st.Created = d.insertItem(perms, "deny", []string{r}), "deny"
				break
			}
			if slices.ContainsFunc(deny.items, func(it jitem) bool { return sameJSON(d.data[it.val.start:it.val.end], r) }) {
				continue // the person's, or added before
			}
			out = d.insertItem(deny, "", r)
		}
		if d, err = reparse(out); err != nil {
			return nil, false, err
		}
		st.Deny, changed = append(st.Deny, r), true
	}
	if !add {
		st = settingsState{} // uninstall leaves no record behind
	}
	p.planState(path, old, existed, st)
	return d, changed, nil
}

// present is the rules of rules that permissions.deny holds.
func present(d *jsonDoc, rules []string) []string {
	var s struct {
		Permissions struct {
			Deny []string `json:"deny"`
		} `json:"permissions"`
	}
	_ = json.Unmarshal(d.data, &s)
	return slices.DeleteFunc(slices.Clone(rules), func(r string) bool { return !slices.Contains(s.Permissions.Deny, r) })
}

// planState writes the state file, or removes it once it records nothing.
func (p *Plan) planState(path string, old []byte, existed bool, st settingsState) {
	if len(st.Deny) == 0 && st.Created == "" && len(st.Sandbox) == 0 {
		if existed {
			p.remove(path, old, 0o644)
		}
		return
	}
	b, _ := json.MarshalIndent(st, "", "  ")
	p.add(path, old, existed, 0o644, append(b, '\n'))
}

// diagnoseDenyRules says whether permissions.deny holds every rule the
// never entries compile to now: a warning naming the ones it lacks (the
// loops changed since install, or the rules were removed).
func diagnoseDenyRules(d *jsonDoc, want *Sandbox) Check {
	c := Check{Name: "Claude Code deny rules"}
	have := present(d, want.Deny)
	if len(have) == len(want.Deny) {
		c.Status, c.Detail = OK, fmt.Sprintf("permissions.deny holds the %d rule(s) the Bash never entries compile to", len(want.Deny))
		return c
	}
	var lacking []string
	for _, r := range want.Deny {
		if !slices.Contains(have, r) {
			lacking = append(lacking, r)
		}
	}
	c.Status = Warn
	c.Detail = fmt.Sprintf("permissions.deny lacks %d rule(s) the never entries compile to: %s", len(lacking), strings.Join(lacking, ", "))
	c.Fix = "run `gitwarrant install` (or `gitwarrant compile --target claude --write`) to bring them in step"
	return c
}
