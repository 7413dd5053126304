package install

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Sandbox is what install compiles from the warrant into Claude Code's
// operating-system sandbox (docs/install.md#the-sandbox): every process
// the Bash tool starts — a test suite, a build script — runs with the
// protected places read-only, the secret files the warrant names
// unreadable, and the network limited to the hosts it names.
type Sandbox struct {
	DenyWrite []string // protected places, relative to the root or absolute
	DenyRead  []string // secret files typed never/ask Read(…) entries name
	Domains   []string // hosts the warrant and the loop's work need
	// Tooling is the detected ecosystems' tools under the sandbox, and the
	// session env they need there (sandboxenv.go).
	Tooling []Tooling
	// Deny is the permissions.deny rules compiled from the typed never
	// entries (denyrules.go).
	Deny []string
}

// sandboxSettings is the settings shape; field order fixes key order.
type sandboxSettings struct {
	Enabled    bool              `json:"enabled"`
	Filesystem sandboxFilesystem `json:"filesystem"`
	Network    sandboxNetwork    `json:"network"`
}

type sandboxFilesystem struct {
	DenyWrite []string `json:"denyWrite"`
	DenyRead  []string `json:"denyRead,omitempty"`
}

type sandboxNetwork struct {
	AllowedDomains []string `json:"allowedDomains"`
}

func (s *Sandbox) settings() sandboxSettings {
	return sandboxSettings{Enabled: true, Filesystem: sandboxFilesystem{DenyWrite: s.DenyWrite, DenyRead: s.DenyRead},
		Network: sandboxNetwork{AllowedDomains: nonNil(s.Domains)}}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// sandboxOf reads the settings document's "sandbox" object; on reports
// whether it is there, readable and enabled.
func sandboxOf(d *jsonDoc) (got sandboxSettings, on bool) {
	cur, _ := d.root.member("sandbox")
	if cur == nil || jsonInto(d.data[cur.start:cur.end], &got) != nil {
		return got, false
	}
	return got, got.Enabled
}

// editGuards adds (or, with add false, takes back) everything install
// writes into Claude Code's settings besides the hooks: the sandbox, its
// tooling environment and the never entries' deny rules. Both hook
// wirings, uninstall and the refresh after a loop edit go through it, so
// none of them can leave one out.
func (p *Plan) editGuards(d *jsonDoc, add bool) (*jsonDoc, bool, error) {
	changed := false
	for _, edit := range []func(*jsonDoc, bool) (*jsonDoc, bool, error){p.editSandbox, p.editSandboxEnv, p.editDenyRules} {
		var c bool
		var err error
		if d, c, err = edit(d, add); err != nil {
			return d, changed, err
		}
		changed = changed || c
	}
	return d, changed, nil
}

// editSandbox adds (add) or removes the "sandbox" object of the settings
// document d. Install writes it only where the file has none: a sandbox
// the person configured is theirs, and doctor says what it lacks.
// Uninstall removes it only when it is exactly what install writes for
// this warrant now, so a hand-edited sandbox is kept (and said so).
func (p *Plan) editSandbox(d *jsonDoc, add bool) (*jsonDoc, bool, error) {
	if p.sandbox == nil {
		return d, false, nil
	}
	cur, i, err := d.objectAt(d.root, "sandbox", '{')
	if err != nil {
		return nil, false, err
	}
	want := p.sandbox.settings()
	st := p.state()
	wrote := func(v any) { // what install last wrote, for the next install
		if st != nil {
			st.Sandbox, _ = json.Marshal(v)
		}
	}
	ours := func(raw []byte) bool {
		return st != nil && len(st.Sandbox) > 0 && sameJSON(raw, json.RawMessage(st.Sandbox))
	}
	var out []byte
	switch {
	case add && cur == nil:
		out = d.insertItem(d.root, "sandbox", want)
		wrote(want)
	case add && sameJSON(d.data[cur.start:cur.end], want):
		wrote(want)
		return d, false, nil
	case add && ours(d.data[cur.start:cur.end]):
		// the sandbox an earlier install wrote for loops that have changed
		out, _ = d.replaceValue(cur, want)
		wrote(want)
		p.Notices = append(p.Notices, fmt.Sprintf("brought the sandbox settings in %s in step with the loops", SettingsPath))
	case add:
		p.Notices = append(p.Notices, fmt.Sprintf("kept the sandbox settings already in %s; `gitwarrant doctor` says what they leave open", SettingsPath))
		return d, false, nil
	case cur != nil && (sameJSON(d.data[cur.start:cur.end], want) || ours(d.data[cur.start:cur.end])):
		out = d.removeItem(d.root, i)
		if st != nil {
			st.Sandbox = nil
		}
	case cur != nil:
		p.Notices = append(p.Notices, fmt.Sprintf("kept the sandbox settings in %s: they are not what install writes for this warrant (edited by hand, or the loops changed); remove them by hand if they are not wanted", SettingsPath))
		return d, false, nil
	default:
		return d, false, nil
	}
	nd, err := parseJSONDoc(SettingsPath, out)
	if err != nil {
		return nil, false, fmt.Errorf("internal error editing %s: %v — please report it; nothing was written", SettingsPath, err)
	}
	return nd, true, nil
}

// SandboxBackend reports what the sandbox needs on this system and is
// missing: on Linux bubblewrap (bwrap) and socat; on macOS Seatbelt
// (sandbox-exec), which the system has.
func SandboxBackend(lookPath func(string) (string, bool)) (missing []string) {
	need := []string{"bwrap", "socat"}
	if os.Getenv("GOOS") == "darwin" || fileExists("/usr/bin/sandbox-exec") {
		need = []string{"sandbox-exec"}
	}
	for _, n := range need {
		if _, ok := lookPath(n); !ok {
			missing = append(missing, n)
		}
	}
	return missing
}

// diagnoseSandbox proves the sandbox live (doctor fails without it; its
// checks are not gates install's exit follows, since install cannot put
// the backend on the system): enabled in the project's
// settings, every protected place in its denyWrite, its backend present,
// and — on Linux — a write into the project folder from inside bubblewrap,
// set up the way Claude Code sets it (the work tree writable, the denied
// places bound read-only), fails.
func diagnoseSandbox(env DoctorEnv, want *Sandbox) []Check {
	c := Check{Name: "Claude Code sandbox"}
	d, existed, err := loadJSON(env.Root, SettingsPath)
	if err != nil {
		c.Status, c.Detail, c.Fix = Fail, err.Error(), "fix the file by hand"
		return []Check{c}
	}
	got, on := sandboxOf(d)
	if !existed || !on {
		c.Status = Fail
		c.Detail = "the sandbox is off: any code the agent runs (a test, a build script, an npm script) can write .gitwarrant/, the git hooks and config, .claude/, and reach any host"
		c.Fix = "run `gitwarrant install` (or add \"sandbox\": {\"enabled\": true, …} to " + SettingsPath + ")"
		return []Check{c}
	}
	var lacking []string
	for _, w := range want.DenyWrite {
		if !slices.Contains(got.Filesystem.DenyWrite, w) {
			lacking = append(lacking, w)
		}
	}
	if len(lacking) > 0 {
		c.Status, c.Detail = Fail, "the sandbox leaves writable: "+strings.Join(lacking, ", ")
		c.Fix = "add them to sandbox.filesystem.denyWrite in " + SettingsPath + ", or remove the sandbox object and run `gitwarrant install`"
		return []Check{c}
	}
	if missing := SandboxBackend(env.lookPath); len(missing) > 0 {
		c.Status, c.Detail = Fail, "the sandbox is on, but its backend is missing: "+strings.Join(missing, ", ")+" — Claude Code then runs commands unsandboxed or refuses them"
		c.Fix = "install it: apt-get install bubblewrap socat (Debian/Ubuntu), dnf install bubblewrap socat (Fedora)"
		return []Check{c}
	}
	c.Status, c.Detail = Live, fmt.Sprintf("enabled; %d protected place(s) read-only, %d secret path(s) unreadable, %d host(s) reachable", len(got.Filesystem.DenyWrite), len(got.Filesystem.DenyRead), len(got.Network.AllowedDomains))
	out := append([]Check{c}, diagnoseTooling(d, want)...)
	out = append(out, diagnoseDenyRules(d, want)) // denyrules.go
	if bwrap, ok := env.lookPath("bwrap"); ok {
		out = append(out, probeSandbox(env.Root, bwrap, got.Filesystem.DenyWrite))
	}
	return out
}

// probeSandbox writes into the project folder from inside bubblewrap with
// the settings' denyWrite bound read-only over a writable work tree, as
// Claude Code's sandbox does on Linux: the write must fail, and a write
// beside it must succeed (so the probe shows the sandbox, not a broken
// setup).
func probeSandbox(root, bwrap string, deny []string) Check {
	c := Check{Name: "sandbox probe"}
	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--bind", root, root}
	target := ""
	for _, w := range deny {
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		args = append(args, "--ro-bind", p, p)
		if target == "" {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				target = filepath.Join(p, ".gitwarrant-sandbox-probe")
			}
		}
	}
	if target == "" {
		c.Status, c.Detail = OK, "no protected folder exists yet to probe"
		return c
	}
	free := filepath.Join(root, ".gitwarrant-sandbox-probe")
	script := fmt.Sprintf("echo x > %q 2>/dev/null && exit 3; echo x > %q || exit 4; rm -f %q", target, free, free)
	cmd := exec.Command(bwrap, append(args, "--", "/bin/sh", "-c", script)...)
	out, err := cmd.CombinedOutput()
	defer os.Remove(target)
	defer os.Remove(free)
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	switch {
	case code == 0:
		c.Status, c.Detail = Live, "a write into "+relTo(root, target)+" from inside the sandbox fails (Read-only file system)"
	case code == 3:
		c.Status, c.Detail = Fail, "a write into "+relTo(root, target)+" from inside the sandbox succeeded"
		c.Fix = "check sandbox.filesystem.denyWrite in " + SettingsPath
	default:
		c.Status, c.Detail = Warn, fmt.Sprintf("bubblewrap could not run the probe (%v): %s", err, strings.TrimSpace(string(out)))
		c.Fix = "bubblewrap needs user namespaces: sysctl kernel.unprivileged_userns_clone=1, or run doctor where Claude Code runs"
	}
	return c
}

func relTo(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return r
	}
	return p
}

func jsonInto(raw []byte, v any) error { return json.Unmarshal(raw, v) }
