package cli

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/install"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/protect"
	"github.com/gitwarrant/gitwarrant/internal/vouch"
)

// sandboxFor compiles the warrant in force into the Claude Code sandbox
// settings (docs/install.md#the-sandbox). It depends only on the loops,
// the repository's layout and remotes, and the ecosystems found at the
// root, so install and uninstall compute the same settings.
func sandboxFor(p *project.Project) *install.Sandbox {
	ls, _ := vouch.Loader(nil, p).LoadDir(p.LoopsDir())
	sb := &install.Sandbox{DenyWrite: sandboxDenyWrite(p)}
	reads, hosts := map[string]bool{}, map[string]bool{}
	for _, l := range ls {
		for _, it := range append(slices.Clone(l.Warrant.Never), l.Warrant.Ask...) {
			if path, ok := readPath(it.Text); ok {
				reads[path] = true
			}
		}
		for _, list := range [][]loops.Item{l.Warrant.Read, l.Warrant.Draft, l.Warrant.Change, l.Warrant.Send} {
			for _, it := range list {
				if h, ok := strings.CutPrefix(it.Text, "WebFetch(domain:"); ok && strings.HasSuffix(h, ")") {
					hosts[strings.TrimSuffix(h, ")")] = true
				}
			}
		}
	}
	for _, h := range remoteHosts(p.Root) {
		hosts[h] = true
	}
	for _, h := range ecosystemHosts(p.Root) {
		hosts[h] = true
	}
	sb.DenyRead, sb.Domains = sortedKeys(reads), sortedKeys(hosts)
	sb.Tooling = ecosystemTooling(p.Root)
	deny := map[string]bool{}
	for _, l := range ls {
		for _, it := range l.Warrant.Never {
			for _, r := range denyRules(it.Text) {
				deny[r] = true
			}
		}
	}
	sb.Deny = sortedKeys(deny)
	return sb
}

// sandboxDenyWrite lists every place self-protection guards that lies in
// the work tree or the git dir: the sandbox's default already keeps
// writes inside the work tree, so the home directory's places are out of
// reach without being listed.
func sandboxDenyWrite(p *project.Project) []string {
	rel := func(path string) string {
		if r, err := filepath.Rel(p.Root, path); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
		return path
	}
	out := []string{rel(p.Dir), ".claude", protect.MCPConfigFile, protect.HuskyDir, protect.PreCommitConfig}
	out = append(out, protect.LefthookFiles...)
	out = append(out, protect.LefthookLocalFiles...)
	out = append(out, protect.AgentHookFiles...) // the other clients' hooks (docs/agents.md)
	if repo, err := gitx.Discover(p.Root); err == nil {
		common := repo.CommonDir
		out = append(out, rel(filepath.Join(common, "hooks")), rel(filepath.Join(common, "config")),
			rel(filepath.Join(common, "gitwarrant")), rel(filepath.Join(common, "refs", "gitwarrant")))
		if repo.GitDir != common {
			out = append(out, rel(filepath.Join(repo.GitDir, "config.worktree")))
		}
		if hd, err := repo.HooksDir(); err == nil && !slices.Contains(out, rel(hd)) {
			out = append(out, rel(hd))
		}
	}
	return out
}

// denyRules are the Claude Code permission rules a typed never entry
// compiles to (docs/install.md#deny-rules): Bash entries only, and only
// where the client reads the rule as the gate reads the entry or more
// narrowly, so a rule never refuses a call the warrant allows. `Bash(X)`
// and `Bash(X *)` become both `Bash(X)` and `Bash(X *)` (the command alone,
// and with further words — not the client's `X:*`, a prefix of the text
// that would take `rm -rf /` for `rm -rf /tmp/x`); an entry with a glob
// character elsewhere, quoting or an expansion stays the hook's alone.
// Read, Edit and WebFetch entries are left out: the client checks those
// rules before the hook runs, so the call would never reach the record,
// and the sandbox's denyRead and denyWrite already hold their paths.
func denyRules(entry string) []string {
	tool, arg, ok := strings.Cut(strings.TrimSpace(entry), "(")
	if tool != "Bash" || !ok || !strings.HasSuffix(arg, ")") {
		return nil
	}
	body := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(arg, ")"), ":*"), " *")
	if strings.TrimSpace(body) == "" || strings.ContainsAny(body, "*?[]{}:'\"\\$`;&|<>()") {
		return nil
	}
	return []string{"Bash(" + body + ")", "Bash(" + body + " *)"}
}

// readPath is the file a typed Read(…) entry names, when it names one the
// sandbox can deny: a literal path, or a folder (`~/.ssh/**`).
func readPath(entry string) (string, bool) {
	x, ok := strings.CutPrefix(strings.TrimSpace(entry), "Read(")
	if !ok || !strings.HasSuffix(x, ")") {
		return "", false
	}
	x = strings.TrimSuffix(strings.TrimSuffix(x, ")"), "/**")
	if x == "" || strings.ContainsAny(x, "*?[{") {
		return "", false
	}
	return x, true
}

// remoteHosts are the hosts of the repository's remotes: the loop's
// allowed pushes and fetches go there.
func remoteHosts(root string) []string {
	repo, err := gitx.Discover(root)
	if err != nil {
		return nil
	}
	out, err := repo.Git("config", "--get-regexp", `^remote\..*\.(url|pushurl)$`)
	if err != nil {
		return nil
	}
	var hosts []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		_, u, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if h := urlHost(u); h != "" {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// urlHost is the host of a git URL: scheme://[user@]host[:port]/…, or
// scp-like [user@]host:path. A local path has none.
func urlHost(u string) string {
	if strings.Contains(u, "://") {
		pu, err := url.Parse(u)
		if err != nil || pu.Scheme == "file" {
			return ""
		}
		return pu.Hostname()
	}
	host, _, ok := strings.Cut(u, ":")
	if !ok || strings.ContainsAny(host, "/\\") {
		return ""
	}
	if _, h, ok := strings.Cut(host, "@"); ok {
		host = h
	}
	return host
}

// ecosystemTooling is what the sandbox leaves read-only for the tools of
// the ecosystems found at the root, and the session env that keeps their
// allowed commands working there (docs/install.md#ecosystem-caches). The
// shared caches stay read-only on purpose: code the sandbox runs could
// plant a build or a package there that a build outside it would use.
func ecosystemTooling(root string) []install.Tooling {
	var out []install.Tooling
	has := func(name string) bool { _, err := os.Stat(filepath.Join(root, name)); return err == nil }
	if has("go.mod") {
		out = append(out, install.Tooling{Ecosystem: "Go", Env: map[string]string{"GODEBUG": "goindex=0"},
			Note: "Go's build and module caches are read-only in the sandbox; with its module index off (GODEBUG=goindex=0) go build, test and vet work there but cache nothing new; download new modules (go mod download) outside it"})
	}
	if has("package.json") {
		out = append(out, install.Tooling{Ecosystem: "npm",
			Note: "npm's cache (~/.npm) is read-only in the sandbox: npm test and npm run work; run npm ci or npm install outside it"})
	}
	if has("pyproject.toml") || has("requirements.txt") || has("setup.py") {
		out = append(out, install.Tooling{Ecosystem: "Python",
			Note: "pip's cache is read-only in the sandbox, and pip turns caching off there; pytest writes only in the work tree, but collecting from the root stops on the entries the sandbox masks there (.bash_profile …): name testpaths in pyproject.toml"})
	}
	return out
}

// ecosystemHosts are the package registries the detected ecosystems
// install from (`go mod download`, `npm ci`, `pip install`).
func ecosystemHosts(root string) []string {
	var out []string
	has := func(name string) bool { _, err := os.Stat(filepath.Join(root, name)); return err == nil }
	if has("go.mod") {
		out = append(out, "proxy.golang.org", "sum.golang.org")
	}
	if has("package.json") {
		out = append(out, "registry.npmjs.org")
	}
	if has("pyproject.toml") || has("requirements.txt") || has("setup.py") {
		out = append(out, "pypi.org", "files.pythonhosted.org")
	}
	if has("Cargo.toml") {
		out = append(out, "index.crates.io", "static.crates.io")
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
