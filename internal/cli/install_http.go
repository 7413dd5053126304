package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/gitwarrant/gitwarrant/internal/agentkeys"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/install"
	"github.com/gitwarrant/gitwarrant/internal/project"
)

// hookKeyLabel labels the key install makes for the http hook.
const hookKeyLabel = "claude-http-hook"

// httpHookPorts is where install picks the http hook's port: below the
// ephemeral range Linux hands to outgoing connections (32768 and up), so
// no client socket holds it while the server is down.
const httpHookPortMin, httpHookPortMax = 20000, 32767

// httpHookCommands is the http wiring for `install --hook http`
// (docs/install.md#the-http-hook): the port --hook-port names, else the
// one the installed hook's URL names, else a free one picked now, so the
// URL committed in .claude/settings.json stays put; and a hook key, the
// one .claude/settings.local.json holds while it is live, else a new one.
func httpHookCommands(app *App, p *project.Project, w hook.Wiring, port int, explicit bool) (*install.HookCommands, error) {
	addr, err := httpHookAddr(app, p.Root, port)
	if err != nil {
		return nil, err
	}
	keys, err := KeyStore(app)
	if err != nil {
		return nil, err
	}
	secret := install.CurrentHookKey(p.Root)
	if k, err := keys.Lookup(secret); err != nil || k.Scope != agentkeys.ScopeHook {
		_, _ = keys.Revoke(hookKeyLabel) // an older one, lost from the file
		if secret, _, err = keys.Create(hookKeyLabel, agentkeys.ScopeHook); err != nil {
			return nil, Failf("making the http hook's key: %v", err)
		}
	}
	return install.NewHTTPHookCommands(w, addr, secret, explicit), nil
}

func httpHookAddr(app *App, root string, port int) (string, error) {
	if port != 0 {
		if port < 1 || port > 65535 {
			return "", Usagef("e.g. --hook-port 24117", "--hook-port %d is not a port", port)
		}
		return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), nil
	}
	if addr, _, ok := install.CurrentHTTPHook(root); ok {
		return addr, nil
	}
	if addr := lastServerAddr(app); addr != "" {
		return addr, nil // the port of an earlier http wiring, kept
	}
	for range 50 {
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(httpHookPortMin+rand.IntN(httpHookPortMax-httpHookPortMin+1)))
		if ln, err := net.Listen("tcp", addr); err == nil {
			ln.Close()
			return addr, nil
		}
	}
	return "", Failf("found no free port between %d and %d for the http hook: name one with --hook-port", httpHookPortMin, httpHookPortMax)
}

// revokeHookKey revokes the key uninstall took out of
// .claude/settings.local.json: nothing may post hook events with it now.
func revokeHookKey(app *App, secret string) error {
	if secret == "" {
		return nil
	}
	keys, err := KeyStore(app)
	if err != nil {
		return err
	}
	k, err := keys.Lookup(secret)
	if err != nil {
		return nil // unknown or already revoked
	}
	if _, err := keys.Revoke(k.Visible); err != nil {
		return fmt.Errorf("revoking the http hook's key %s: %v", k.Visible, err)
	}
	return nil
}

// ignoreLocalSettings makes sure git ignores .claude/settings.local.json,
// which now holds the hook key: when nothing ignores it yet, a line goes
// into the clone's .git/info/exclude (never committed), so `git add -A`
// cannot commit the key.
func ignoreLocalSettings(app *App, root string) error {
	cmd := exec.Command("git", "check-ignore", "-q", install.LocalSettingsPath)
	cmd.Dir = root
	err := cmd.Run()
	var ee *exec.ExitError
	if err == nil || !errors.As(err, &ee) || ee.ExitCode() != 1 {
		return err // ignored already, or git could not tell
	}
	dir, err := StateDir(app)
	if err != nil {
		return err
	}
	path := filepath.Join(filepath.Dir(dir), "info", "exclude")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		old = append(old, '\n')
	}
	line := "# gitwarrant install --hook http: the hook key lives here\n/" + install.LocalSettingsPath + "\n"
	return os.WriteFile(path, append(old, line...), 0o644)
}

// lastServerAddr is the address in .git/gitwarrant/serve.json, where the
// repository's server listens while it runs (its file goes when it stops).
func lastServerAddr(app *App) string {
	dir, err := StateDir(app)
	if err != nil {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(dir, "serve.json"))
	if err != nil {
		return ""
	}
	var st struct {
		Addr string `json:"addr"`
	}
	if json.Unmarshal(data, &st) != nil {
		return ""
	}
	if host, _, err := net.SplitHostPort(st.Addr); err != nil || host != "127.0.0.1" {
		return ""
	}
	return st.Addr
}
