package hook

import (
	"path/filepath"
	"strings"
)

// Shell analysis is deliberately generous (docs/design.md#enforcement-surfaces): a shell is a
// universal escape hatch, so a false deny here costs a person one command
// while a false pass could cost the warrant. It reads the command as words
// after removing quotes and backslashes (so `'gitwarrant' amend`,
// `gitw''arrant amend` and `sh -c 'gitwarrant amend'` read the same) and
// treats every shell operator as a word boundary (so `;`, `&&`, `|`, `$(`
// and backticks hide nothing).

// humanOnly are gitwarrant's commands that an agent's shell may not run:
// amends, reviews, signing and keys widen or vouch for a warrant;
// install/uninstall/init/new rewrite the gates or the loops themselves; and
// the hooks are run by Claude Code and git, never by an agent — an agent
// running `hook claude --post` could forge the evidence that a person
// approved a call.
var humanOnly = map[string]bool{
	"amend": true, "review": true, "sign": true, "signers": true, "keys": true, "key": true,
	"uninstall": true, "install": true, "init": true, "new": true, "hook": true,
}

// agentSafe are gitwarrant commands an agent is expected to run (the
// compiled context tells it to check, match and note); their arguments are
// plain text and may mention "review" without running it.
var agentSafe = map[string]bool{
	"check": true, "match": true, "list": true, "show": true, "version": true,
	"help": true, "record": true, "metrics": true, "compile": true, "templates": true,
	"mcp": true, "serve": true, "verify": true, "demo": true, "ci": true,
}

// writers are commands and subcommands that write, move or delete files
// (POSIX tools, interpreters that can, git porcelain that rewrites paths,
// and PowerShell cmdlets and aliases).
var writers = map[string]bool{
	"tee": true, "cp": true, "mv": true, "rm": true, "rmdir": true, "unlink": true,
	"ln": true, "touch": true, "truncate": true, "dd": true, "install": true,
	"rsync": true, "chmod": true, "chown": true, "chgrp": true, "shred": true,
	"mkdir": true, "patch": true, "perl": true, "python": true, "python3": true,
	"node": true, "ruby": true, "php": true, "deno": true, "bun": true,
	"checkout": true, "restore": true, "reset": true, "clean": true, "stash": true,
	"apply": true, "am": true, "switch": true, "update-ref": true, "symbolic-ref": true,
	"set-content": true, "add-content": true, "out-file": true, "remove-item": true,
	"copy-item": true, "move-item": true, "new-item": true, "rename-item": true,
	"clear-content": true, "del": true, "erase": true, "copy": true, "move": true, "ren": true,
	// Red-team additions: editors, archivers, downloaders, find's actions,
	// and git commands that rewrite the work tree or the index.
	"vi": true, "vim": true, "nvim": true, "nano": true, "emacs": true, "ed": true, "ex": true,
	"awk": true, "gawk": true, "sponge": true, "tar": true, "bsdtar": true, "unzip": true,
	"cpio": true, "7z": true, "curl": true, "wget": true, "-delete": true, "-exec": true,
	"-execdir": true, "-ok": true, "-fprint": true, "update-index": true, "merge": true,
	"rebase": true, "pull": true, "cherry-pick": true, "revert": true, "read-tree": true,
	"checkout-index": true, "filter-branch": true, "filter-repo": true, "worktree": true,
}

// shellMarkers are the places whose mention, together with a write, denies.
// ".loop.md" names loop files wherever they are (`find . -name
// '*.loop.md' -delete`); ".gitw" catches the project dir behind a glob or a split word
// (`.gitw*`, `.gitwarr?nt`); ".gitconfig" and "git/config" are the global
// configs whose core.hooksPath switches the git hooks off.
var shellMarkers = []string{
	".gitwarrant", ".docket", ".git/hooks", ".git/config", ".git/gitwarrant",
	".claude/settings", ".mcp.json", "hookspath", ".gitw", ".gitconfig", "git/config",
	"include.path", "includeif", ".loop.md",
}

// gateSwitches are words that switch a git hook or its manager off for one
// command, or point git at another config: whatever else the command does,
// it runs with the record's anchor disabled (docs/design.md#enforcement-surfaces).
var gateSwitches = []string{
	"--no-verify", "husky=0", "husky_skip_hooks", "lefthook=0", "lefthook_exclude",
	"git_config_global", "git_config_system", "git_config_count", "git_config_parameters",
	"git_config_nosystem", "git_config=",
}

// unquote joins quoted pieces; slash reads backslashes as path separators
// (PowerShell paths).
var (
	unquote = strings.NewReplacer(`'`, "", `"`, "", `\`, "")
	slash   = strings.NewReplacer(`'`, "", `"`, "", `\`, "/")
)

func (g guard) shell(cmd string) (string, bool) {
	for _, v := range shellVariants(cmd) {
		if why, hit := g.shellOne(v); hit {
			return why, true
		}
	}
	return g.shellIndirect(cmd)
}

// shellOne analyses one reading of a command.
func (g guard) shellOne(cmd string) (string, bool) {
	joined := strings.ToLower(unquote.Replace(cmd))
	slashed := strings.ToLower(slash.Replace(cmd))
	if strings.Contains(joined, "refs/gitwarrant") || strings.Contains(slashed, "refs/gitwarrant") {
		return "it touches refs/gitwarrant, where the record is committed", true
	}
	words := shellWords(joined)
	if sub, hit := runsHumanOnly(words); hit {
		return "`gitwarrant " + sub + "` is for people only (amending, reviewing, signing, keys and (un)installing the gates)", true
	}
	if signsAmends(cmd, words) {
		return "`ssh-keygen -Y sign -n gitwarrant` makes a person's signature on an amend; only that person signs", true
	}
	if why, hit := switchesGateOff(cmd, joined, words); hit {
		return why, true
	}
	marker := g.mentioned(joined, slashed)
	if marker == "" {
		marker = g.mentionedWord(words)
	}
	if marker == "" {
		return "", false
	}
	if w := g.writes(joined, words); w != "" {
		return "it changes " + marker + " from the shell (" + w + "); the loops, the record, the git hooks and the hook settings are changed by a person", true
	}
	return "", false
}

// shellWords splits a command on whitespace and shell operators.
func shellWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		switch r {
		case ' ', '\t', '\n', '\r', ';', '&', '|', '(', ')', '<', '>', '`', '$', '{', '}':
			return true
		}
		return false
	})
}

// runsHumanOnly finds an invocation of gitwarrant (or docket) whose
// subcommand is human-only. When the subcommand cannot be read (it comes
// from an expansion, say), any human-only word later in the command counts.
func runsHumanOnly(words []string) (string, bool) {
	for i, w := range words {
		if !isGitwarrant(w) || (i > 0 && (words[i-1] == "cd" || words[i-1] == "pushd")) {
			continue
		}
		sub := subcommand(words[i+1:])
		if humanOnly[sub] {
			return sub, true
		}
		if agentSafe[sub] {
			continue
		}
		for _, later := range words[i+1:] {
			if humanOnly[later] {
				return later, true
			}
		}
	}
	return "", false
}

// isGitwarrant reports whether a word names the gitwarrant (or docket)
// binary: a bare name, a path ending in it (`./bin/gitwarrant`,
// `go run ./cmd/gitwarrant`), a versioned module path or a platform build.
func isGitwarrant(w string) bool {
	base := w[strings.LastIndex(w, "/")+1:]
	if i := strings.IndexByte(base, '@'); i >= 0 {
		base = base[:i]
	}
	base = strings.TrimSuffix(base, ".exe")
	return base == "gitwarrant" || strings.HasPrefix(base, "gitwarrant-") ||
		base == "docket" || base == "docket-agent"
}

// subcommand is the first word that is not a flag, skipping the value of
// the global --dir flag.
func subcommand(rest []string) string {
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		if w == "--dir" {
			i++
			continue
		}
		if strings.HasPrefix(w, "-") {
			continue
		}
		return w
	}
	return ""
}

// mentioned returns the first protected place the command names, or "".
func (g guard) mentioned(variants ...string) string {
	markers := shellMarkers
	for _, dir := range []string{g.projectDir, g.hooksDir} {
		if dir == "" {
			continue
		}
		markers = append(markers[:len(markers):len(markers)], strings.ToLower(filepath.ToSlash(dir)))
		if g.repoRoot != "" {
			if rel, err := filepath.Rel(g.repoRoot, dir); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
				markers = append(markers, strings.ToLower(filepath.ToSlash(rel)))
			}
		}
	}
	for _, m := range markers {
		for _, v := range variants {
			if strings.Contains(v, m) {
				return m
			}
		}
	}
	return ""
}

// writes names the first sign of a write in a command: an output redirect
// to anything but /dev/null or a standard stream, or a writing command.
func (g guard) writes(joined string, words []string) string {
	if g.redirectsInto(joined, words) {
		return "a redirect"
	}
	sed, inPlace, config, configRead := false, false, false, false
	for i, w := range words {
		base := w[strings.LastIndex(w, "/")+1:]
		switch {
		case strings.Contains(w, "hookspath="):
			return "setting core.hooksPath"
		case base == "sed":
			sed = true
		case strings.HasPrefix(w, "-i") || strings.HasPrefix(w, "--in-place") || (strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "i")):
			inPlace = true
		case w == "config" && i > 0 && (words[i-1] == "git" || strings.HasPrefix(words[i-1], "-")):
			config = true
		case w == "--get" || w == "--get-all" || w == "--list" || w == "-l" || w == "--get-regexp":
			configRead = true
		}
		if writers[base] {
			return base
		}
	}
	if sed && inPlace {
		return "sed -i"
	}
	if config && !configRead {
		return "git config"
	}
	return ""
}

// redirectsInto reports a redirect that may write a protected place: one
// whose target names one, cannot be read (an expansion or a glob), or is
// relative while the command changes directory or runs from inside a
// protected place. `git diff .gitwarrant > /tmp/d.patch` reads the
// project and writes elsewhere, so it passes.
func (g guard) redirectsInto(joined string, words []string) bool {
	if !redirects(joined) {
		return false
	}
	cd := false
	for _, w := range words {
		cd = cd || w == "cd" || w == "pushd" || w == "set-location" || w == "sl" || w == "chdir"
	}
	_, cwdProtected := g.pathIn(resolve(g.cwd, ""))
	for _, t := range redirectTargets(joined) {
		rel := !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~")
		if t == "" || strings.ContainsAny(t, "$`*?[{") || g.mentioned(t) != "" || g.mentionedWord([]string{t}) != "" ||
			(rel && (cd || (g.cwd != "" && cwdProtected))) {
			return true
		}
	}
	return false
}

// redirectTargets lists the words after each file-writing `>`.
func redirectTargets(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '>' || (i > 0 && s[i-1] == '>') {
			continue
		}
		rest := strings.TrimLeft(s[i+1:], ">| \t")
		if strings.HasPrefix(s[i+1:], "&") || strings.HasPrefix(rest, "&") {
			continue
		}
		end := strings.IndexAny(rest, " \t\n;&|<>()")
		if end < 0 {
			end = len(rest)
		}
		t := rest[:end]
		if t == "/dev/null" || t == "/dev/stderr" || t == "/dev/stdout" {
			continue
		}
		out = append(out, t)
	}
	return out
}

// redirects reports an output redirection that can write a file: `>` or
// `>>`, but not `2>&1`, `>&2` or a redirect to /dev/null or a std stream.
func redirects(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '>' {
			continue
		}
		rest := strings.TrimLeft(s[i+1:], ">| \t")
		switch {
		case strings.HasPrefix(s[i+1:], "&"), strings.HasPrefix(rest, "&"):
			continue
		case strings.HasPrefix(rest, "/dev/null"), strings.HasPrefix(rest, "/dev/stderr"), strings.HasPrefix(rest, "/dev/stdout"):
			continue
		}
		return true
	}
	return false
}
