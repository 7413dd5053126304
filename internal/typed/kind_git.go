package typed

import (
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/shell"
)

// ProtectedBranch reports a branch the baseline protects: main, master,
// production, release and release/… (docs/typed-entries.md#kinds). Moving,
// deleting or force-updating one rewrites history people rely on; every
// tag is protected the same way.
func ProtectedBranch(name string) bool {
	// Case folded: on a case-insensitive file system refs/heads/MAIN is
	// the file of refs/heads/main.
	name = strings.ToLower(strings.TrimPrefix(name, "refs/heads/"))
	switch name {
	case "main", "master", "production", "release":
		return true
	}
	return strings.HasPrefix(name, "release/") || strings.HasPrefix(name, "releases/")
}

// gitReads are git subcommands that only read (the repository, the
// remote's refs, the configuration) or print.
var gitReads = sync.OnceValue(func() map[string]bool {
	return set("status", "diff", "log", "show", "blame", "annotate", "grep", "shortlog", "rev-parse", "rev-list",
		"ls-files", "ls-tree", "ls-remote", "describe", "check-ignore", "check-attr", "check-ref-format", "cat-file",
		"name-rev", "merge-base", "show-ref", "for-each-ref", "whatchanged", "cherry", "range-diff", "version",
		"help", "count-objects", "verify-commit", "verify-tag", "verify-pack", "var", "diff-tree", "diff-files",
		"diff-index", "show-branch", "request-pull", "fsck", "archive", "bugreport", "get-tar-commit-id", "fetch")
})

// gitChanges are git subcommands that change only the work tree, the
// index and local refs (which ones are protected is checked apart).
var gitChanges = sync.OnceValue(func() map[string]bool {
	return set("add", "commit", "checkout", "switch", "restore", "reset", "rm", "mv", "clean", "stash", "merge",
		"cherry-pick", "revert", "am", "apply", "init", "clone", "pull", "worktree", "notes", "config", "gc", "prune",
		"repack", "maintenance", "submodule", "sparse-checkout", "bisect", "branch", "tag", "rebase", "remote",
		"reflog", "format-patch", "update-index", "update-ref", "symbolic-ref", "mergetool", "rerere", "pack-refs",
		"replace", "read-tree", "write-tree", "commit-tree", "hash-object", "checkout-index", "mktag", "mktree",
		"lfs", "difftool", "citool", "gui", "bundle", "fast-export")
})

// gitListing are the two-word forms of change subcommands that only list.
var gitListing = sync.OnceValue(func() map[string]bool {
	return set("stash list", "stash show", "worktree list", "notes list", "notes show", "submodule status",
		"submodule summary", "reflog show", "remote show", "remote get-url", "sparse-checkout list", "bisect log",
		"bisect visualize", "lfs ls-files", "lfs status", "lfs env", "lfs version", "config get", "config list")
})

// gitKind classifies a git clause the parser has read: its subcommand, and
// whether it moves, deletes or force-updates a protected branch or a tag.
func gitKind(g *shell.Git, env Env) Kind {
	k := Kind{Cmd: "git " + g.Sub, Verb: loops.Change}
	first, _, _ := strings.Cut(g.Sub, " ")
	switch {
	case g.Sub == "":
		// No subcommand: git prints its version, help or a path, and runs nothing.
		return Kind{Verb: loops.Read, Cmd: "git", Why: "runs no subcommand"}
	case !g.Builtin:
		return Kind{Verb: loops.Send, Cmd: k.Cmd, Why: "is not a git command the gate knows (an alias or a git-" + first + " program), so it may push"}
	case first == "push" || first == "send-pack" || first == "http-push":
		return Kind{Verb: loops.Send, Cmd: "git push", Why: "pushes to a remote"}
	case first == "send-email" || first == "imap-send":
		return Kind{Verb: loops.Send, Cmd: k.Cmd, Why: "sends mail"}
	case gitReads()[first]:
		return Kind{Verb: loops.Read, Cmd: k.Cmd}
	case !gitChanges()[first]:
		return Kind{Verb: loops.Send, Cmd: k.Cmd, Why: "is not a git command the gate has a kind for, so it may push"}
	}
	if len(g.Operands) > 0 && gitListing()[first+" "+g.Operands[0].Text] {
		return Kind{Verb: loops.Read, Cmd: k.Cmd + " " + g.Operands[0].Text}
	}
	if why := gitRewrite(g, first, env); why != "" {
		return Kind{Verb: loops.Send, Cmd: k.Cmd, Why: why}
	}
	if gitOnlyLists(g, first) {
		return Kind{Verb: loops.Read, Cmd: k.Cmd}
	}
	return k
}

// switchedBranch says which branch a clause leaves HEAD on when it is a
// `git switch` or `git checkout` to another branch; a target it cannot
// name (`git switch -`, a word built at run time) is taken to be a
// protected one, main, so a rewrite after it asks.
func switchedBranch(c shell.Clause, env Env) (string, bool) {
	if c.Name() != "git" {
		return "", false
	}
	g, _ := c.Git()
	if g == nil || g.Opaque {
		return "main", true
	}
	first, _, _ := strings.Cut(g.Sub, " ")
	if first != "switch" && first != "checkout" {
		return "", false
	}
	for i, o := range g.Options {
		switch o.Name {
		case "b", "B", "c", "C", "create", "force-create", "orphan":
			var ops []string
			for _, w := range g.Operands {
				ops = append(ops, w.Text)
			}
			return gitOptValue(g, i, ops), true
		case "detach", "d":
			return "", true
		}
	}
	if g.DashDash || len(g.Operands) == 0 {
		return "", false // paths, or nothing to switch to
	}
	op := g.Operands[0]
	switch {
	case !op.Literal || op.Text == "-" || strings.HasPrefix(op.Text, "@{"):
		return "main", true
	case first == "switch" || LocalBranch(env.Root, op.Text) || ProtectedBranch(op.Text):
		return op.Text, true
	}
	return "", false
}

// gitOnlyLists reports the forms of branch, tag, stash, remote, config and
// worktree that only print.
func gitOnlyLists(g *shell.Git, first string) bool {
	switch first {
	case "branch", "tag":
		for _, o := range g.Options {
			switch o.Name {
			case "list", "l", "show-current", "all", "a", "remotes", "r", "verbose", "v", "contains", "no-contains",
				"merged", "no-merged", "points-at", "sort", "format", "column", "color", "ignore-case", "i", "n",
				"abbrev", "omit-empty":
			default:
				return false
			}
		}
		if len(g.Operands) > 0 && !hasOpt(g, "list", "l") {
			return false
		}
		return true
	case "stash", "worktree", "remote", "submodule", "notes", "reflog":
		if first == "remote" && len(g.Operands) == 0 {
			return true
		}
		return false
	case "config":
		return len(g.Edits) == 0
	}
	return false
}

func hasOpt(g *shell.Git, names ...string) bool {
	for _, o := range g.Options {
		for _, n := range names {
			if o.Name == n && !o.Negated {
				return true
			}
		}
	}
	return false
}

// gitRewrite says how a clause moves, deletes or force-updates a protected
// branch or a tag, or "".
func gitRewrite(g *shell.Git, first string, env Env) string {
	ops := make([]string, 0, len(g.Operands))
	for _, w := range g.Operands {
		ops = append(ops, w.Text)
	}
	onProtected := env.Branch != "" && ProtectedBranch(env.Branch)
	switch first {
	case "branch":
		if hasOpt(g, "delete", "d", "D", "force", "f", "move", "m", "M", "copy", "c", "C", "set-upstream-to", "u", "unset-upstream", "edit-description") {
			for _, o := range ops {
				if ProtectedBranch(o) {
					return "moves, renames or deletes the protected branch " + o
				}
			}
			if onProtected && (hasOpt(g, "move", "m", "M") || hasOpt(g, "delete", "d", "D")) && len(ops) <= 1 {
				return "renames the protected branch " + env.Branch
			}
		}
	case "tag":
		if hasOpt(g, "delete", "d", "force", "f") {
			return "moves or deletes a tag"
		}
	case "update-ref", "symbolic-ref":
		for _, o := range ops {
			if strings.HasPrefix(o, "refs/tags/") || ProtectedBranch(o) || o == "HEAD" && onProtected {
				return "moves the protected ref " + o
			}
		}
	case "rebase":
		if hasOpt(g, "root") {
			return "rewrites every commit of the branch, those the protected branches hold included"
		}
		if hasOpt(g, "update-refs") || !hasOpt(g, "no-update-refs") && configTrue(env, "rebase.updaterefs") {
			return "moves every branch that points into the commits it rewrites, protected ones included (--update-refs)"
		}
		if len(ops) >= 2 && ProtectedBranch(ops[1]) {
			return "rewrites the protected branch " + ops[1]
		}
		if onProtected {
			return "rewrites the protected branch " + env.Branch
		}
	case "reset":
		if onProtected {
			for _, o := range ops {
				if o != "HEAD" && o != "@" {
					return "moves the protected branch " + env.Branch
				}
			}
			if hasOpt(g, "hard", "soft", "mixed", "keep", "merge") && len(ops) > 0 && !g.DashDash {
				return "moves the protected branch " + env.Branch
			}
		}
	case "commit":
		if onProtected && hasOpt(g, "amend") {
			return "rewrites the last commit of the protected branch " + env.Branch
		}
	case "checkout", "switch", "worktree":
		// `git worktree add -B main ../w HEAD~3` resets main as checkout -B does.
		for i, o := range g.Options {
			if (o.Name == "B" || o.Name == "C" || o.Name == "force-create") && ProtectedBranch(gitOptValue(g, i, ops)) {
				return "resets the protected branch " + gitOptValue(g, i, ops)
			}
		}
	case "fetch", "pull":
		// A refspec with a local destination moves that ref as update-ref
		// does; the typed units make such a clause opaque already.
	}
	return ""
}

// configTrue reports a boolean git setting that is on in the repository's
// configuration (its last value wins).
func configTrue(env Env, key string) bool {
	vals := env.gitConfig()[key]
	if len(vals) == 0 {
		return false
	}
	switch strings.ToLower(vals[len(vals)-1]) {
	case "true", "yes", "on", "1", "":
		return true
	}
	return false
}

// gitOptValue is an option's value: given with it, or the first operand
// (`git checkout -B main`, where the parser keeps the branch an operand).
func gitOptValue(g *shell.Git, i int, ops []string) string {
	if g.Options[i].HasValue {
		return g.Options[i].Value
	}
	if len(ops) > 0 {
		return ops[0]
	}
	return ""
}
