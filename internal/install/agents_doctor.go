package install

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/hook"
)

// agentProbes are payloads each client could send that the hook cannot
// check: a pinned or project hook answers them with a block (a payload
// gitwarrant cannot read asks, and these clients' ask is a block), and
// the gate writes nothing to the record for them. So the doctor proves a
// hook live — its command resolves, gitwarrant runs, and the answer is a
// block in the client's protocol — without a trace in the record.
var agentProbes = map[string]string{
	hook.ClientCodex:  `{"session_id":"gitwarrant-doctor","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"gitwarrant doctor probe: not a patch"},"tool_use_id":"gitwarrant-doctor","cwd":%q}`,
	hook.ClientGemini: `{"session_id":"gitwarrant-doctor","hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"gitwarrant doctor probe: no URL"},"cwd":%q}`,
	hook.ClientCursor: `{"conversation_id":"gitwarrant-doctor","hook_event_name":"beforeReadFile","file_path":"","workspace_roots":[%q]}`,
}

// agentNames are the clients' names in the doctor's table.
var agentNames = map[string]string{hook.ClientCodex: "Codex", hook.ClientGemini: "Gemini CLI", hook.ClientCursor: "Cursor"}

// diagnoseAgents checks each client whose hook file holds a gitwarrant
// entry: the entry runs and blocks a probe, and none of the client's own
// switches turns hooks off.
func diagnoseAgents(env DoctorEnv) []Check {
	var out []Check
	for _, client := range hook.Clients {
		rel := agentFiles[client]
		d, existed, err := loadJSON(env.Root, rel)
		name := agentNames[client] + " hook"
		if err != nil {
			out = append(out, Check{Name: name, Status: Fail, Detail: err.Error(), Fix: "fix the file by hand", Gate: true})
			continue
		}
		if !existed {
			continue
		}
		item, cmd := findAgentItem(d, client, agentEvents[client][0].name)
		if item == nil {
			continue
		}
		out = append(out, probeAgent(env, client, rel, cmd))
		out = append(out, agentSwitches(env, client)...)
	}
	return out
}

// probeAgent runs the hook command as the client would — through the
// shell, in the project, with the probe on stdin — and checks that it
// blocks: exit 2 with a reason from gitwarrant.
func probeAgent(env DoctorEnv, client, rel, command string) Check {
	c := Check{Name: agentNames[client] + " hook", Gate: true}
	base, _, _ := parseMarker(command)
	// Longer than the command's own watchdog, so a hung gitwarrant shows
	// as the watchdog's block.
	wait := time.Duration(hook.AgentWait+10) * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", base)
	cmd.Dir = env.Root
	cmd.Env = []string{"PATH=" + env.Getenv("PATH"), "HOME=" + env.Getenv("HOME")}
	cmd.Stdin = strings.NewReader(fmt.Sprintf(agentProbes[client], env.Root))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
	}
	reason := strings.TrimSpace(stderr.String())
	switch {
	case ctx.Err() != nil:
		c.Status, c.Detail, c.Fix = Fail, fmt.Sprintf("%s: the hook gave no answer within %v", rel, wait), "run `gitwarrant hook "+client+"` by hand to see why"
	case code == 2 && strings.Contains(reason, "so the call is blocked: run it by hand"):
		// The command's own block for a gitwarrant that crashed, was
		// killed or hung: every call is blocked, none decided.
		c.Status, c.Detail, c.Fix = Fail, rel+": "+firstLine(reason), "run `gitwarrant hook "+client+"` by hand to see why"
	case code == 2 && strings.Contains(reason, "gitwarrant"):
		c.Status, c.Detail = Live, fmt.Sprintf("%s: %s (blocks a probe it cannot check: exit 2)", rel, agentSummary(base))
	default:
		c.Status = Fail
		c.Detail = fmt.Sprintf("%s: a probe the hook cannot check was not blocked (exit %d, stdout %q, stderr %q)", rel, code, firstLine(stdout.String()), firstLine(reason))
		c.Fix = "run `gitwarrant install` again; is gitwarrant on PATH and this a gitwarrant project?"
		if _, ok := env.lookPath("gitwarrant"); !ok {
			c.Detail = rel + ": the hook runs `gitwarrant` by name, and gitwarrant is not on PATH"
			c.Fix = "install it (" + InstallHint + ") and put it on PATH"
		}
	}
	return c
}

// agentSwitches reports the client's own switches that keep its hooks
// from running (docs/agents.md#switches).
func agentSwitches(env DoctorEnv, client string) []Check {
	home := env.Getenv("HOME")
	switch client {
	case hook.ClientCodex:
		return codexSwitches(env, home)
	case hook.ClientGemini:
		return geminiSwitches(env, home)
	}
	return nil
}

// The TOML patterns are compiled on first use, by doctor: every process of
// this binary initialises the package (docs/performance.md#start-up).
var (
	tomlSection  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[([^\]]*)\]\s*(#.*)?$`) })
	tomlHooksOff = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(features\.)?hooks\s*=\s*false\b`) })
)

// codexSwitches: the hooks feature turned off in a config.toml, and hook
// trust — Codex 0.171 runs a project's hooks only once a person has
// trusted them (or under --dangerously-bypass-hook-trust), and only in a
// trusted project.
func codexSwitches(env DoctorEnv, home string) []Check {
	codexHome := env.Getenv("CODEX_HOME")
	if codexHome == "" && home != "" {
		codexHome = filepath.Join(home, ".codex")
	}
	var out []Check
	for _, f := range []string{filepath.Join(env.Root, ".codex", "config.toml"), filepath.Join(codexHome, "config.toml")} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		section := ""
		sc := bufio.NewScanner(bytes.NewReader(data))
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if m := tomlSection().FindStringSubmatch(line); m != nil {
				section = strings.TrimSpace(m[1])
				continue
			}
			if tomlHooksOff().MatchString(line) && (section == "features" || strings.Contains(line, "features.")) {
				out = append(out, Check{Name: "Codex hooks enabled", Status: Fail, Gate: true,
					Detail: fmt.Sprintf("%s:%d: %s — Codex runs no hook, so the gate never runs", f, n, strings.TrimSpace(line)),
					Fix:    "remove the line"})
			}
		}
	}
	hooksFile := filepath.Join(env.Root, ".codex", "hooks.json")
	user, _ := os.ReadFile(filepath.Join(codexHome, "config.toml"))
	if !bytes.Contains(user, []byte(hooksFile+":pre_tool_use")) || !bytes.Contains(user, []byte("trusted_hash")) {
		out = append(out, Check{Name: "Codex hook trust", Status: Warn,
			Detail: "Codex 0.171 runs the hooks in " + hooksFile + " only after a person trusts them (their hash is then kept in ~/.codex/config.toml) and only in a trusted project",
			Fix:    "start `codex` here and trust the project and its hooks when it asks (automation that vets the repository passes --dangerously-bypass-hook-trust)"})
	}
	return out
}

// geminiSwitches: hooksConfig.enabled false in a settings file, and folder
// trust — Gemini CLI runs a project's hooks only in a trusted folder.
func geminiSwitches(env DoctorEnv, home string) []Check {
	var out []Check
	trustOn := false
	for _, f := range []string{filepath.Join(env.Root, ".gemini", "settings.json"), filepath.Join(home, ".gemini", "settings.json")} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s struct {
			HooksConfig struct {
				Enabled *bool `json:"enabled"`
			} `json:"hooksConfig"`
			Security struct {
				FolderTrust struct {
					Enabled *bool `json:"enabled"`
				} `json:"folderTrust"`
			} `json:"security"`
		}
		if json.Unmarshal(data, &s) != nil {
			continue
		}
		if e := s.HooksConfig.Enabled; e != nil && !*e {
			out = append(out, Check{Name: "Gemini CLI hooks enabled", Status: Fail, Gate: true,
				Detail: f + `: "hooksConfig": {"enabled": false} — Gemini CLI runs no hook, so the gate never runs`,
				Fix:    `remove "enabled": false from hooksConfig`})
		}
		if e := s.Security.FolderTrust.Enabled; e != nil && *e {
			trustOn = true
		}
	}
	if trustOn {
		trusted, _ := os.ReadFile(filepath.Join(home, ".gemini", "trustedFolders.json"))
		if !bytes.Contains(trusted, []byte(env.Root)) {
			out = append(out, Check{Name: "Gemini CLI folder trust", Status: Warn,
				Detail: "folder trust is on and " + env.Root + " is not in ~/.gemini/trustedFolders.json: Gemini CLI runs no project hook in an untrusted folder",
				Fix:    "trust the folder when Gemini CLI asks (or set GEMINI_CLI_TRUST_WORKSPACE=true where it runs)"})
		}
	}
	return out
}

// agentSummary is the gitwarrant part of a hook command, for the table.
func agentSummary(cmd string) string {
	if _, rest, ok := strings.Cut(cmd, "gitwarrant hook "); ok {
		rest, _, _ = strings.Cut(rest, ";")
		rest, _, _ = strings.Cut(rest, "||")
		return "gitwarrant hook " + strings.TrimSpace(rest)
	}
	return cmd
}
