// Package hooks holds the git hook scripts `gitwarrant install` writes into
// a clone's hooks directory, as real files a reviewer reads here
// (docs/install.md#git-hooks). install substitutes only the binary's path.
package hooks

import (
	_ "embed"
	"strings"
)

//go:embed pre-commit
var preCommit string

//go:embed commit-msg
var commitMsg string

//go:embed pre-push
var prePush string

// binPlaceholder is replaced by the shell-quoted absolute path of the
// gitwarrant binary install ran as.
const binPlaceholder = "'@GITWARRANT@'"

// Names are the git hooks gitwarrant wires, in the order install wires them.
var Names = []string{"pre-commit", "commit-msg"}

// Optional are the git hooks install wires only when asked: pre-push runs
// the CI gate against what the remote holds (`install --pre-push`).
var Optional = []string{"pre-push"}

// Shim returns the script for hook with bin as the recorded binary ("" when
// unknown: the shim then looks on PATH only). ok is false for a hook
// gitwarrant has no shim for.
func Shim(hook, bin string) (script string, ok bool) {
	var s string
	switch hook {
	case "pre-commit":
		s = preCommit
	case "commit-msg":
		s = commitMsg
	case "pre-push":
		s = prePush
	default:
		return "", false
	}
	return strings.Replace(s, binPlaceholder, shellQuote(bin), 1), true
}

// shellQuote single-quotes s for POSIX sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
