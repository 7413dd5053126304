package gate

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/protect"
	"github.com/gitwarrant/gitwarrant/internal/shell"
)

// git screens one git clause (docs/threat-model.md#what-the-gate-protects): config given on
// the command line, hooks skipped, config written, the record's refs
// rewritten, and pushes described for ask and never entries.
func (a *analysis) git(g *shell.Git, cl *shell.Clause, st *shellState) {
	c := a.c
	if st.pathChanged {
		c.deny("git runs with a changed PATH, and the git hook shims skip themselves when gitwarrant is not on PATH")
	}
	for k, vs := range g.Config {
		k = strings.ToLower(k)
		switch {
		case protect.HookKey(k):
			c.deny("git is given " + k + " for this command, which redirects or switches off the hooks that anchor the record")
		case protect.CodeKey(k):
			c.unreadable("git is given " + k + ", which runs a program")
		case strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".push") || strings.HasSuffix(k, ".mirror")):
			for _, v := range vs {
				if strings.Contains(strings.ToLower(v), "gitwarrant") || strings.HasPrefix(v, "+") && strings.Contains(v, "*") {
					c.deny("git is given " + k + "=" + v + ", which forces or mirrors the record's refs")
				}
			}
		}
	}
	if g.Opaque {
		c.unreadable("git: " + g.Why)
	}
	args := words(g.Args)
	// The canonical form with long options expanded, so `--forc` reads as
	// `--force` to ask and never entries; messages and patterns are data
	// (docs/shell.md#data).
	c.Texts = append(c.Texts, strings.TrimSpace("git "+strings.Join(g.SpeltWords(), " ")))
	lit := true
	for _, w := range g.Args {
		lit = lit && w.Literal
	}
	sub := strings.ToLower(g.Sub)
	if (sub == "switch" || sub == "checkout") && lit && !pathspecs(g) {
		a.switchLoops(g, cl)
	}
	if lit {
		a.objectMoves(g, cl) // gitmoves.go
	}
	if first, _, _ := strings.Cut(sub, " "); headMovers()[first] {
		st.headMoved = "git " + sub
		if b := checkedOut(g); b != "" {
			st.headBranch = b
		}
	}
	switch sub {
	case "reflog expire", "reflog delete":
		c.deny("git " + sub + " drops the history that shows the record's refs were rewritten")
	case "commit", "merge", "push", "am", "rebase", "cherry-pick", "revert", "pull", "stash", "switch", "checkout":
		for _, o := range g.Options {
			if o.Name == "no-verify" && !o.Negated || o.Name == "verify" && o.Negated {
				c.deny("git " + sub + " --no-verify skips the git hooks that anchor the record")
			}
		}
		for _, w := range args {
			if w == "--no-verify" {
				c.deny("git " + sub + " --no-verify skips the git hooks that anchor the record")
			}
		}
		if sub == "commit" && shortFlag(args, 'n', "mFCctS") {
			c.deny("git commit -n skips the git hooks that anchor the record")
		}
	case "config", "config set", "config unset", "config edit", "config rename-section", "config remove-section", "config get", "config list":
		a.gitConfig(args, g.Args)
		for _, e := range g.Edits {
			a.configEdit(e)
			if e.Op == "set" || e.Op == "add" {
				if st.gitConfig == nil {
					st.gitConfig = map[string][]string{}
				}
				st.gitConfig[e.Key] = append(st.gitConfig[e.Key], e.Value)
			}
		}
		if g.Opaque && len(g.Edits) == 0 && !configReads(args) {
			c.deny("git config with a word the gate cannot read may write core.hooksPath")
		}
	case "replace":
		c.deny("git replace rewrites what objects (and the record's commits) read as")
	case "reflog":
		for _, w := range args {
			if w == "expire" || w == "delete" {
				c.deny("git reflog " + w + " drops the history that shows the record's refs were rewritten")
			}
		}
	case "gc":
		for _, w := range args {
			if strings.HasPrefix(w, "--prune") {
				c.deny("git gc " + w + " deletes the objects a rewritten record still points to")
			}
		}
	case "commit-tree", "mktree", "fast-import":
		c.deny("git " + sub + " builds commits the work tree never held, which a checkout could then bring into the loops")
	case "prune", "filter-repo", "filter-branch":
		c.deny("git " + sub + " rewrites or deletes history the record is anchored to")
	case "update-index":
		for _, w := range args {
			if w == "--index-info" || w == "--stdin" {
				c.unreadable("git update-index " + w + " reads the paths it stages from its input")
			}
		}
	case "update-ref", "symbolic-ref":
		for _, w := range args {
			if w == "--stdin" {
				c.unreadable("git " + sub + " --stdin reads the refs to change from its input")
			}
		}
	case "hook", "hook run":
		if sub == "hook run" || len(args) > 0 && args[0] == "run" {
			c.deny("git hook run runs gitwarrant's git hooks, which only git may run")
		}
	case "":
		if !lit {
			c.unreadable("the git command is built at run time")
		}
	}
	if !readOnlyGit()[sub] {
		for _, w := range g.Args {
			if strings.HasPrefix(w.Text, "--pathspec-from-file") && sub != "add" && sub != "commit" {
				// the paths restored, staged or stashed are in a file
				c.unreadable("git " + sub + " reads its paths from a file (" + w.Text + ")")
			}
		}
		for _, w := range g.Args {
			if touchesRecordRef(w.Text) {
				c.deny("git " + sub + " touches refs/gitwarrant, where the record is committed")
				break
			}
		}
	}
	if sub == "fetch" || sub == "pull" {
		// A fetch refspec writes local refs: one whose destination can
		// cover refs/gitwarrant (`+refs/*:refs/*`, with --prune deleting
		// what the remote lacks) rewrites the record.
		for _, w := range g.Operands {
			if _, dst, ok := strings.Cut(w.Text, ":"); ok && wildRef(strings.TrimPrefix(dst, "+")) {
				c.deny("git " + sub + " " + w.Text + " can rewrite or prune refs/gitwarrant, where the record is committed")
				break
			}
		}
		// A refspec with a destination moves a local ref, as update-ref
		// does (`git fetch . +HEAD:main` rewrites main).
		for _, r := range shell.FetchDestinations(g, a.config(st)) {
			if wildRef(r.Dst) || touchesRecordRef(r.Dst) {
				c.deny("git " + sub + " fetches into " + r.Dst + " (configured or given), which can rewrite or prune refs/gitwarrant, where the record is committed")
			}
			name, _ := shell.ShortRef(r.Dst)
			c.Texts = append(c.Texts, "update-ref "+r.Dst, "update local branch "+name)
			if r.Force {
				c.Texts = append(c.Texts, "force update local branch "+name, "rewrite branch "+name)
			}
		}
	}
	// Only a push reads the branch and the configuration (PushIn is nil
	// without one): every other git clause would read HEAD and four
	// config files for nothing.
	if g.Push != nil {
		a.push(g, st)
	}
	if sub != "" && !lit {
		c.opaque()
	}
}

// push describes a push for ask and never entries, under the branch and
// configuration it runs with, and denies one that forces, deletes or
// mirrors refs/gitwarrant.
func (a *analysis) push(g *shell.Git, st *shellState) {
	c := a.c
	branch := a.branch()
	if st.headBranch != "" {
		branch = st.headBranch
	}
	p := g.PushIn(a.config(st), branch)
	if p == nil {
		return
	}
	if st.headMoved != "" && pushesCurrent(p) {
		// HEAD (or a push with no refspec) names the branch the
		// earlier clause left checked out, not the one on disk now.
		c.unreadable("it pushes HEAD after `" + st.headMoved + "`, which may have changed the current branch")
	}
	c.Texts = append(c.Texts, p.Describe()...)
	c.Texts = append(c.Texts, pushMeans(p, branch)...)
	if p.Mirror {
		c.deny("git push --mirror forces and deletes every ref on the remote, the record's included")
	}
	for _, u := range p.Updates {
		if !touchesRecordRef(u.Dst) && !wildRef(u.Dst) {
			continue
		}
		if u.Delete || u.Force || p.Force || p.Delete {
			c.deny("this push deletes or forces refs/gitwarrant, where the record is committed")
		}
	}
}

// readOnlyGit are the git commands that only read refs.
var readOnlyGit = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"log": true, "show": true, "rev-parse": true, "for-each-ref": true, "cat-file": true,
		"ls-remote": true, "rev-list": true, "show-ref": true, "diff": true, "describe": true,
		"name-rev": true, "shortlog": true, "blame": true, "grep": true, "status": true, "merge-base": true,
		"ls-tree": true, "ls-files": true, "verify-commit": true,
	}
})

func touchesRecordRef(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "refs/gitwarrant") || strings.HasPrefix(strings.TrimLeft(l, "+:^"), "gitwarrant/")
}

// wildRef reports a destination that can cover refs/gitwarrant: `refs/*`,
// `*`, or a refspec left symbolic.
func wildRef(dst string) bool {
	return dst == "*" || strings.HasPrefix(dst, "refs/*") || dst == "refs/" || strings.HasSuffix(dst, "/*") && strings.HasPrefix("refs/gitwarrant/", strings.TrimSuffix(dst, "*"))
}

// shortFlag reports whether a cluster of short options (`-nm`) holds flag
// before any option in valued (which takes the rest as its value).
func shortFlag(args []string, flag byte, valued string) bool {
	for _, w := range args {
		if w == "--" {
			return false
		}
		if len(w) < 2 || w[0] != '-' || w[1] == '-' {
			continue
		}
		for i := 1; i < len(w); i++ {
			if w[i] == flag {
				return true
			}
			if strings.IndexByte(valued, w[i]) >= 0 {
				break
			}
		}
	}
	return false
}

// gitConfig denies a write of a hook or code-executing key, an edit of a
// whole config, and a write of a key the gate cannot read.
func (a *analysis) gitConfig(args []string, ws []shell.Word) {
	c := a.c
	write, edit := true, false
	key, keyLiteral := "", true
	valued := map[string]bool{"--file": true, "-f": true, "--blob": true, "--type": true, "--default": true, "--comment": true, "--value": true, "--url": true}
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w == "get", w == "list", w == "--get", w == "--get-all", w == "--get-regexp", w == "--get-urlmatch",
			w == "--list", w == "-l", w == "--get-color", w == "--get-colorbool", w == "--show-origin", w == "--show-scope", w == "--name-only":
			if w != "--show-origin" && w != "--show-scope" && w != "--name-only" {
				write = false
			}
		case w == "edit", w == "-e", w == "--edit":
			edit = true
		case w == "--rename-section", w == "--remove-section", w == "rename-section", w == "remove-section":
			if i+1 < len(args) {
				s := strings.ToLower(args[i+1])
				if s == "core" || strings.HasPrefix(s, "include") || protect.CodeKey(s+".x") {
					c.deny("git config " + w + " " + args[i+1] + " changes which hooks and programs git runs")
				}
			}
		case valued[w]:
			if (w == "--file" || w == "-f") && i+1 < len(args) {
				for _, cand := range []string{Resolve(args[i+1], a.cwd, a.place.Home), Lexical(args[i+1], a.cwd, a.place.Home)} {
					if why, hit := a.place.placeWhy(cand); hit {
						c.deny(why)
					}
				}
			}
			i++
		case strings.HasPrefix(w, "-"), w == "set", w == "unset":
		default:
			if key == "" {
				key, keyLiteral = strings.ToLower(w), ws[i].Literal
			}
		}
	}
	if edit {
		c.deny("git config --edit opens a whole git config, whose core.hooksPath can switch off the hooks that anchor the record")
		return
	}
	if !write || key == "" {
		return
	}
	switch {
	case !keyLiteral:
		c.deny("git config writes a key built at run time, which may be core.hooksPath")
	case protect.HookKey(key):
		c.deny("git config " + key + " redirects or switches off the git hooks that anchor the record")
	case protect.CodeKey(key):
		c.deny("git config " + key + " makes git run a program")
	}
}

// checkedOut is the branch a switch, checkout, branch rename or
// symbolic-ref leaves HEAD on when the clause names it, else "".
func checkedOut(g *shell.Git) string {
	opt := func(names ...string) string {
		for _, o := range g.Options {
			for _, n := range names {
				if o.Name == n && !o.Negated && o.HasValue {
					return o.Value
				}
			}
		}
		return ""
	}
	ops := g.Operands
	switch g.Sub {
	case "switch":
		if b := opt("create", "force-create", "c", "C", "orphan"); b != "" {
			return b
		}
	case "checkout":
		if b := opt("b", "B", "orphan"); b != "" {
			return b
		}
		if g.DashDash {
			return ""
		}
	case "branch":
		for _, o := range g.Options {
			if (o.Name == "move" || o.Name == "M" || o.Name == "m") && len(ops) == 1 {
				return ops[0].Text
			}
		}
		return ""
	case "symbolic-ref":
		if len(ops) == 2 && ops[0].Text == "HEAD" {
			return strings.TrimPrefix(ops[1].Text, "refs/heads/")
		}
		return ""
	default:
		return ""
	}
	if len(ops) > 0 && ops[0].Literal {
		return strings.TrimPrefix(ops[0].Text, "refs/heads/")
	}
	return ""
}

// headMovers are git subcommands that can change the branch HEAD names.
var headMovers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"switch": true, "checkout": true, "stash": true, "worktree": true, "rebase": true,
		"bisect": true, "symbolic-ref": true, "branch": true, "pull": true, "merge": true, "reset": true, "am": true}
})

// pushesCurrent reports a push of HEAD, of the current branch by default,
// or with no refspec.
func pushesCurrent(p *shell.Push) bool {
	if len(p.Updates) == 0 {
		return true
	}
	for _, u := range p.Updates {
		if u.Dst == "" || u.Dst == "HEAD" || u.Src == "HEAD" || u.Src == "@" {
			return true
		}
	}
	return false
}

// pushMeans adds what Describe leaves to the repository: a push of HEAD
// (or with no refspec) is a push to the current branch, and a push of
// every branch is a push to main and master too.
func pushMeans(p *shell.Push, branch string) []string {
	var out []string
	force := p.Force
	for _, u := range p.Updates {
		force = force || u.Force
		// `git push --tags` (or --all, --mirror) with no refspec pushes no
		// current branch; a push with no refspec otherwise does.
		if (u.Dst == "HEAD" || u.Dst == "") && branch != "" && !p.Tags && !p.All && !p.Mirror {
			out = append(out, "push to "+branch)
			if p.Force || u.Force {
				out = append(out, "force push to "+branch)
			}
		}
	}
	if p.All || p.Mirror || p.Matching || wildUpdates(p) {
		for _, b := range []string{"main", "master"} {
			out = append(out, "push to "+b)
			if force || p.Mirror {
				out = append(out, "force push to "+b)
			}
		}
	}
	return out
}

// config is the configuration a push or fetch of this clause reads: the
// repository's files, then what earlier clauses of the command set.
func (a *analysis) config(st *shellState) map[string][]string {
	base := a.c.repoConfig(a.place)
	if len(st.gitConfig) == 0 {
		return base
	}
	out := make(map[string][]string, len(base)+len(st.gitConfig))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range st.gitConfig {
		out[k] = append(append([]string{}, out[k]...), v...)
	}
	return out
}

// branch is the current branch ("" when detached or unknown), read as
// gitx's ReadHead reads it.
func (a *analysis) branch() string {
	s, ok := a.c.headOf(a.place)
	if !ok {
		return ""
	}
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		return strings.TrimPrefix(strings.TrimSpace(ref), "refs/heads/")
	}
	return ""
}

// headOf is HEAD in pl's repository, trimmed, and whether it could be
// read. It is read once per call: the kind, a push and the typed entries
// each need the branch, and each read cost four system calls
// (docs/performance.md#the-http-hook-in-the-server).
func (c *Call) headOf(pl Place) (string, bool) {
	if !c.headRead {
		c.headRead = true
		if pl.Repo != nil {
			if b, err := gitx.ReadFile(filepath.Join(pl.Repo.GitDir, "HEAD")); err == nil {
				c.head, c.headOK = strings.TrimSpace(string(b)), true
			}
		}
	}
	return c.head, c.headOK
}

// repoConfig is the configuration git reads from its files for this
// repository — the user's (XDG, then ~/.gitconfig), the repository's and
// its worktree's, includes followed — read once per call, and only for a
// call that pushes or fetches (docs/threat-model.md#git).
func (c *Call) repoConfig(pl Place) map[string][]string {
	if c.gitConfigRead {
		return c.gitConfig
	}
	c.gitConfigRead = true
	if pl.Repo == nil {
		return nil
	}
	var files []string
	if pl.XDGConfig != "" {
		files = append(files, filepath.Join(pl.XDGConfig, "git", "config"))
	}
	if pl.Home != "" {
		files = append(files, filepath.Join(pl.Home, ".gitconfig"))
	}
	files = append(files, filepath.Join(pl.Repo.CommonDir, "config"), filepath.Join(pl.Repo.GitDir, "config.worktree"))
	c.gitConfig = gitx.ConfigEntries(files...)
	return c.gitConfig
}

func wildUpdates(p *shell.Push) bool {
	for _, u := range p.Updates {
		// A wildcard that can name a branch: refs/heads/*, refs/*, * …
		// (refs/tags/* cannot).
		if strings.Contains(u.Dst, "*") && (!strings.HasPrefix(u.Dst, "refs/") || strings.HasPrefix(u.Dst, "refs/heads/") || strings.HasPrefix(u.Dst, "refs/*")) {
			return true
		}
	}
	return false
}

// configEdit denies a config change the parser read: a hook or
// code-executing key, a whole-file edit, or a section of them renamed or
// removed; a write into a protected config file is a write there.
func (a *analysis) configEdit(e shell.ConfigEdit) {
	c := a.c
	key := strings.ToLower(e.Key)
	switch e.Op {
	case "edit":
		c.deny("git config --edit opens a whole git config, whose core.hooksPath can switch off the hooks that anchor the record")
	case "rename-section", "remove-section":
		if key == "core" || strings.HasPrefix(key, "include") || protect.CodeKey(key+".x") {
			c.deny("git config " + e.Op + " " + e.Key + " changes which hooks and programs git runs")
		}
	default:
		switch {
		case protect.HookKey(key):
			c.deny("git config " + e.Key + " redirects or switches off the git hooks that anchor the record")
		case protect.CodeKey(key):
			c.deny("git config " + e.Key + " makes git run a program")
		}
	}
	if e.File != "" {
		for _, cand := range []string{Resolve(e.File, a.cwd, a.place.Home), Lexical(e.File, a.cwd, a.place.Home)} {
			if why, hit := a.place.placeWhy(cand); hit {
				c.deny(why)
			}
		}
	}
}

// configReads reports a git config command line that only reads.
func configReads(args []string) bool {
	for _, w := range args {
		switch w {
		case "get", "list", "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--get-color", "--get-colorbool":
			return true
		}
	}
	return false
}

// pathspecs reports a clause that names paths after "--" (`git checkout
// main -- src`: a restore, which the path rules judge). `git checkout main
// --`, with nothing after it, is a switch to main.
func pathspecs(g *shell.Git) bool {
	if !g.DashDash {
		return false
	}
	for i, w := range g.Args {
		if w.Text == "--" {
			return i+1 < len(g.Args)
		}
	}
	return false
}

// switchLoops asks when `git switch` or `git checkout` moves the work tree
// to a commit whose loops differ from HEAD's: the hook reads the loops
// from the work tree, so switching to an older branch or commit would put
// its warrant — perhaps a wider one — in force (docs/threat-model.md#git).
// The start point is resolved by git (`git diff --quiet HEAD <start> --
// <loops>`), once, and only for these calls: exit 0 is no change, 1 a
// change, anything else a word git does not read as a commit (`git
// checkout src/x.go` restores a path, which the path rules judge) — or a
// repository git cannot read, which the rest of the gate answers.
func (a *analysis) switchLoops(g *shell.Git, cl *shell.Clause) {
	for _, o := range g.Options {
		if o.Name == "orphan" && !o.Negated {
			a.c.unreadable("git " + g.Sub + " --orphan empties the work tree, the loops with it")
			return
		}
	}
	start := ""
	for _, w := range g.Operands {
		if w.Text != "--" {
			start = w.Text
		}
		break
	}
	if start == "" || a.place.Project == nil || a.place.Root == "" {
		return // no start point: the branch is made at HEAD, nothing moves
	}
	if start == "-" {
		start = "@{-1}"
	}
	if strings.HasPrefix(start, "-") {
		return
	}
	rel, err := filepath.Rel(a.place.Root, a.place.Project.LoopsDir())
	if err != nil || strings.HasPrefix(rel, "..") {
		return
	}
	dir := a.cwd
	if cl.Dir != "" {
		dir = Resolve(cl.Dir, a.cwd, a.place.Home)
	}
	switch gitx.DiffQuiet(dir, "HEAD", start, filepath.ToSlash(rel)) {
	case gitx.Differs:
		a.c.unreadable("git " + g.Sub + " " + start + " changes " + filepath.ToSlash(rel) + ": the loops in force would be that commit's, not this branch's")
		a.c.Texts = append(a.c.Texts, "change the loops", "write to "+filepath.ToSlash(rel))
	}
}
