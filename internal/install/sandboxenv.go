package install

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// EnvCreatedKey is the variable install adds to the settings' env object
// when it creates that object, so uninstall knows to remove the object
// and not only the variables it added (the same marker .mcp.json's
// server carries).
const EnvCreatedKey = "GITWARRANT_INSTALL"

const envCreated = "created=env"

// Tooling is one detected ecosystem's tools under the sandbox: what the
// sandbox leaves read-only for them, what still works, and the session
// environment install sets so their allowed commands do not fail there
// (docs/install.md#ecosystem-caches).
type Tooling struct {
	Ecosystem string            // "Go", "npm", "Python"
	Env       map[string]string // variables the settings' env must hold; empty when none is needed
	Note      string            // what stays read-only and what to do about it, for doctor
}

// sandboxEnv is every variable the toolings need, by name.
func (s *Sandbox) sandboxEnv() map[string]string {
	env := map[string]string{}
	for _, t := range s.Tooling {
		for k, v := range t.Env {
			env[k] = v
		}
	}
	return env
}

// editSandboxEnv adds (add) or removes the session variables of the
// sandbox's toolings in the settings' "env" object. Install adds a
// variable only where the object does not set it: a value the person set
// is theirs, and doctor says what it costs. Uninstall removes a variable
// only while it holds install's value, and the object itself only when
// install created it (EnvCreatedKey) and nothing else is left in it.
func (p *Plan) editSandboxEnv(d *jsonDoc, add bool) (*jsonDoc, bool, error) {
	if p.sandbox == nil {
		return d, false, nil
	}
	want := p.sandbox.sandboxEnv()
	if len(want) == 0 {
		return d, false, nil
	}
	cur, ci, err := d.objectAt(d.root, "env", '{')
	if err != nil {
		return nil, false, err
	}
	if add && cur == nil {
		obj := map[string]string{EnvCreatedKey: envCreated}
		for k, v := range want {
			obj[k] = v
		}
		nd, err := reparse(d.insertItem(d.root, "env", obj))
		return nd, err == nil, err
	}
	if cur == nil {
		return d, false, nil
	}
	changed := false
	for _, k := range slices.Sorted(maps.Keys(want)) {
		cur, _, _ = d.objectAt(d.root, "env", '{')
		v, i := cur.member(k)
		var out []byte
		switch {
		case add && v == nil:
			out = d.insertItem(cur, k, want[k])
		case add && !sameJSON(d.data[v.start:v.end], want[k]):
			p.Notices = append(p.Notices, fmt.Sprintf("kept %s in the env of %s; `gitwarrant doctor` says what the sandbox then breaks", k, SettingsPath))
			continue
		case !add && v != nil && sameJSON(d.data[v.start:v.end], want[k]):
			out = d.removeItem(cur, i)
		default:
			continue
		}
		if d, err = reparse(out); err != nil {
			return nil, false, err
		}
		changed = true
	}
	if cur, ci, _ = d.objectAt(d.root, "env", '{'); !add && cur != nil {
		if m, mi := cur.member(EnvCreatedKey); m != nil && sameJSON(d.data[m.start:m.end], envCreated) {
			out := d.removeItem(cur, mi) // others' variables remain: the object is theirs now
			if len(cur.items) == 1 {
				out = d.removeItem(d.root, ci)
			}
			if d, err = reparse(out); err != nil {
				return nil, false, err
			}
			changed = true
		}
	}
	return d, changed, nil
}

func reparse(out []byte) (*jsonDoc, error) {
	nd, err := parseJSONDoc(SettingsPath, out)
	if err != nil {
		return nil, fmt.Errorf("internal error editing %s: %v — please report it; nothing was written", SettingsPath, err)
	}
	return nd, nil
}

// diagnoseTooling lists each detected ecosystem's tools under the
// sandbox: live when the settings' env holds what they need, a warning
// naming the failure when it does not.
func diagnoseTooling(d *jsonDoc, want *Sandbox) []Check {
	var env map[string]string
	if cur, _ := d.root.member("env"); cur != nil {
		_ = json.Unmarshal(d.data[cur.start:cur.end], &env)
	}
	var out []Check
	for _, t := range want.Tooling {
		c := Check{Name: "sandbox: " + t.Ecosystem + " tools", Status: OK, Detail: t.Note}
		var lacking []string
		for _, k := range slices.Sorted(maps.Keys(t.Env)) {
			if env[k] != t.Env[k] {
				lacking = append(lacking, k+"="+t.Env[k])
			}
		}
		if len(lacking) > 0 {
			c.Status = Warn
			c.Detail = "the session env lacks " + strings.Join(lacking, ", ") + ": " + t.Note
			c.Fix = "add it to \"env\" in " + SettingsPath + " (or remove the env entry and run `gitwarrant install`)"
		}
		out = append(out, c)
	}
	return out
}
