package install

import (
	"encoding/json"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/hook"
)

// LocalSettingsPath is Claude Code's personal project settings file, not
// committed: the http hook's key goes into its "env", where Claude Code
// reads the header variables from (docs/install.md#the-http-hook).
const LocalSettingsPath = ".claude/settings.local.json"

// keyMarkerEnv is the env member install adds beside the key when it
// created the file or the "env" object, naming what it created (JSON has
// no comments), so uninstall gives back exactly what was there.
const keyMarkerEnv = "GITWARRANT_INSTALL"

// planLocalKey puts the hook key into .claude/settings.local.json's env,
// replacing an older key there.
func (p *Plan) planLocalKey(secret string) error {
	d, existed, err := loadJSON(p.Root, LocalSettingsPath)
	if err != nil {
		return err
	}
	orig := append([]byte(nil), d.data...)
	env, _, err := d.objectAt(d.root, "env", '{')
	if err != nil {
		return err
	}
	var out []byte
	switch cur, _ := memberOf(env, hook.KeyEnv); {
	case env == nil:
		c := created{file: !existed, event: true}
		out = d.insertItem(d.root, "env", map[string]string{hook.KeyEnv: secret, keyMarkerEnv: keyMarker(c)})
	case cur == nil:
		out = d.insertItem(env, hook.KeyEnv, secret)
	case string(d.data[cur.start:cur.end]) == quote(secret):
		return nil
	default:
		out, _ = d.replaceValue(cur, secret)
	}
	p.addJSON(LocalSettingsPath, orig, existed, out)
	return nil
}

// planUnlocalKey takes the hook key (any gitwarrant key) out of
// .claude/settings.local.json, and the "env" object and the file when
// install's marker says it created them.
func (p *Plan) planUnlocalKey() error {
	d, existed, err := loadJSON(p.Root, LocalSettingsPath)
	if err != nil || !existed {
		return err
	}
	orig := append([]byte(nil), d.data...)
	env, ei, err := d.objectAt(d.root, "env", '{')
	if err != nil || env == nil {
		return err
	}
	cur, i := memberOf(env, hook.KeyEnv)
	var v string
	if cur == nil || json.Unmarshal(d.data[cur.start:cur.end], &v) != nil || !strings.HasPrefix(v, "gwk_") {
		return nil
	}
	var c created
	if m, _ := memberOf(env, keyMarkerEnv); m != nil {
		var s string
		_ = json.Unmarshal(d.data[m.start:m.end], &s)
		if _, mc, ok := parseMarker("x " + installMarker + " " + s); ok {
			c = mc
		}
	}
	out := d.removeItem(env, i)
	if d, err = parseJSONDoc(LocalSettingsPath, out); err != nil {
		return err
	}
	env, ei, _ = d.objectAt(d.root, "env", '{')
	if m, mi := memberOf(env, keyMarkerEnv); m != nil {
		if d, err = parseJSONDoc(LocalSettingsPath, d.removeItem(env, mi)); err != nil {
			return err
		}
		env, ei, _ = d.objectAt(d.root, "env", '{')
	}
	if c.event && env != nil && len(env.items) == 0 {
		if d, err = parseJSONDoc(LocalSettingsPath, d.removeItem(d.root, ei)); err != nil {
			return err
		}
	}
	p.dropOrWriteJSON(LocalSettingsPath, orig, d, c.file)
	return nil
}

// keyMarker is the marker member's value: "created=file,event" (event
// standing for the "env" object).
func keyMarker(c created) string {
	return strings.TrimPrefix(c.marker(), " "+installMarker+" ")
}

func memberOf(n *jnode, key string) (*jnode, int) {
	if n == nil {
		return nil, -1
	}
	return n.member(key)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
