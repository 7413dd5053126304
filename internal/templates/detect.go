package templates

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Project is what `init` and `new` learn about a repository so a template
// can name its real commands and folders (docs/typed-entries.md#templates):
// the typed entries each warrant list gains.
type Project struct {
	Ecosystems []string // "go", "node", "python", "rust", "java", in detection order
	Read       []string // typed entries for read
	Change     []string // for change
	Ask        []string // for ask
	Never      []string // for never
}

// Lists returns the entries for the warrant list called name.
func (p *Project) Lists(name string) []string {
	switch name {
	case "read":
		return p.Read
	case "change":
		return p.Change
	case "ask":
		return p.Ask
	case "never":
		return p.Never
	}
	return nil
}

// skipDirs are never project folders: build output, dependencies, VCS and tool state.
var skipDirs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"node_modules": true, "target": true, "build": true, "dist": true, "out": true, "vendor": true, "bin": true,
		"venv": true, ".venv": true, "env": true, "__pycache__": true, "coverage": true, "htmlcov": true,
	}
})

// repo reads files below one root; every read is best effort (a missing or
// unreadable file means the feature is absent).
type repo struct{ root string }

func (r repo) read(name string) string {
	b, err := os.ReadFile(filepath.Join(r.root, name))
	if err != nil || len(b) > 1<<20 {
		return ""
	}
	return string(b)
}

func (r repo) exists(name string) bool {
	_, err := os.Stat(filepath.Join(r.root, name))
	return err == nil
}

// dirsWith returns the top-level folders holding a file whose name ends in
// one of exts, looking a few levels down.
func (r repo) dirsWith(exts ...string) []string {
	entries, err := os.ReadDir(r.root)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") || skipDirs()[name] {
			continue
		}
		if r.holds(filepath.Join(r.root, name), exts, 4) {
			out = append(out, name)
		}
	}
	return out
}

func (r repo) holds(dir string, exts []string, depth int) bool {
	found := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipDir
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || skipDirs()[d.Name()] || strings.Count(rel, string(filepath.Separator)) >= depth) {
				return filepath.SkipDir
			}
			return nil
		}
		for _, x := range exts {
			if strings.HasSuffix(d.Name(), x) {
				found = true
				return filepath.SkipAll
			}
		}
		return nil
	})
	return found
}

// Detect looks at root's build files and folders.
func Detect(root string) *Project {
	r := repo{root: root}
	p := &Project{}
	for _, d := range detectors {
		d(r, p)
	}
	p.Read, p.Change, p.Ask, p.Never = dedupe(p.Read), dedupe(p.Change), dedupe(p.Ask), dedupe(p.Never)
	return p
}

var detectors = []func(repo, *Project){detectGo, detectNode, detectPython, detectRust, detectJava, detectMake, detectScripts, detectTools, detectVersions}

// versionReads are the version queries of each ecosystem's tools: they
// print and change nothing, and an agent asks them before it builds.
var versionReads = map[string][]string{
	"go":     {"go version"},
	"node":   {"node --version", "node -v", "npm --version", "npm -v", "npx --version", "pnpm --version", "yarn --version"},
	"python": {"python --version", "python3 --version", "uv --version", "pip --version", "pip3 --version", "poetry --version"},
	"rust":   {"cargo --version", "rustc --version"},
	"java":   {"java -version", "java --version", "javac -version", "javac --version"},
}

// detectVersions allows the version queries of the ecosystems found.
func detectVersions(_ repo, p *Project) {
	for _, eco := range p.Ecosystems {
		p.Read = append(p.Read, bash(versionReads[eco]...)...)
	}
}

// detectTools names tools any ecosystem configures in the repository.
func detectTools(r repo, p *Project) {
	if r.exists(".pre-commit-config.yaml") {
		p.Change = append(p.Change, bash("pre-commit run *")...)
		p.Ask = append(p.Ask, "Edit(.pre-commit-config.yaml)")
	}
}

func (p *Project) add(eco string) { p.Ecosystems = append(p.Ecosystems, eco) }

func bash(cmds ...string) []string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = "Bash(" + c + ")"
	}
	return out
}

func domains(hosts ...string) []string {
	out := make([]string, len(hosts))
	for i, h := range hosts {
		out[i] = "WebFetch(domain:" + h + ")"
	}
	return out
}

func editDirs(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		out = append(out, "Edit("+d+"/**)")
	}
	return out
}

func detectGo(r repo, p *Project) {
	if !r.exists("go.mod") {
		return
	}
	p.add("go")
	p.Change = append(p.Change, bash("go build *", "go test *", "go vet *", "go fmt *", "gofmt *", "goimports *",
		"go run *", "go mod tidy", "go mod download", "go list *", "go doc *", "go env", "go version",
		"golangci-lint run *", "staticcheck *")...)
	p.Change = append(p.Change, "Edit(*.go)", "Edit(testdata/**)")
	p.Read = append(p.Read, domains("go.dev", "pkg.go.dev")...)
	p.Ask = append(p.Ask, "Edit(go.mod)", "Edit(go.sum)", "Bash(go get)", "Bash(go install)")
}

// riskyScript names package scripts a fix loop does not run on its own:
// they publish, deploy or change a database.
var riskyScript = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)deploy|release|publish|migrat|seed|reset|db:push|prepare|version`)
})

// pmBuiltin names package-manager commands a script name must not shadow in
// the shorthand `pnpm <script>` / `yarn <script>`.
var pmBuiltin = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(add|remove|install|i|update|up|upgrade|link|unlink|pack|publish|dlx|exec|run|ci|create|init|config|store|patch|rebuild|env|set|import|audit|outdated|why)$`)
})

// nodeTools are package binaries worth naming when a project depends on
// them, with the subcommand a fix runs.
var nodeTools = []struct{ dep, cmd string }{
	{"typescript", "tsc *"}, {"vitest", "vitest *"}, {"jest", "jest *"}, {"eslint", "eslint *"}, {"prettier", "prettier *"},
	{"@playwright/test", "playwright test *"}, {"@biomejs/biome", "biome *"}, {"prisma", "prisma generate"},
	{"prisma", "prisma validate"}, {"prisma", "prisma format"}, {"astro", "astro check *"}, {"next", "next lint *"},
}

var nodeDocs = sync.OnceValue(func() map[string]string {
	return map[string]string{"next": "nextjs.org", "react": "react.dev", "vitest": "vitest.dev", "jest": "jestjs.io",
		"@playwright/test": "playwright.dev", "prisma": "www.prisma.io", "astro": "docs.astro.build", "vue": "vuejs.org"}
})

func detectNode(r repo, p *Project) {
	raw := r.read("package.json")
	if raw == "" {
		return
	}
	var pkg struct {
		Scripts         map[string]string `json:"scripts"`
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
		PackageManager  string            `json:"packageManager"`
	}
	if json.Unmarshal([]byte(raw), &pkg) != nil {
		return
	}
	p.add("node")
	pm := "npm"
	switch {
	case r.exists("pnpm-lock.yaml") || strings.HasPrefix(pkg.PackageManager, "pnpm"):
		pm = "pnpm"
	case r.exists("yarn.lock") || strings.HasPrefix(pkg.PackageManager, "yarn"):
		pm = "yarn"
	}
	var cmds []string
	for _, s := range sortedKeys(pkg.Scripts) {
		if riskyScript().MatchString(s) || strings.ContainsAny(s, " ()'\"") {
			continue
		}
		switch pm {
		case "npm":
			cmds = append(cmds, "npm run "+s+" *")
			if s == "test" || s == "start" {
				cmds = append(cmds, "npm "+s+" *")
			}
		case "pnpm":
			cmds = append(cmds, "pnpm run "+s+" *", "pnpm -r run "+s+" *")
			if !pmBuiltin().MatchString(s) {
				cmds = append(cmds, "pnpm "+s+" *", "pnpm -r "+s+" *")
				if pkg.PackageManager != "" {
					cmds = append(cmds, "corepack pnpm "+s+" *")
				}
			}
		case "yarn":
			cmds = append(cmds, "yarn run "+s+" *")
			if !pmBuiltin().MatchString(s) {
				cmds = append(cmds, "yarn "+s+" *")
			}
		}
	}
	switch pm {
	case "npm":
		cmds = append(cmds, "npm ci", "npm install", "npm ls *")
	case "pnpm":
		cmds = append(cmds, "pnpm install", "pnpm install --frozen-lockfile", "pnpm -w install", "pnpm ls *")
	case "yarn":
		cmds = append(cmds, "yarn install", "yarn install --frozen-lockfile")
	}
	deps := map[string]bool{}
	for d := range pkg.Dependencies {
		deps[d] = true
	}
	for d := range pkg.DevDependencies {
		deps[d] = true
	}
	for _, t := range nodeTools {
		if !deps[t.dep] {
			continue
		}
		switch pm {
		case "npm":
			cmds = append(cmds, "npx "+t.cmd)
		case "pnpm":
			cmds = append(cmds, "pnpm exec "+t.cmd)
		case "yarn":
			cmds = append(cmds, "yarn "+t.cmd)
		}
	}
	p.Change = append(p.Change, bash(cmds...)...)
	// The ecosystem's conventional source and test folders, present or
	// not (a file created there is project source), and any other folder
	// holding source files.
	dirs := append([]string{"src", "lib", "app", "pages", "components", "test", "tests", "__tests__", "e2e"},
		r.dirsWith(".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte", ".astro", ".css", ".prisma")...)
	p.Change = append(p.Change, editDirs(dedupe(dirs))...)
	if pm == "pnpm" {
		p.Change = append(p.Change, bash(pnpmFilters(r, pkg.PackageManager != "")...)...)
	}
	p.Read = append(p.Read, domains("developer.mozilla.org", "nodejs.org", "www.typescriptlang.org", "docs.npmjs.com", "www.npmjs.com")...)
	for _, d := range sortedKeys(nodeDocs()) {
		if deps[d] {
			p.Read = append(p.Read, domains(nodeDocs()[d])...)
		}
	}
	p.Ask = append(p.Ask, "Edit(package.json)", "Edit(package-lock.json)", "Edit(pnpm-lock.yaml)", "Edit(yarn.lock)",
		"Bash("+pm+" add)", "Bash("+pm+" publish)")
}

var pyTools = []string{"pytest", "ruff", "mypy", "black", "isort", "flake8", "pflake8", "pylint", "ty", "coverage", "tox"}

func detectPython(r repo, p *Project) {
	reqs, _ := filepath.Glob(filepath.Join(r.root, "requirements*.txt"))
	text := r.read("pyproject.toml") + r.read("setup.cfg") + r.read("tox.ini") + r.read("Pipfile")
	for _, f := range reqs {
		text += r.read(filepath.Base(f))
	}
	if text == "" && !r.exists("setup.py") && !r.exists("manage.py") {
		return
	}
	p.add("python")
	var runner []string // the prefixes a tool runs under
	cmds := []string{}
	switch {
	case r.exists("uv.lock") || strings.Contains(text, "[tool.uv"):
		runner = []string{"", "uv run ", "uv tool run "}
		cmds = append(cmds, "uv sync", "uv sync *", "uv lock --check")
	case r.exists("poetry.lock") || strings.Contains(text, "[tool.poetry"):
		runner = []string{"", "poetry run "}
		cmds = append(cmds, "poetry install", "poetry install *", "poetry check")
	default:
		runner = []string{""}
		cmds = append(cmds, "pip install -e .", "pip install -e .[dev]", "pip install -e '.[dev]'", "pip list", "pip show *",
			"python3 -m venv venv", "python -m venv venv", "python3 -m venv .venv", "python -m venv .venv")
		for _, f := range reqs {
			cmds = append(cmds, "pip install -r "+filepath.Base(f))
		}
	}
	tools := []string{}
	for _, t := range pyTools {
		if regexp.MustCompile(`(?m)(^|[^a-z0-9_-])` + regexp.QuoteMeta(t) + `([^a-z0-9_-]|$)`).MatchString(text) {
			tools = append(tools, t)
		}
	}
	if r.exists("tests") || r.exists("test") || r.exists("pytest.ini") || r.exists("conftest.py") {
		tools = append(tools, "pytest")
	}
	for _, t := range dedupe(tools) {
		for _, pre := range runner {
			cmds = append(cmds, pre+t+" *")
			if t != "tox" && pre != "uv tool run " {
				cmds = append(cmds, pre+"python -m "+t+" *", pre+"python3 -m "+t+" *")
			}
		}
	}
	if r.exists("manage.py") {
		for _, pre := range runner {
			if pre == "uv tool run " {
				continue
			}
			for _, py := range []string{"python", "python3"} {
				cmds = append(cmds, pre+py+" manage.py test *", pre+py+" manage.py check *", pre+py+" manage.py runserver *")
			}
		}
		p.Ask = append(p.Ask, "Edit(**/migrations/**)")
		p.Read = append(p.Read, domains("docs.djangoproject.com")...)
	}
	for _, pre := range runner {
		if pre == "uv tool run " {
			continue
		}
		cmds = append(cmds, pre+"python -m unittest *", pre+"python3 -m unittest *")
		// The project's own entry point, as `go run` and `cargo run` are
		// named: code the loop lets the agent edit anyway.
		for _, f := range []string{"main.py", "app.py"} {
			if r.exists(f) {
				cmds = append(cmds, pre+"python "+f+" *", pre+"python3 "+f+" *")
			}
		}
	}
	p.Change = append(p.Change, bash(cmds...)...)
	// Listing the installed packages reads the environment, as `pip list`
	// does; conda and mamba environments hold many Python projects.
	p.Read = append(p.Read, bash("conda list *", "mamba list *")...)
	p.Change = append(p.Change, "Edit(*.py)")
	p.Change = append(p.Change, editDirs(r.dirsWith(".py", ".pyi", ".html", ".jinja", ".jinja2"))...)
	p.Read = append(p.Read, domains("docs.python.org", "pypi.org", "docs.pytest.org", "docs.astral.sh", "mypy.readthedocs.io")...)
	p.Ask = append(p.Ask, "Edit(pyproject.toml)", "Edit(setup.py)", "Edit(setup.cfg)", "Edit(requirements*.txt)",
		"Edit(uv.lock)", "Edit(poetry.lock)", "Edit(tox.ini)", "Bash(uv add)", "Bash(uv remove)", "Bash(poetry add)", "Bash(poetry remove)",
		"Bash(pip uninstall)")
}

func detectRust(r repo, p *Project) {
	if !r.exists("Cargo.toml") {
		return
	}
	p.add("rust")
	p.Change = append(p.Change, bash("cargo build *", "cargo test *", "cargo check *", "cargo clippy *", "cargo fmt *",
		"cargo doc *", "cargo bench *", "cargo run *", "cargo tree *", "cargo metadata *", "cargo fetch", "cargo nextest run *",
		"rustfmt *")...)
	p.Change = append(p.Change, "Edit(*.rs)")
	p.Change = append(p.Change, editDirs(r.dirsWith(".rs"))...)
	p.Read = append(p.Read, domains("docs.rs", "doc.rust-lang.org", "crates.io")...)
	p.Ask = append(p.Ask, "Edit(Cargo.toml)", "Edit(Cargo.lock)", "Bash(cargo add)", "Bash(cargo install)", "Bash(cargo publish)")
}

var gradlePlugins = []struct{ marker, tasks string }{
	{"application", "run"}, {"org.springframework.boot", "bootRun"}, {"ktlint", "ktlintCheck ktlintFormat"},
	{"spotless", "spotlessApply spotlessCheck"}, {"detekt", "detekt"}, {"jacoco", "jacocoTestReport"},
	{"org.jetbrains.intellij", "buildPlugin runIde verifyPlugin"},
	// Android: the debug build, lint and the unit tests that run on this
	// machine; install*, connected*Test (a device) and assembleRelease
	// (the signing keys) are left to a person.
	{"com.android", "lint lintDebug assembleDebug testDebugUnitTest testReleaseUnitTest"},
}

var includeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["']:?([A-Za-z0-9_.-]+)["']`) })

func detectJava(r repo, p *Project) {
	var cmds []string
	switch {
	case r.exists("pom.xml"):
		p.add("java")
		pom := r.read("pom.xml")
		goals := []string{"test", "compile", "package", "verify", "clean", "install", "clean compile", "clean package",
			"clean install", "clean verify", "dependency:tree"}
		if strings.Contains(pom, "spring-boot") {
			goals = append(goals, "spring-boot:run")
		}
		tools := []string{"mvn"}
		if r.exists("mvnw") {
			tools = append(tools, "./mvnw")
			cmds = append(cmds, "./mvnw")
		}
		for _, t := range tools {
			for _, g := range goals {
				cmds = append(cmds, t+" "+g+" *")
			}
		}
		p.Ask = append(p.Ask, "Edit(pom.xml)", "Edit(**/pom.xml)")
	case r.exists("build.gradle") || r.exists("build.gradle.kts"):
		p.add("java")
		build := r.read("build.gradle") + r.read("build.gradle.kts") + r.read("app/build.gradle") + r.read("app/build.gradle.kts")
		tasks := []string{"build", "test", "check", "clean", "assemble", "classes", "jar", "tasks", "dependencies", "javadoc"}
		moduleTasks := []string{"build", "test", "check", "assemble"}
		for _, pl := range gradlePlugins {
			if strings.Contains(build, pl.marker) {
				tasks = append(tasks, strings.Fields(pl.tasks)...)
				moduleTasks = append(moduleTasks, strings.Fields(pl.tasks)...)
			}
		}
		tasks = dedupe(append(tasks, gradleTasks(r)...))
		tool := "gradle"
		if r.exists("gradlew") {
			tool = "./gradlew"
		}
		for _, t := range tasks {
			cmds = append(cmds, tool+" "+t+" *", tool+" clean "+t+" *")
		}
		for _, m := range gradleModules(r.read("settings.gradle") + r.read("settings.gradle.kts")) {
			for _, t := range dedupe(moduleTasks) {
				cmds = append(cmds, tool+" :"+m+":"+t+" *")
			}
			p.Change = append(p.Change, "Edit("+m+"/src/**)")
		}
		// The build logic decides what every task runs: its edits are asked.
		p.Ask = append(p.Ask, "Edit(build.gradle)", "Edit(build.gradle.kts)", "Edit(settings.gradle)", "Edit(settings.gradle.kts)",
			"Edit(**/build.gradle*)", "Edit(*.gradle)", "Edit(*.gradle.kts)", "Edit(gradle/**)", "Edit(buildSrc/**)", "Edit(build-logic/**)",
			"Read(gradle.properties)")
		p.Never = append(p.Never, "Read(local.properties)", "Read(keystore.properties)", "Read(github.properties)")
		p.Read = append(p.Read, bash(tool+" --version", "gradle --version", "gradle -v")...)
	default:
		return
	}
	p.Change = append(p.Change, bash(cmds...)...)
	p.Change = append(p.Change, "Edit(src/**)")
	p.Change = append(p.Change, editDirs(r.dirsWith(".java", ".kt", ".kts", ".groovy", ".scala"))...)
	p.Read = append(p.Read, domains("docs.oracle.com", "docs.gradle.org", "maven.apache.org", "mvnrepository.com",
		"search.maven.org", "kotlinlang.org", "junit.org", "docs.spring.io")...)
	p.Never = append(p.Never, "Read(*.keystore)", "Read(*.jks)")
}

// gradleModules reads `include(":a", ":b")` / `include ':a'` lines.
func gradleModules(settings string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(settings))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "include") {
			continue
		}
		for _, m := range includeRE().FindAllStringSubmatch(line, -1) {
			if !strings.Contains(m[1], ":") {
				out = append(out, m[1])
			}
		}
	}
	return out
}

var makeTargetRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^([A-Za-z0-9][A-Za-z0-9_.-]*(?:[ \t]+[A-Za-z0-9][A-Za-z0-9_.-]*)*)[ \t]*:([^=]|$)`)
})

// detectMake names each Makefile target a fix runs: exactly, since make
// arguments can redefine what a recipe runs.
func detectMake(r repo, p *Project) {
	mk := r.read("Makefile")
	if mk == "" {
		mk = r.read("makefile")
	}
	if mk == "" {
		return
	}
	cmds := []string{"make"}
	for _, m := range makeTargetRE().FindAllStringSubmatch(mk, -1) {
		for _, t := range strings.Fields(m[1]) {
			if riskyScript().MatchString(t) || t == "install" || t == "push" {
				continue
			}
			cmds = append(cmds, "make "+t)
		}
	}
	p.Change = append(p.Change, bash(dedupe(cmds)...)...)
	p.Ask = append(p.Ask, "Edit(Makefile)")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	out := in[:0:0]
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// pnpmFilters names `pnpm --filter <package> <script>` for each workspace
// package under packages/ and apps/ and the scripts it defines; with
// corepack (a packageManager field), `corepack pnpm …` as well.
func pnpmFilters(r repo, corepack bool) []string {
	var out []string
	for _, group := range []string{"packages", "apps"} {
		entries, err := os.ReadDir(filepath.Join(r.root, group))
		if err != nil {
			continue
		}
		for _, e := range entries {
			var pkg struct {
				Name    string            `json:"name"`
				Scripts map[string]string `json:"scripts"`
			}
			if !e.IsDir() || json.Unmarshal([]byte(r.read(filepath.Join(group, e.Name(), "package.json"))), &pkg) != nil || pkg.Name == "" || strings.ContainsAny(pkg.Name, " ()'\"*") {
				continue
			}
			out = append(out, "pnpm install --filter "+pkg.Name)
			for _, s := range sortedKeys(pkg.Scripts) {
				if riskyScript().MatchString(s) || strings.ContainsAny(s, " ()'\"*") {
					continue
				}
				cmds := []string{"pnpm --filter " + pkg.Name + " run " + s + " *"}
				if !pmBuiltin().MatchString(s) {
					cmds = append(cmds, "pnpm --filter "+pkg.Name+" "+s+" *")
				}
				out = append(out, cmds...)
				if corepack {
					for _, c := range cmds {
						out = append(out, "corepack "+c)
					}
				}
			}
		}
	}
	return out
}
