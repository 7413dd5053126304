package shell

import "strings"

// Push is what a git push updates on the remote. See docs/shell.md#push.
type Push struct {
	Remote  string // as given ("" = the default remote)
	Updates []RefUpdate
	All     bool // --all / --branches
	Mirror  bool
	Tags    bool
	Force   bool // -f, --force, --force-with-lease, --mirror
	Delete  bool // --delete
	Prune   bool // --prune: deletes remote refs with no local counterpart
	DryRun  bool
	// Matching is true when branches with the same name on both sides
	// are pushed (":" refspec, push.default=matching).
	Matching bool
}

// RefUpdate is one remote ref a push changes. Src and Dst are as written
// (after unquoting); a push with no refspec leaves Src and Dst "HEAD".
type RefUpdate struct {
	Src, Dst      string
	Force, Delete bool
}

func (g *Git) push() *Push {
	p := &Push{}
	for _, o := range g.Options {
		switch o.Name {
		case "force":
			p.Force = !o.Negated
		case "force-with-lease":
			p.Force = !o.Negated
		case "delete":
			p.Delete = !o.Negated
		case "all":
			p.All = !o.Negated
		case "mirror":
			p.Mirror = !o.Negated
		case "tags":
			p.Tags = !o.Negated
		case "prune":
			p.Prune = !o.Negated
		case "dry-run":
			p.DryRun = !o.Negated
		case "repo":
			if !o.Negated {
				p.Remote = o.Value
			}
		case "receive-pack", "exec":
			if !o.Negated {
				g.opaque("--" + o.Name + " runs a program on the remote side")
			}
		}
	}
	ops := g.Operands
	if len(ops) > 0 {
		p.Remote = ops[0].Text
		ops = ops[1:]
	}
	if t := strings.ToLower(p.Remote); strings.HasPrefix(t, "ext::") || strings.Contains(t, "::") && !strings.Contains(t, "://") {
		g.opaque("transport " + p.Remote + " runs a program")
	}
	for _, w := range ops {
		if w.Glob {
			g.opaque("glob in a refspec: " + w.Text)
		}
	}
	refspecs := make([]string, 0, len(ops))
	for i := 0; i < len(ops); i++ {
		t := ops[i].Text
		if t == "tag" && i+1 < len(ops) {
			i++
			n := "refs/tags/" + ops[i].Text
			refspecs = append(refspecs, n+":"+n)
			continue
		}
		refspecs = append(refspecs, t)
	}
	if p.Mirror {
		p.Force = true
	}
	if len(refspecs) == 0 {
		refspecs = p.configured(g)
	}
	for _, r := range refspecs {
		p.addRefspec(r)
	}
	if len(refspecs) == 0 {
		switch {
		case p.Mirror:
			p.Updates = append(p.Updates, RefUpdate{Src: "refs/*", Dst: "refs/*", Force: true, Delete: true})
		case p.All:
			p.Updates = append(p.Updates, RefUpdate{Src: "refs/heads/*", Dst: "refs/heads/*", Force: p.Force})
		case p.Tags:
			p.Updates = append(p.Updates, RefUpdate{Src: "refs/tags/*", Dst: "refs/tags/*", Force: p.Force})
		case p.Matching:
		default:
			p.Updates = append(p.Updates, RefUpdate{Src: "HEAD", Dst: "HEAD", Force: p.Force, Delete: p.Delete})
		}
	} else if p.All {
		p.Updates = append(p.Updates, RefUpdate{Src: "refs/heads/*", Dst: "refs/heads/*", Force: p.Force})
	} else if p.Mirror {
		p.Updates = append(p.Updates, RefUpdate{Src: "refs/*", Dst: "refs/*", Force: true, Delete: true})
	}
	if p.Tags && len(refspecs) > 0 {
		p.Updates = append(p.Updates, RefUpdate{Src: "refs/tags/*", Dst: "refs/tags/*", Force: p.Force})
	}
	if p.Prune {
		// --prune deletes the remote refs a wildcard refspec covers that
		// have no local counterpart
		for i := range p.Updates {
			if strings.Contains(p.Updates[i].Dst, "*") {
				p.Updates[i].Delete = true
			}
		}
	}
	return p
}

// configured returns the refspecs configuration given on the command line
// adds when a push names none: remote.<remote>.push (every remote's when
// the remote is not named), remote.<remote>.mirror, push.default.
func (p *Push) configured(g *Git) []string {
	remote := p.Remote
	if remote == "" {
		if v := g.Config["remote.pushdefault"]; len(v) > 0 {
			remote = v[len(v)-1]
		}
	}
	var out []string
	for k, vs := range g.Config {
		sec, rest, _ := strings.Cut(k, ".")
		if sec != "remote" {
			continue
		}
		i := strings.LastIndexByte(rest, '.')
		if i < 0 {
			continue
		}
		r, name := rest[:i], rest[i+1:]
		if remote != "" && r != remote {
			continue
		}
		switch name {
		case "push":
			out = append(out, vs...)
		case "mirror":
			if isTrue(vs[len(vs)-1]) {
				p.Mirror, p.Force = true, true
			}
		}
	}
	if v := g.Config["push.default"]; len(v) > 0 && len(out) == 0 {
		switch strings.ToLower(v[len(v)-1]) {
		case "matching":
			p.Matching = true
			out = append(out, ":")
		}
	}
	return out
}

func isTrue(v string) bool {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1", "":
		return true
	}
	return false
}

// addRefspec reads one refspec: [+]src[:dst], :dst (delete), ":"
// (matching), ^ref (exclusion).
func (p *Push) addRefspec(r string) {
	if strings.HasPrefix(r, "^") {
		return
	}
	force := p.Force
	if strings.HasPrefix(r, "+") {
		force = true
		r = r[1:]
	}
	if p.Delete {
		p.Updates = append(p.Updates, RefUpdate{Dst: r, Delete: true, Force: force})
		return
	}
	i := strings.LastIndexByte(r, ':')
	if i < 0 {
		r = atHead(r)
		p.Updates = append(p.Updates, RefUpdate{Src: r, Dst: r, Force: force})
		return
	}
	src, dst := atHead(r[:i]), atHead(r[i+1:])
	switch {
	case src == "" && dst == "":
		p.Matching = true
		p.Updates = append(p.Updates, RefUpdate{Src: "refs/heads/*", Dst: "refs/heads/*", Force: force})
	case src == "":
		p.Updates = append(p.Updates, RefUpdate{Dst: dst, Delete: true, Force: force})
	case dst == "":
		p.Updates = append(p.Updates, RefUpdate{Src: src, Dst: src, Force: force})
	default:
		p.Updates = append(p.Updates, RefUpdate{Src: src, Dst: dst, Force: force})
	}
}

// atHead reads "@" as HEAD, as git does.
func atHead(s string) string {
	if s == "@" {
		return "HEAD"
	}
	return s
}

// ShortRef names a destination ref as people say it: "main" for
// refs/heads/main, heads/main or main; "tag v1" for refs/tags/v1; other
// refs in full.
func ShortRef(dst string) (name string, kind string) {
	switch {
	case strings.HasPrefix(dst, "refs/heads/"):
		return strings.TrimPrefix(dst, "refs/heads/"), "branch"
	case strings.HasPrefix(dst, "heads/"):
		return strings.TrimPrefix(dst, "heads/"), "branch"
	case strings.HasPrefix(dst, "refs/tags/"):
		return strings.TrimPrefix(dst, "refs/tags/"), "tag"
	case strings.HasPrefix(dst, "tags/"):
		return strings.TrimPrefix(dst, "tags/"), "tag"
	case strings.HasPrefix(dst, "refs/remotes/"):
		return dst, "ref"
	case strings.HasPrefix(dst, "refs/"):
		return dst, "ref"
	}
	return dst, "branch"
}

// Describe returns plain-language forms of the push for screening ask and
// never entries: "push to main", "force push to main", "delete branch
// main", "push all branches", "mirror push" …. A deletion also reads as a
// force push to that branch (it destroys its history on the remote).
func (p *Push) Describe() []string {
	var out []string
	seen := map[string]bool{}
	add := func(s ...string) {
		for _, x := range s {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	add("push")
	if p.Force {
		add("force push")
	}
	if p.Mirror {
		add("mirror push", "force push", "push all branches", "force push all branches", "push all tags", "delete remote branches")
	}
	if p.All {
		add("push all branches")
		if p.Force {
			add("force push all branches")
		}
	}
	if p.Tags {
		add("push all tags")
	}
	if p.Matching {
		add("push all matching branches", "push all branches")
		if p.Force {
			add("force push all branches")
		}
	}
	if p.Prune {
		add("delete remote branches")
	}
	for _, u := range p.Updates {
		if strings.Contains(u.Dst, "*") {
			name, kind := ShortRef(u.Dst)
			if kind == "tag" {
				add("push all tags")
				continue
			}
			if kind == "ref" {
				add("push to refs matching " + name)
				if u.Force {
					add("force push to refs matching " + name)
				}
				if name == "refs/*" || name == "*" {
					add("push all branches", "push all refs")
					if u.Force {
						add("force push all branches")
					}
				}
			} else if name == "*" {
				add("push all branches")
				if u.Force {
					add("force push all branches")
				}
			} else {
				add("push to branches matching " + name)
				if u.Force {
					add("force push to branches matching " + name)
				}
			}
			if u.Force {
				add("force push")
			}
			if u.Delete {
				add("delete remote branches")
			}
			continue
		}
		name, kind := ShortRef(u.Dst)
		if u.Dst == "HEAD" {
			add("push to the current branch")
		}
		what := "to " + name
		if kind == "tag" {
			what = "tag " + name
			add("push tag " + name)
		}
		if u.Delete {
			add("delete "+kind+" "+name, "delete remote "+kind+" "+name, "force push", "force push "+what, "push "+what)
			continue
		}
		if u.Force {
			add("force push", "force push "+what)
		}
		add("push " + what)
	}
	return out
}

// Fetches reports a git fetch or pull: only those have FetchDestinations,
// so only those need the configuration read.
func (g *Git) Fetches() bool { return g.Sub == "fetch" || g.Sub == "pull" }

// FetchDestinations returns the local refs a git fetch or pull writes
// beyond the remote-tracking refs (refs/remotes/…): `src:dst` and
// `+src:dst` refspecs after the remote, or, with none given, the
// remote.<remote>.fetch refspecs of base, the configuration git reads
// from its files (every remote's when none is named). A fetch with such a
// destination moves a local ref as update-ref does. Each has Src, Dst and
// Force (a leading `+` or --force).
func FetchDestinations(g *Git, base map[string][]string) []RefUpdate {
	if !g.Fetches() {
		return nil
	}
	force := false
	for _, o := range g.Options {
		force = force || o.is("force")
	}
	var specs []string
	for _, w := range g.Operands[min(1, len(g.Operands)):] {
		specs = append(specs, w.Text)
	}
	for _, o := range g.Options {
		if o.Name == "refmap" && o.HasValue {
			// --refmap maps what is fetched onto local refs, as a
			// configured fetch refspec does
			specs = append(specs, o.Value)
		}
	}
	if len(specs) == 0 {
		for k, vs := range base {
			if !strings.HasPrefix(k, "remote.") || !strings.HasSuffix(k, ".fetch") {
				continue
			}
			if len(g.Operands) > 0 && k != "remote."+g.Operands[0].Text+".fetch" {
				continue
			}
			specs = append(specs, vs...)
		}
	}
	var out []RefUpdate
	for _, r := range specs {
		f := force || strings.HasPrefix(r, "+")
		r = strings.TrimPrefix(r, "+")
		src, dst, ok := strings.Cut(r, ":")
		if !ok || dst == "" || strings.HasPrefix(dst, "refs/remotes/") {
			continue
		}
		out = append(out, RefUpdate{Src: src, Dst: dst, Force: f})
	}
	return out
}

// PushIn resolves a git push the way the repository would: base is the
// configuration git reads from its files (the repository's, the user's),
// under what the command line gives (-c, GIT_CONFIG_*), and branch the
// current branch. remote.<remote>.push, remote.<remote>.mirror,
// remote.pushDefault, branch.<branch>.pushRemote and push.default then
// apply as they do on the command line, and push.default=upstream (or
// tracking) pushes the current branch to its upstream,
// branch.<branch>.merge, whatever its name. Without a push, or with no
// configuration, it is g.Push.
func (g *Git) PushIn(base map[string][]string, branch string) *Push {
	if g.Push == nil || len(base) == 0 {
		return g.Push
	}
	cp := *g
	cp.Config = map[string][]string{}
	for k, v := range base {
		cp.Config[k] = append(cp.Config[k], v...)
	}
	for k, v := range g.Config {
		cp.Config[k] = append(cp.Config[k], v...)
	}
	last := func(k string) string {
		if v := cp.Config[k]; len(v) > 0 {
			return v[len(v)-1]
		}
		return ""
	}
	p := cp.push()
	remote := p.Remote
	if remote == "" && branch != "" {
		remote = last("branch." + branch + ".pushremote")
	}
	if remote == "" {
		remote = last("remote.pushdefault")
	}
	if remote == "" && branch != "" {
		remote = last("branch." + branch + ".remote")
	}
	if remote == "" {
		remote = "origin"
	}
	if m := last("remote." + remote + ".mirror"); m != "" && isTrue(m) && !p.Mirror {
		// a mirror remote mirrors whatever refspecs are given
		p.Mirror, p.Force = true, true
		p.Updates = append(p.Updates, RefUpdate{Src: "refs/*", Dst: "refs/*", Force: true, Delete: true})
	}
	if p.Remote == "" {
		p.Remote = remote
	}
	switch strings.ToLower(last("push.default")) {
	case "upstream", "tracking":
		up := last("branch." + branch + ".merge")
		if up == "" || branch == "" {
			break
		}
		for i, u := range p.Updates {
			if u.Src == "HEAD" && u.Dst == "HEAD" {
				p.Updates[i].Dst = up
			}
		}
	}
	return p
}
