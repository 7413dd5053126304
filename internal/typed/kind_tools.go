package typed

import (
	"slices"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// The per-tool tables (docs/typed-entries.md#kinds). A subcommand a table
// does not know is the widest kind its tool has, and so is an option
// before the subcommand that the table does not know (its value could be
// the word read as the subcommand).

// readOnly are commands that only read and print; what they write through
// a redirection or an option is a file effect of its own.
var readOnly = sync.OnceValue(func() map[string]bool {
	return set("ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "ag", "find", "fd", "tree", "pwd",
		"cd", "echo", "printf", "which", "type", "file", "stat", "diff", "cmp", "sort", "uniq", "cut", "sed", "awk",
		"tr", "nl", "comm", "column", "jq", "yq", "basename", "dirname", "realpath", "readlink", "date", "true",
		"false", "test", "[", "less", "more", "du", "df", "whoami", "id", "uname", "hostname", "ps", "pushd",
		"popd", "tac", "rev", "fold", "fmt", "expand", "unexpand", "paste", "join", "od", "hexdump", "xxd", "strings",
		"sha256sum", "sha1sum", "md5sum", "shasum", "seq", "sleep", "yes", "exit", ":", "history", "man")
})

// toolTable returns the table of a tool whose subcommand says its kind, or
// nil. A switch, not a map of every table built on first use: a hook
// process asks for one or two names, and building all the tables to find
// them was about 4% of its CPU (docs/performance.md#start-up). Tables are
// never written after they are built.
func toolTable(name string) *table {
	switch name {
	case "cargo":
		return cargoTable()
	case "pip", "pip3":
		return pipTable()
	case "uv":
		return uvTable()
	case "poetry":
		return poetryTable()
	case "twine":
		return &table{widest: sd("may upload a package"), subs: map[string]sub{"check": rd, "upload": sd("uploads a package")}}
	case "docker", "podman":
		return dockerTable()
	case "kubectl", "oc":
		return kubectlTable()
	case "helm":
		return helmTable()
	case "terraform", "tofu":
		return terraformTable()
	case "vercel":
		return vercelTable()
	case "netlify":
		return colonTable("netlify", "deploys a site", []string{"status", "sites:list", "env:list", "env:get", "logs",
			"logs:function", "logs:deploy", "functions:list", "help", "watch", "open", "open:site", "open:admin", "api"},
			[]string{"dev", "build", "link", "unlink", "init", "functions:build", "functions:create", "functions:serve",
				"serve", "login", "logout", "switch", "completion"})
	case "firebase":
		return colonTable("firebase", "changes a Firebase project", []string{"projects:list", "apps:list",
			"functions:list", "hosting:channel:list", "login:list", "help", "target", "functions:log", "database:get",
			"firestore:indexes", "apps:sdkconfig", "open"},
			[]string{"emulators:start", "emulators:exec", "init", "use", "serve", "login", "logout", "setup:emulators:firestore",
				"setup:emulators:database", "setup:emulators:storage", "setup:emulators:pubsub", "functions:shell", "experiments:list"})
	case "heroku":
		return colonTable("heroku", "changes a Heroku app", []string{"apps", "apps:info", "logs", "config:get", "ps",
			"releases", "releases:info", "addons", "addons:info", "domains", "pg:info", "status", "whoami", "auth:whoami",
			"help", "plugins", "regions", "stack", "features", "spaces", "pipelines", "pipelines:info"},
			[]string{"git:remote", "git:clone", "login", "logout", "local", "local:start", "local:run", "plugins:install",
				"plugins:uninstall", "update", "autocomplete"})
	case "fly", "flyctl":
		return flyTable()
	case "deno":
		return denoTable()
	case "pulumi":
		return infraTable("changes real infrastructure", []string{"preview", "pre", "whoami", "version", "about", "logs",
			"stack ls", "stack output", "stack export", "stack history", "stack graph", "config get", "plugin ls", "help",
			"gen-completion", "schema check"},
			[]string{"login", "logout", "new", "install", "convert", "plugin", "stack select", "stack tag", "config set",
				"config rm", "config cp", "config refresh", "env", "policy new"},
			[]string{"stack", "config", "plugin", "policy", "org", "env", "state", "package", "deployment", "console"})
	case "cdk":
		return infraTable("deploys AWS infrastructure", []string{"synth", "synthesize", "diff", "ls", "list", "doctor",
			"docs", "metadata", "notices", "acknowledge", "ack", "version", "help"},
			[]string{"init", "context", "gc"}, nil)
	case "wrangler":
		return infraTable("changes a Cloudflare account", []string{"whoami", "tail", "docs", "help", "versions list",
			"versions view", "deployments list", "deployments status", "secret list", "d1 list", "d1 info", "kv namespace",
			"r2 bucket", "pages project", "--version", "-v"},
			[]string{"dev", "init", "types", "login", "logout", "build", "generate"},
			[]string{"versions", "deployments", "secret", "d1", "kv", "r2", "pages", "queues", "vectorize", "hyperdrive",
				"workflows", "ai", "dispatch-namespace", "pipelines", "cert", "mtls-certificate", "triggers"})
	case "serverless", "sls":
		return infraTable("changes a deployed service", []string{"info", "print", "logs", "metrics", "help", "--version",
			"version", "plugin list", "plugin search"}, []string{"package", "create", "install", "offline", "dev", "login",
			"logout", "plugin", "config", "invoke local"}, []string{"plugin", "invoke"})
	case "sam":
		return infraTable("changes a deployed AWS application", []string{"validate", "list", "logs", "traces", "--version",
			"--info", "help", "list resources", "list endpoints", "list stack-outputs"}, []string{"init", "build", "local",
			"pipeline"}, []string{"list", "remote"})
	case "semantic-release", "release-it", "np", "gh-pages":
		return &table{widest: sd("publishes a release")}
	case "changeset":
		return &table{widest: sd("may publish packages"), subs: map[string]sub{"": ch("writes a changeset"),
			"add": ch("writes a changeset"), "status": rd, "version": ch("bumps versions"), "publish": sd("publishes packages"),
			"tag": ch("tags a release"), "pre": ch("changes the release mode"), "init": ch("sets up changesets")}}
	case "lerna":
		return &table{widest: sd("may publish packages"), subs: map[string]sub{"list": rd, "ls": rd, "ll": rd, "la": rd,
			"changed": rd, "diff": rd, "info": rd, "bootstrap": ch("installs dependencies"), "clean": ch("removes node_modules"),
			"create": ch("creates a package"), "add": ch("adds a dependency"), "link": ch("links packages"),
			"publish": sd("publishes packages"), "version": sd("bumps versions, tags and pushes")}}
	}
	return nil
}

// toolFunc returns the kind function of a tool whose grammar a table
// cannot hold, or nil.
func toolFunc(name string) func(string, []string) Kind {
	switch name {
	case "gh":
		return ghKind
	case "aws":
		return awsKind
	case "gcloud":
		return cloudKind(gcloudGroups())
	case "az":
		return cloudKind(azGroups())
	case "gsutil":
		return gsutilKind
	case "http", "https", "xh", "xhs":
		return httpieKind
	case "curl":
		return curlKind
	case "wget":
		return wgetKind
	}
	return nil
}

func cargoTable() *table {
	s := map[string]sub{}
	rows(s, rd, "tree", "metadata", "search", "info", "version", "locate-project", "pkgid", "read-manifest",
		"verify-project", "help", "fetch", "report")
	rows(s, ch("builds and runs the project's code"), "build", "b", "check", "c", "test", "t", "bench", "run", "r", "doc",
		"d", "clippy", "fmt", "fix", "clean", "update", "add", "remove", "rm", "generate-lockfile", "vendor", "new",
		"init", "install", "uninstall", "nextest", "llvm-cov", "tarpaulin", "watch", "expand", "udeps", "deny", "audit",
		"outdated", "machete", "miri", "insta", "make", "package")
	rows(s, sd("publishes a crate"), "publish")
	rows(s, sd("changes a crate on the registry"), "yank", "owner", "login", "logout")
	return &table{widest: sd("may publish a crate"), subs: s,
		values: set("--manifest-path", "--config", "-Z", "--color", "-C"), flags: set("-v", "-vv", "-q", "--verbose",
			"--quiet", "--frozen", "--locked", "--offline", "--version", "-V", "--list", "--help", "-h"),
		optKinds: map[string]map[string]sub{}}
}

func pipTable() *table {
	s := map[string]sub{}
	rows(s, rd, "list", "show", "freeze", "check", "search", "index", "debug", "hash", "inspect", "help", "config list",
		"config get", "config debug", "cache list", "cache info", "cache dir")
	rows(s, ch("installs into the environment"), "install", "uninstall", "download", "wheel", "config", "cache", "lock")
	return &table{widest: ch("changes the environment"), subs: s, groups: map[string]sub{"config": ch("changes pip's configuration"),
		"cache": ch("changes pip's cache")}, values: set("--python", "--log", "--proxy", "--cache-dir", "-r", "--timeout"),
		flags: set("-v", "-q", "--verbose", "--quiet", "--isolated", "--no-cache-dir", "--disable-pip-version-check",
			"--no-input", "--require-virtualenv", "--no-color", "--version", "-V")}
}

func uvTable() *table {
	s := map[string]sub{}
	rows(s, rd, "tree", "version", "help", "pip list", "pip show", "pip freeze", "pip check", "pip tree", "python list",
		"python find", "python dir", "tool list", "tool dir", "cache dir", "self version")
	rows(s, ch("changes the project's environment"), "sync", "lock", "add", "remove", "run", "venv", "init", "build",
		"export", "format", "pip", "python", "tool", "cache", "self")
	rows(s, sd("publishes a package"), "publish")
	return &table{widest: sd("may publish a package"), subs: s,
		groups: map[string]sub{"pip": ch("changes the environment"), "python": ch("installs a Python"),
			"tool": ch("installs a tool"), "cache": ch("changes uv's cache"), "self": ch("updates uv")},
		values: set("--directory", "--project", "--config-file", "--cache-dir", "--color", "--python", "-p"),
		flags: set("-q", "-v", "--quiet", "--verbose", "--offline", "--no-cache", "--native-tls", "--no-progress",
			"--frozen", "--locked", "--version", "-V")}
}

func poetryTable() *table {
	s := map[string]sub{}
	rows(s, rd, "show", "check", "search", "about", "help", "list", "env info", "env list", "config", "version")
	rows(s, ch("changes the project's environment"), "install", "add", "remove", "update", "lock", "run", "build", "init",
		"new", "shell", "env", "self", "source", "export", "sync")
	rows(s, sd("publishes a package"), "publish")
	t := &table{widest: sd("may publish a package"), subs: s, groups: map[string]sub{"env": ch("changes the environment")},
		values: set("-C", "--directory", "-P", "--project"), flags: set("-q", "-v", "-vv", "--quiet", "--verbose",
			"--no-interaction", "-n", "--no-ansi", "--ansi", "--no-plugins", "--no-cache", "--version", "-V")}
	// `poetry version 1.2.0` bumps the version; `poetry config k v` sets.
	t.optKinds = map[string]map[string]sub{}
	return t
}

func dockerTable() *table {
	s := map[string]sub{}
	rows(s, rd, "ps", "images", "inspect", "logs", "version", "info", "stats", "top", "diff", "port", "search", "history",
		"events", "image ls", "image list", "image inspect", "image history", "container ls", "container list",
		"container inspect", "container logs", "container top", "container port", "container diff", "container stats",
		"network ls", "network list", "network inspect", "volume ls", "volume list", "volume inspect", "system df",
		"system info", "system events", "compose ps", "compose logs", "compose config", "compose ls", "compose images",
		"compose top", "compose version", "compose port", "buildx ls", "buildx inspect", "buildx du", "context ls",
		"context list", "context show", "context inspect", "manifest inspect", "help")
	rows(s, ch("changes local containers or images"), "build", "run", "create", "start", "stop", "restart", "kill",
		"rm", "rmi", "exec", "cp", "pull", "tag", "commit", "load", "save", "import", "export", "pause", "unpause",
		"wait", "attach", "rename", "update", "init", "scout")
	rows(s, sd("sends an image to a registry"), "push", "image push", "manifest push", "compose push")
	rows(s, sd("changes registry credentials"), "login", "logout")
	t := &table{widest: sd("may push images or change a cluster"), subs: s,
		groups: map[string]sub{"image": ch("changes local images"), "container": ch("changes local containers"),
			"network": ch("changes local networks"), "volume": ch("changes local volumes"),
			"system": ch("changes the local daemon"), "compose": ch("changes local containers"),
			"buildx": ch("builds images"), "context": ch("changes the docker context"), "builder": ch("changes builders"),
			"manifest": ch("changes manifests")},
		values: set("--config", "-c", "--context", "-H", "--host", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey",
			// docker compose's own options before its command
			"-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory", "--ansi", "--progress",
			"--parallel"),
		flags: set("-D", "--debug", "--tls", "--tlsverify", "-v", "--version", "--dry-run", "--compatibility", "--all-resources")}
	push := map[string]sub{"--push": sd("pushes the image it builds"), "--output": sd("may push the image it builds"),
		"-o": sd("may push the image it builds")}
	remote := sd("changes containers on another Docker host")
	t.optKinds = map[string]map[string]sub{"build": push, "buildx": push, "image": push,
		"compose": {"--push": sd("pushes the images it builds")},
		"":        {"-H": remote, "--host": remote, "-c": remote, "--context": remote}}
	return t
}

func kubectlTable() *table {
	s := map[string]sub{}
	rows(s, rd, "get", "describe", "logs", "explain", "api-resources", "api-versions", "version", "cluster-info", "top",
		"diff", "events", "wait", "completion", "help", "config view", "config get-contexts", "config current-context",
		"config get-clusters", "config get-users", "auth can-i", "auth whoami", "rollout status", "rollout history",
		"kustomize", "options", "plugin")
	rows(s, ch("changes the local kubeconfig"), "config", "port-forward", "proxy")
	rows(s, sd("changes the cluster"), "apply", "create", "delete", "edit", "patch", "replace", "scale", "set", "label",
		"annotate", "expose", "run", "exec", "attach", "cp", "drain", "cordon", "uncordon", "taint", "autoscale",
		"certificate", "rollout", "debug")
	return &table{widest: sd("may change the cluster"), subs: s,
		groups: map[string]sub{"config": ch("changes the local kubeconfig"), "rollout": sd("changes a rollout"),
			"auth": sd("changes access"), "certificate": sd("approves certificates")},
		values: set("-n", "--namespace", "--context", "--cluster", "--kubeconfig", "-s", "--server", "--user", "--token",
			"--as", "--as-group", "-v", "--request-timeout", "--certificate-authority", "--client-certificate", "--client-key"),
		flags: set("-A", "--all-namespaces", "--insecure-skip-tls-verify")}
}

func helmTable() *table {
	s := map[string]sub{}
	rows(s, rd, "list", "ls", "status", "get", "history", "show", "inspect", "search", "template", "lint", "version",
		"env", "verify", "help", "repo list", "dependency list", "dep list", "plugin list", "completion")
	rows(s, ch("changes local charts"), "repo", "dependency", "dep", "pull", "fetch", "package", "plugin", "create")
	rows(s, sd("changes a release on the cluster"), "install", "upgrade", "uninstall", "delete", "rollback", "test")
	rows(s, sd("pushes a chart"), "push", "registry")
	return &table{widest: sd("may change the cluster"), subs: s,
		groups: map[string]sub{"repo": ch("changes local chart repositories"), "dependency": ch("changes chart dependencies"),
			"dep": ch("changes chart dependencies"), "plugin": ch("installs a plugin"), "registry": sd("logs in to a registry")},
		values: set("-n", "--namespace", "--kube-context", "--kubeconfig", "--registry-config", "--repository-config"),
		flags:  set("--debug", "-A", "--all-namespaces")}
}

func terraformTable() *table {
	s := map[string]sub{}
	rows(s, rd, "plan", "show", "output", "validate", "graph", "providers", "version", "console", "state list",
		"state show", "state pull", "workspace list", "workspace show", "help", "-version", "-help")
	rows(s, ch("changes the local working directory"), "init", "get", "fmt", "workspace", "providers lock",
		"providers mirror", "modules", "workspace select")
	rows(s, sd("changes real infrastructure or its state"), "apply", "destroy", "import", "taint", "untaint", "refresh",
		"force-unlock", "login", "logout", "state")
	// `terraform test` applies its run blocks to real infrastructure and
	// destroys them after; a workspace's state lives in the backend.
	rows(s, sd("creates and destroys real infrastructure"), "test")
	rows(s, sd("changes the backend's workspaces"), "workspace new", "workspace delete")
	t := &table{widest: sd("may change real infrastructure"), subs: s,
		groups: map[string]sub{"state": sd("changes the infrastructure's state"), "workspace": ch("changes workspaces"),
			"providers": rd},
		values: set("-chdir"), flags: set("-version", "-help", "-v")}
	t.optKinds = map[string]map[string]sub{"plan": {"-out": ch("writes a plan file")},
		"init": {"-migrate-state": sd("copies the state to another backend"), "-force-copy": sd("copies the state to another backend")}}
	return t
}

func vercelTable() *table {
	s := map[string]sub{}
	rows(s, rd, "ls", "list", "inspect", "logs", "whoami", "help", "env ls", "domains ls", "dns ls", "project ls",
		"projects ls", "certs ls", "teams ls", "alias ls", "secrets ls", "--version", "-v")
	rows(s, ch("changes the local project"), "pull", "link", "dev", "build", "login", "logout", "switch", "init")
	rows(s, sd("deploys"), "", "deploy", "--prod", "promote", "rollback", "redeploy", "remove", "rm", "alias", "domains",
		"dns", "certs", "secrets", "env", "project", "projects", "teams", "integration")
	return &table{widest: sd("deploys: a path or an unknown word deploys"), subs: s,
		groups: map[string]sub{"env": sd("changes environment variables"), "domains": sd("changes domains"),
			"dns": sd("changes DNS"), "project": sd("changes projects"), "projects": sd("changes projects"),
			"certs": sd("changes certificates"), "teams": sd("changes teams"), "alias": sd("changes aliases"),
			"secrets": sd("changes secrets")},
		values: set("--token", "-t", "--scope", "-S", "--cwd", "-A", "--local-config", "-Q", "--global-config"),
		flags:  set("--debug", "-d", "--yes", "-y")}
}

func flyTable() *table {
	s := map[string]sub{}
	rows(s, rd, "status", "logs", "releases", "info", "version", "doctor", "help", "apps list", "ips list",
		"secrets list", "config show", "config display", "machine list", "machine status", "machines list",
		"volumes list", "auth whoami", "platform", "regions list", "scale show", "checks list", "dashboard")
	rows(s, ch("changes the local fly configuration"), "config", "auth", "launch")
	rows(s, sd("changes a Fly app"), "deploy", "scale", "secrets", "apps", "machine", "machines", "ssh", "volumes",
		"ips", "proxy", "console", "restart", "destroy", "postgres", "redis", "certs")
	return &table{widest: sd("may change a Fly app"), subs: s,
		groups: map[string]sub{"config": ch("changes fly.toml"), "auth": ch("changes credentials"), "apps": sd("changes apps"),
			"secrets": sd("changes secrets"), "machine": sd("changes machines"), "machines": sd("changes machines"),
			"volumes": sd("changes volumes"), "ips": sd("changes IP addresses"), "scale": sd("scales the app"),
			"regions": sd("changes regions"), "checks": sd("changes checks")},
		values: set("-a", "--app", "-c", "--config", "-t", "--access-token"), flags: set("--verbose", "--debug")}
}

// infraTable is a deployment CLI: its reads and its local changes are
// listed, and everything else sends (docs/typed-entries.md#kinds). groups
// take a second word, which sends unless a row names it.
func infraTable(sends string, reads, changes, groups []string) *table {
	s := map[string]sub{}
	rows(s, rd, reads...)
	rows(s, ch("changes the local project"), changes...)
	g := map[string]sub{}
	rows(g, sd(sends), groups...)
	return &table{widest: sd(sends), subs: s, groups: g,
		flags: set("--debug", "--verbose", "-v", "--help", "-h", "--json", "--yes", "-y", "--non-interactive")}
}

// denoTable: `deno publish` and `deno deploy` send; running, testing and
// installing change; a file name runs the file. `deno task` runs a task
// of deno.json, which no table reads: the list its entry stands in is its
// kind, as for a command no table knows.
func denoTable() *table {
	s := map[string]sub{}
	rows(s, rd, "info", "help", "types", "completions", "coverage", "doc", "check", "lint", "fmt --check", "outdated")
	rows(s, ch("runs or installs code"), "run", "test", "bench", "serve", "repl", "eval", "compile", "bundle", "fmt",
		"install", "i", "add", "remove", "uninstall", "cache", "init", "upgrade", "clean", "jupyter", "vendor", "approve-scripts",
		"x")
	rows(s, sd("publishes a package"), "publish")
	rows(s, sd("deploys"), "deploy")
	s["task"] = sub{}
	return &table{widest: sd("may publish or deploy"), subs: s,
		flags: set("-q", "--quiet", "--unstable", "-V", "--version", "-h", "--help")}
}

// colonTable is a CLI whose commands are words joined by colons
// (`sites:list`): the reads and local changes are listed, everything else
// sends.
func colonTable(tool, sends string, reads, changes []string) *table {
	s := map[string]sub{}
	rows(s, rd, reads...)
	rows(s, ch("changes the local "+tool+" setup"), changes...)
	rows(s, rd, "--version", "-v", "version")
	return &table{widest: sd(sends), subs: s, flags: set("--debug", "--json", "--non-interactive")}
}

// ghReads are gh verbs that only read from GitHub; ghLocal write only
// here (a checkout, a clone, a download).
var (
	ghReads = sync.OnceValue(func() map[string]bool {
		return set("view", "list", "ls", "status", "diff", "checks", "watch", "browse", "search", "verify", "token",
			"get", "logs", "show")
	})
	ghLocal = sync.OnceValue(func() map[string]bool {
		return set("checkout", "co", "clone", "download", "set-default", "setup-git", "login", "logout", "refresh",
			"switch", "install", "upgrade", "remove", "exec", "set")
	})
)

// ghKind classifies a gh command: `gh api` by its method and body, other
// commands by their verb (`gh pr view` reads, `gh pr checkout` changes the
// work tree, `gh pr merge` sends).
func ghKind(name string, args []string) Kind {
	words, rest, ok, gap := positionalGap(args, 2, set("-R", "--repo"), set("--help", "--version"))
	if ok && len(words) == 0 && len(args) > 0 && !slices.ContainsFunc(args, func(a string) bool { return a != "--version" && a != "--help" && a != "-h" }) {
		return Kind{Verb: loops.Read, Cmd: name + " " + args[0]} // `gh --version` prints, nothing else
	}
	if !ok || len(words) == 0 {
		return Kind{Verb: loops.Send, Cmd: name, Why: "may change anything on GitHub"}
	}
	cmd := name + " " + strings.Join(words, " ")
	switch words[0] {
	case "api":
		return ghAPIKind(args)
	case "status", "browse", "search", "version", "help", "completion":
		return Kind{Verb: loops.Read, Cmd: name + " " + words[0]}
	case "label", "gist", "repo", "alias", "config", "auth", "extension", "ext", "secret", "variable", "cache",
		"pr", "issue", "run", "workflow", "release", "project", "ruleset", "codespace", "cs", "org", "ssh-key",
		"gpg-key", "attestation":
	default:
		return Kind{Verb: loops.Send, Cmd: cmd, Why: "is not a gh command the gate knows, so it may change anything on GitHub"}
	}
	if gap == 1 && len(words) > 1 {
		// cobra reads an option it does not know as taking the next word:
		// `gh pr --frob view merge 1` merges.
		return Kind{Verb: loops.Send, Cmd: cmd, Why: "is given an option the gate does not know before its command, so it may change anything on GitHub"}
	}
	if len(words) < 2 {
		return Kind{Verb: loops.Read, Cmd: cmd}
	}
	v := words[1]
	if (words[0] == "extension" || words[0] == "ext") && v == "exec" {
		return Kind{Verb: loops.Send, Cmd: cmd, Why: "runs an extension, which may change anything on GitHub"}
	}
	switch {
	case words[0] == "label" && v == "clone", words[0] == "repo" && v == "sync" && len(rest) > 0,
		words[0] == "codespace" || words[0] == "cs":
		if ghReads()[v] {
			return Kind{Verb: loops.Read, Cmd: cmd}
		}
		return Kind{Verb: loops.Send, Cmd: cmd, Why: "changes state on GitHub"}
	case ghReads()[v]:
		return Kind{Verb: loops.Read, Cmd: cmd}
	case ghLocal()[v] && words[0] != "secret" && words[0] != "variable":
		return Kind{Verb: loops.Change, Cmd: cmd, Why: "changes this machine's files or settings"}
	case words[0] == "pr" && v == "merge":
		return Kind{Verb: loops.Send, Cmd: cmd, Why: "merges a pull request"}
	}
	return Kind{Verb: loops.Send, Cmd: cmd, Why: "changes state on GitHub"}
}

// ghAPIKind: a request with no body and the GET (or HEAD) method reads; a
// GraphQL query reads unless it is a mutation or reads a file the gate
// does not; anything else sends.
func ghAPIKind(args []string) Kind {
	method, endpoint, query := "", "", ""
	fields, files := 0, false
	for i := 1; i < len(args); i++ {
		a := args[i]
		val := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		field := ""
		switch {
		case a == "-X" || a == "--method":
			method = strings.ToUpper(val())
		case strings.HasPrefix(a, "--method="):
			method = strings.ToUpper(a[len("--method="):])
		case strings.HasPrefix(a, "-X"):
			method = strings.ToUpper(a[2:])
		case a == "-f" || a == "-F" || a == "--field" || a == "--raw-field":
			field = val()
		case strings.HasPrefix(a, "--field=") || strings.HasPrefix(a, "--raw-field="):
			_, field, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-f") || strings.HasPrefix(a, "-F"):
			field = a[2:]
		case a == "--input" || strings.HasPrefix(a, "--input="):
			files = true
		case a == "-H" || a == "--header" || strings.HasPrefix(a, "--header=") || strings.HasPrefix(a, "-H") && len(a) > 2:
			h := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(a, "--header="), "-H"), "--header")
			if h == "" {
				h = val()
			}
			if overridesMethod(h) {
				method = "OVERRIDE"
			}
		case a == "-q" || a == "--jq" || a == "-t" || a == "--template" ||
			a == "--hostname" || a == "--cache" || a == "-p" || a == "--preview":
			val()
		case strings.HasPrefix(a, "-"):
		case endpoint == "":
			endpoint = a
		}
		if field != "" || a == "-f" || a == "-F" || a == "--field" || a == "--raw-field" {
			fields++
			k, v, _ := strings.Cut(field, "=")
			files = files || strings.HasPrefix(v, "@")
			if k == "query" {
				query += v
			}
		}
	}
	k := Kind{Cmd: "gh api", Verb: loops.Read}
	switch {
	case endpoint == "graphql":
		if files || method != "" && method != "POST" || strings.TrimSpace(query) == "" || strings.Contains(query, "mutation") {
			k.Verb, k.Why = loops.Send, "sends a GraphQL mutation, or a request the gate cannot read"
		}
	case method == "GET" || method == "HEAD" || method == "" && fields == 0 && !files:
	default:
		if method == "" {
			method = "POST"
		}
		k.Verb, k.Why = loops.Send, "sends a "+method+" request"
		if strings.HasSuffix(endpoint, "/merge") {
			k.Why = "merges a pull request"
		}
	}
	return k
}

// awsKind reads `aws <service> <operation>`: describe-, list-, get- and
// head- operations read; `s3 ls` reads and `s3 cp` to a local path
// changes; everything else sends.
func awsKind(name string, args []string) Kind {
	words, _, ok := positional(args, 8, set("--profile", "--region", "--output", "--endpoint-url", "--query",
		"--cli-read-timeout", "--cli-connect-timeout", "--color", "--ca-bundle"), set("--debug", "--no-verify-ssl",
		"--no-paginate", "--no-sign-request", "--no-cli-pager", "--version"))
	if !ok || len(words) < 2 {
		if ok && len(words) == 0 {
			return Kind{Verb: loops.Read, Cmd: name}
		}
		return Kind{Verb: loops.Send, Cmd: name, Why: "may change cloud resources"}
	}
	svc, op := words[0], words[1]
	k := Kind{Cmd: name + " " + svc + " " + op}
	switch {
	case op == "help" || svc == "help" || svc == "configure" && (op == "list" || op == "get"):
		k.Verb = loops.Read
	case svc == "configure":
		k.Verb, k.Why = loops.Change, "changes the local AWS configuration"
	case svc == "s3" && (op == "ls" || op == "presign"):
		k.Verb = loops.Read
	case svc == "s3" && (op == "cp" || op == "mv" || op == "sync"):
		if last := words[len(words)-1]; len(words) >= 4 && !strings.HasPrefix(last, "s3://") && op != "mv" {
			k.Verb, k.Why = loops.Change, "downloads from S3"
		} else {
			k.Verb, k.Why = loops.Send, "writes to S3"
		}
	case strings.HasPrefix(op, "describe-") || strings.HasPrefix(op, "list-") || strings.HasPrefix(op, "get-") ||
		strings.HasPrefix(op, "head-") || strings.HasPrefix(op, "batch-get-") || op == "wait" ||
		svc == "dynamodb" && (op == "scan" || op == "query"):
		k.Verb = loops.Read
	default:
		k.Verb, k.Why = loops.Send, "changes cloud resources"
	}
	return k
}

// cloudKind reads gcloud and az: the command is groups the table knows,
// then a verb; only a read verb right after known groups reads, so an
// unknown verb (which could be followed by a resource named `list`) sends.
func cloudKind(groups map[string]bool) func(string, []string) Kind {
	reads := set("list", "describe", "show", "info", "version", "help", "read", "get-value", "get-iam-policy",
		"print-access-token", "print-identity-token", "tail", "logs", "get", "exists", "list-locations")
	return func(name string, args []string) Kind {
		words, _, ok, gap := positionalGap(args, 8, set("--project", "--account", "--configuration", "--format", "--region",
			"--zone", "--verbosity", "-o", "--output", "--subscription", "--query", "-g", "--resource-group"),
			set("--quiet", "-q", "--verbose", "--debug", "--only-show-errors", "--help", "-h"))
		if !ok || len(words) == 0 {
			return Kind{Verb: loops.Send, Cmd: name, Why: "may change cloud resources"}
		}
		for i, w := range words {
			if groups[w] && (gap < 0 || gap > i+1) {
				continue
			}
			cmd := name + " " + strings.Join(words[:i+1], " ")
			if reads[w] && (gap < 0 || gap > i) {
				return Kind{Verb: loops.Read, Cmd: cmd}
			}
			return Kind{Verb: loops.Send, Cmd: cmd, Why: "changes cloud resources"}
		}
		return Kind{Verb: loops.Read, Cmd: name + " " + strings.Join(words, " ")}
	}
}

var gcloudGroups = sync.OnceValue(func() map[string]bool {
	return set("alpha", "beta", "compute", "instances", "container", "clusters", "node-pools", "projects", "config",
		"configurations", "auth", "run", "services", "revisions", "jobs", "functions", "storage", "buckets", "objects",
		"sql", "databases", "iam", "service-accounts", "roles", "logging", "logs", "pubsub", "topics", "subscriptions",
		"artifacts", "repositories", "packages", "docker", "images", "tags", "app", "versions", "secrets", "dns",
		"managed-zones", "record-sets", "networks", "firewall-rules", "kms", "keys", "keyrings", "organizations",
		"billing", "accounts", "components", "zones", "regions", "operations", "disks", "snapshots", "builds",
		"triggers", "scheduler", "tasks", "queues", "monitoring", "policies", "endpoints", "api-gateway", "firestore",
		"spanner", "redis", "memcache", "dataproc", "dataflow", "composer", "environments", "ai", "models")
})

var azGroups = sync.OnceValue(func() map[string]bool {
	return set("group", "vm", "aks", "nodepool", "webapp", "config", "appsettings", "storage", "account", "blob",
		"container", "keyvault", "secret", "key", "acr", "repository", "network", "vnet", "subnet", "nsg", "rule",
		"functionapp", "monitor", "resource", "role", "assignment", "definition", "ad", "sp", "app", "user", "sql",
		"server", "db", "cosmosdb", "extension", "deployment", "sub", "containerapp", "revision", "logs", "log-analytics",
		"workspace", "identity", "policy", "staticwebapp", "apim", "redis", "postgres", "mysql", "flexible-server",
		"devops", "pipelines", "repos", "boards", "bicep", "image", "disk", "snapshot", "lock", "tag", "provider")
})

// gsutilKind: ls, cat, du, stat and hash read; cp to a local path
// changes; everything else writes to Cloud Storage.
func gsutilKind(name string, args []string) Kind {
	words, _, ok := positional(args, 8, set("-o", "-h", "-p", "-u"), set("-m", "-q", "-D", "-d"))
	if !ok || len(words) == 0 {
		return Kind{Verb: loops.Send, Cmd: name, Why: "may write to Cloud Storage"}
	}
	k := Kind{Cmd: name + " " + words[0]}
	switch words[0] {
	case "ls", "cat", "du", "stat", "hash", "version", "help":
		k.Verb = loops.Read
	case "cp", "rsync":
		if last := words[len(words)-1]; len(words) >= 3 && !strings.HasPrefix(last, "gs://") {
			k.Verb, k.Why = loops.Change, "downloads from Cloud Storage"
		} else {
			k.Verb, k.Why = loops.Send, "writes to Cloud Storage"
		}
	default:
		k.Verb, k.Why = loops.Send, "changes Cloud Storage"
	}
	return k
}

// curlKind: a request with a body, an upload or a method other than GET
// or HEAD (by -X or by a method-override header) sends; anything else is a GET, which reads (what it saves with
// -o is a file effect of its own).
func curlKind(name string, args []string) Kind {
	for i, a := range args {
		name, val, _ := strings.Cut(a, "=")
		if strings.HasPrefix(name, "--") && len(name) > 3 {
			// curl takes an unambiguous start of a long option for it
			// (`--req PUT`); one that starts an option that sends, sends.
			for _, o := range []string{"--data", "--json", "--form", "--upload-file", "--request", "--config", "--quote",
				"--mail-rcpt", "--mail-from", "--post301", "--post302", "--post303"} {
				if strings.HasPrefix(o, name) && name != "--request-target" {
					return Kind{Verb: loops.Send, Cmd: "curl", Why: "may send data (" + name + ")"}
				}
			}
		}
		switch {
		case name == "-H" || name == "--header" || strings.HasPrefix(a, "-H"):
			h := strings.TrimPrefix(a, "-H")
			if name == "-H" || name == "--header" {
				h = val
				if h == "" && i+1 < len(args) {
					h = args[i+1]
				}
			}
			if overridesMethod(h) {
				return Kind{Verb: loops.Send, Cmd: "curl", Why: "sends a request whose method a header overrides"}
			}
		case name == "-X" || name == "--request":
			if i+1 < len(args) && val == "" {
				val = args[i+1]
			}
			if m := strings.ToUpper(val); m != "GET" && m != "HEAD" {
				return Kind{Verb: loops.Send, Cmd: "curl", Why: "sends a " + m + " request"}
			}
		case strings.HasPrefix(a, "-X") && len(a) > 2:
			if m := strings.ToUpper(a[2:]); m != "GET" && m != "HEAD" {
				return Kind{Verb: loops.Send, Cmd: "curl", Why: "sends a " + m + " request"}
			}
		case strings.HasPrefix(name, "--data") || name == "--json" || name == "--form" || strings.HasPrefix(name, "--form-") ||
			name == "--upload-file" || name == "-T" || name == "-F" || name == "-d" ||
			strings.HasPrefix(a, "-d") || strings.HasPrefix(a, "-F") || strings.HasPrefix(a, "-T"):
			return Kind{Verb: loops.Send, Cmd: "curl", Why: "sends data"}
		case name == "-K" || name == "--config" || name == "-Q" || strings.HasPrefix(a, "-K") || strings.HasPrefix(a, "-Q"):
			return Kind{Verb: loops.Send, Cmd: "curl", Why: "reads a config file or sends server commands"}
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "dFTXKQ"):
			// a cluster such as -sd or -sX
			return Kind{Verb: loops.Send, Cmd: "curl", Why: "may send data"}
		}
	}
	return Kind{Verb: loops.Read, Cmd: "curl"}
}

// wgetKind: a POST or another method sends, and so do wgetrc commands
// (`-e post_data=x`, `--config`), which can set them; a download reads.
// wget, like getopt, takes an unambiguous start of a long option for it.
func wgetKind(name string, args []string) Kind {
	for _, a := range args {
		n, _, _ := strings.Cut(a, "=")
		if strings.HasPrefix(n, "--") && len(n) > 3 {
			for _, o := range []string{"--post-data", "--post-file", "--method", "--body-data", "--body-file", "--execute", "--config"} {
				if strings.HasPrefix(o, n) {
					return Kind{Verb: loops.Send, Cmd: "wget", Why: "sends data, or runs wgetrc commands that may (" + n + ")"}
				}
			}
			continue
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") {
			for _, c := range a[1:] {
				if c == 'e' {
					return Kind{Verb: loops.Send, Cmd: "wget", Why: "runs wgetrc commands, which may send data"}
				}
				if strings.ContainsRune("oaOiBtTwQPUDIXlAR", c) {
					break // the rest is this option's value
				}
			}
		}
	}
	return Kind{Verb: loops.Read, Cmd: "wget"}
}

// httpieKind: HTTPie and xh (`http [METHOD] URL [ITEM …]`) send when a
// method other than GET or HEAD is named — first, by itself, as a word of
// letters — or when a request item carries data (`a=b`, `a:=1`, `a@f`,
// `a=@f`, `a:=@f`; headers `a:b` and query parameters `a==b` do not), or
// with --raw, --multipart or a method-override header; a GET reads. An
// option the gate does not know may take the next word, so it is widest.
func httpieKind(name string, args []string) Kind {
	values := set("-a", "--auth", "-A", "--auth-type", "-o", "--output", "-p", "--print", "-P", "--history-print",
		"--session", "--session-read-only", "--verify", "--cert", "--cert-key", "--cert-key-pass", "--timeout", "--proxy",
		"--pretty", "-s", "--style", "--format-options", "--default-scheme", "--max-redirects", "--boundary",
		"--ssl", "--ciphers", "--response-charset", "--response-mime", "--unix-socket", "--path-as-is")
	flags := set("-j", "--json", "-f", "--form", "-h", "--headers", "-b", "--body", "-m", "--meta", "-v", "--verbose",
		"-q", "--quiet", "-S", "--stream", "-d", "--download", "-c", "--continue", "-F", "--follow", "--all",
		"-I", "--ignore-stdin", "--offline", "--check-status", "-x", "--compress", "--ignore-netrc", "--debug",
		"--traceback", "--version", "--help", "--sorted", "--unsorted", "--chunked", "--https", "--http1", "--http2",
		"--http3", "--native-tls", "--curl", "--print-headers")
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		n, _, has := strings.Cut(a, "=")
		switch {
		case a == "--raw" || n == "--raw" || a == "--multipart":
			return Kind{Verb: loops.Send, Cmd: name, Why: "sends a body"}
		case strings.HasPrefix(a, "-") && values[n]:
			if !has {
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if !flags[n] {
				return Kind{Verb: loops.Send, Cmd: name, Why: "is given " + a + ", an option the gate does not know"}
			}
		default:
			words = append(words, a)
		}
	}
	if len(words) > 1 && isMethod(words[0]) {
		if m := strings.ToUpper(words[0]); m != "GET" && m != "HEAD" {
			return Kind{Verb: loops.Send, Cmd: name, Why: "sends a " + m + " request"}
		}
		words = words[1:]
	}
	for _, item := range words[min(1, len(words)):] {
		if c := strings.Index(item, ":"); c > 0 && !strings.ContainsAny(item[:c], "=@") && overridesMethod(item) {
			return Kind{Verb: loops.Send, Cmd: name, Why: "sends a request whose method a header overrides"}
		}
		if i := strings.IndexAny(item, "=:@"); i >= 0 && !strings.HasPrefix(item[i:], "==") &&
			!(item[i] == ':' && !strings.HasPrefix(item[i:], ":=")) {
			return Kind{Verb: loops.Send, Cmd: name, Why: "sends data"}
		}
	}
	return Kind{Verb: loops.Read, Cmd: name}
}

// isMethod reports whether w can be an HTTP method word: letters only.
func isMethod(w string) bool {
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return w != ""
}

// overridesMethod reports a header that asks the server for another
// method (X-HTTP-Method-Override, X-HTTP-Method, X-Method-Override and any
// other header so named), or headers read from a file (`@file`), which
// may hold one: a GET that carries one is as wide as what it may name.
func overridesMethod(h string) bool {
	name, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(h)), ":")
	return strings.HasPrefix(h, "@") || strings.Contains(name, "method")
}
