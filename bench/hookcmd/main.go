// Command hookcmd prints the shell command install writes for a hook, for
// bench/agents.sh to time as the client runs it (sh -c):
//
//	hookcmd claude        the PreToolUse command of .claude/settings.json
//	hookcmd codex         the PreToolUse command of .codex/hooks.json
//	hookcmd codex-watchdog  the same before the kill timer: the shell's watchdog alone
//	hookcmd codex-legacy  the same before the watchdog
//
// The wiring is a bare one (no loop pinned), as bench/agents.sh calls the
// hooks.
package main

import (
	"fmt"
	"os"

	"github.com/gitwarrant/gitwarrant/internal/hook"
)

func main() {
	var w hook.Wiring
	cmds := map[string]string{
		"claude":         w.Pre(),
		"codex":          w.AgentPre(hook.ClientCodex),
		"codex-watchdog": w.WatchdogAgentPre(hook.ClientCodex),
		"codex-legacy":   w.LegacyAgentPre(hook.ClientCodex),
	}
	if len(os.Args) != 2 || cmds[os.Args[1]] == "" {
		fmt.Fprintln(os.Stderr, "usage: hookcmd claude|codex|codex-watchdog|codex-legacy")
		os.Exit(2)
	}
	fmt.Println(cmds[os.Args[1]])
}
