// Command honest2 extracts the second honest corpus (eval/corpus/README.md,
// "The second honest corpus"): the shell commands and file reads that
// coding agents (Claude Code, Cursor, Codex, Gemini CLI, Copilot) made in
// public repositories whose SpecStory transcripts are committed under
// .specstory/history/. Run it from the module root:
//
//	go run ./eval/cmd/honest2 -mirrors DIR [-sources eval/corpus/honest2-sources.txt] [-o testdata/honest2/honest2.jsonl]
//
// DIR holds each source repository as a git directory at
// DIR/<owner>+<name>/repo (or DIR/<owner>+<name>). Each source line names
// the repository and the commit read. The output is one call a line, in
// the corpus format (id, fixture, tool, input, source, quote), and the
// tool prints the count and SHA-256 that eval/corpus/honest2.manifest
// records. The extracted calls are not committed (testdata/honest2/README.md).
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

func main() {
	mirrors := flag.String("mirrors", "", "the folder holding each source repository's git directory as <owner>+<name>/repo")
	sources := flag.String("sources", "eval/corpus/honest2-sources.txt", "the committed list of sources: owner/name commit, one a line")
	out := flag.String("o", "testdata/honest2/honest2.jsonl", "the file to write the calls into")
	flag.Parse()
	if *mirrors == "" {
		fmt.Fprintln(os.Stderr, "honest2: -mirrors is required; see `go doc ./eval/cmd/honest2`")
		os.Exit(2)
	}
	if err := run(*mirrors, *sources, *out); err != nil {
		fmt.Fprintf(os.Stderr, "honest2: %v\n", err)
		os.Exit(1)
	}
}

// call is one line of the extracted corpus (eval/corpus.go's corpusCall).
type call struct {
	ID      string         `json:"id"`
	Fixture string         `json:"fixture"`
	Tool    string         `json:"tool"`
	Input   map[string]any `json:"input"`
	Source  string         `json:"source"`
	Quote   string         `json:"quote"`
}

func run(mirrors, sources, out string) error {
	list, err := os.ReadFile(sources)
	if err != nil {
		return err
	}
	var calls []call
	sc := bufio.NewScanner(bytes.NewReader(list))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return fmt.Errorf("%s:%d: want `owner/name commit`", sources, n)
		}
		got, err := extract(mirrors, f[0], f[1])
		if err != nil {
			return fmt.Errorf("%s:%d: %s: %v", sources, n, f[0], err)
		}
		fmt.Fprintf(os.Stderr, "%s @ %.12s: %d calls\n", f[0], f[1], len(got))
		calls = append(calls, got...)
	}
	var buf bytes.Buffer
	for i := range calls {
		calls[i].ID = fmt.Sprintf("h2-%04d", i+1)
		b, err := json.Marshal(calls[i])
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("calls %d\nsha256 %x\n", len(calls), sha256.Sum256(buf.Bytes()))
	return nil
}

func gitDir(mirrors, repo string) string {
	base := filepath.Join(mirrors, strings.Replace(repo, "/", "+", 1))
	if fi, err := os.Stat(filepath.Join(base, "repo")); err == nil && fi.IsDir() {
		return filepath.Join(base, "repo")
	}
	return base
}

func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"--git-dir", dir}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
	}
	return out, nil
}

// extract reads every transcript of one source at its commit.
func extract(mirrors, repo, commit string) ([]call, error) {
	dir := gitDir(mirrors, repo)
	top, err := git(dir, "ls-tree", "--name-only", commit)
	if err != nil {
		return nil, err
	}
	fixture := fixtureOf(strings.Fields(string(top)))
	if fixture == "java-gradle" && android(dir, commit) {
		fixture = "android-gradle"
	}
	if fixture == "" {
		return nil, fmt.Errorf("no build file at the root names an ecosystem the eval has a fixture for")
	}
	names, err := git(dir, "-c", "core.quotepath=off", "ls-tree", "-r", "--name-only", commit, "--", ".specstory/history")
	if err != nil {
		return nil, err
	}
	roots := []string{path.Base(repo)}
	if n := projectName(dir, commit); n != "" && n != roots[0] {
		roots = append(roots, n)
	}
	files := strings.Split(strings.TrimSpace(string(names)), "\n")
	sort.Strings(files)
	var out []call
	for _, f := range files {
		if !strings.HasSuffix(f, ".md") {
			continue
		}
		text, err := git(dir, "show", commit+":"+f)
		if err != nil {
			// The store leaves out files of 4 MiB and more.
			fmt.Fprintf(os.Stderr, "%s: %s not read: %v\n", repo, f, err)
			continue
		}
		src := "https://github.com/" + repo + "/blob/" + commit + "/" + f
		for _, c := range toolUses(string(text), roots...) {
			c.Fixture, c.Source = fixture, src
			out = append(out, c)
		}
	}
	return out, nil
}

// projectName is the name SpecStory gives the project in
// .specstory/.project.json: the folder the agent worked in, which need not
// be the repository's name (AndyCross/pytato was checked out as
// video-gen); "" when it names none.
func projectName(dir, commit string) string {
	b, err := git(dir, "show", commit+":.specstory/.project.json")
	if err != nil {
		return ""
	}
	var p struct {
		Name string `json:"project_name"`
	}
	if json.Unmarshal(b, &p) != nil || strings.ContainsAny(p.Name, "/\\") {
		return ""
	}
	return p.Name
}

// android reports a Gradle build whose app module applies an Android
// plugin: its tasks are the Android ones (assembleDebug,
// testDebugUnitTest …), which `gitwarrant new` reads from that module's
// build file, so it is replayed in the android-gradle fixture.
func android(dir, commit string) bool {
	for _, f := range []string{"app/build.gradle", "app/build.gradle.kts"} {
		if b, err := git(dir, "show", commit+":"+f); err == nil && bytes.Contains(b, []byte("com.android")) {
			return true
		}
	}
	return false
}

// fixtureOf names the eval fixture of a repository's ecosystem from the
// files at its root, as `gitwarrant new` detects it (first match wins).
func fixtureOf(top []string) string {
	has := map[string]bool{}
	for _, n := range top {
		has[n] = true
	}
	switch {
	case has["go.mod"]:
		return "go"
	case has["Cargo.toml"]:
		return "rust"
	case has["pom.xml"]:
		return "java-maven"
	case has["build.gradle"] || has["build.gradle.kts"] || has["settings.gradle"] || has["settings.gradle.kts"]:
		return "java-gradle"
	case has["manage.py"]:
		return "python-django"
	case has["poetry.lock"]:
		return "python-poetry"
	case has["uv.lock"]:
		return "python-uv"
	case has["pyproject.toml"] || has["requirements.txt"] || has["setup.py"]:
		return "python-pip"
	case has["pnpm-lock.yaml"]:
		return "node-pnpm"
	case has["yarn.lock"]:
		return "node-yarn"
	case has["package.json"]:
		return "node"
	}
	return ""
}

var (
	toolUseRE = regexp.MustCompile(`(?s)<tool-use data-tool-type="([^"]*)" data-tool-name="([^"]*)">(.*?)</tool-use>`)
	fenceRE   = regexp.MustCompile("(?s)```(bash|sh|shell|zsh|powershell)?\\n(.*?)\\n```")
	jsonRE    = regexp.MustCompile("(?s)Parameters:\\s*```json\\n(.*?)\\n```")
	tickRE    = regexp.MustCompile("(?m)^\\s*`([^`\\n]+)`\\s*$")
)

// toolUses reads the shell commands and file reads of one SpecStory
// transcript. A shell tool's command is its first fenced block marked as
// shell, else the first line that is wholly one `code span` before any
// fence (the form Claude Code's transcripts take when the block holds the
// output), or the `command` of its JSON parameters (Copilot); a read is
// its first such line. Other tools are not read.
// Absolute paths into the project (…/<root>/…, where a root is the
// repository's name or the folder the transcript's project was worked in)
// are made relative to it.
func toolUses(text string, roots ...string) []call {
	var out []call
	for _, m := range toolUseRE.FindAllStringSubmatch(text, -1) {
		kind, body := m[1], m[3]
		if kind == "unknown" && (strings.Contains(m[2], "terminal") || strings.Contains(m[2], "shell")) {
			// Copilot and others: the command is a parameter.
			if j := jsonRE.FindStringSubmatch(body); j != nil {
				var p struct {
					Command string `json:"command"`
				}
				if json.Unmarshal([]byte(j[1]), &p) == nil && strings.TrimSpace(p.Command) != "" {
					cmd := strings.TrimSpace(p.Command)
					out = append(out, call{Tool: "Bash", Input: map[string]any{"command": relative(cmd, roots)}, Quote: cmd})
				}
			}
			continue
		}
		switch kind {
		case "shell", "bash":
			cmd := ""
			if f := fenceRE.FindStringSubmatch(body); f != nil && f[1] != "" && f[1] != "powershell" {
				cmd = f[2]
			} else if t := firstTick(body); t != "" {
				cmd = t
			}
			cmd = strings.TrimSpace(html(cmd))
			if cmd == "" {
				continue
			}
			out = append(out, call{Tool: "Bash", Input: map[string]any{"command": relative(cmd, roots)}, Quote: cmd})
		case "read":
			p := strings.TrimSpace(html(firstTick(body)))
			if p == "" || strings.ContainsAny(p, " \t") {
				continue
			}
			out = append(out, call{Tool: "Read", Input: map[string]any{"file_path": strings.TrimPrefix(relative(p, roots), "./")}, Quote: p})
		}
	}
	return out
}

func firstTick(body string) string {
	head := body
	if i := strings.Index(body, "```"); i >= 0 {
		head = body[:i]
	}
	if t := tickRE.FindStringSubmatch(head); t != nil {
		return t[1]
	}
	return ""
}

func html(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&#96;", "`", "&quot;", `"`, "&#39;", "'").Replace(s)
}

// relative turns absolute paths into the project into paths relative to
// its root: "/Users/x/src/<repo>/a/b" becomes "a/b", and the root itself
// ".".
func relative(s string, roots []string) string {
	for _, root := range roots {
		re := regexp.MustCompile(`(?:[A-Za-z]:)?(?:/[^\s'"/]+)*/` + regexp.QuoteMeta(root) + `(/|\b)`)
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			if strings.HasSuffix(m, "/") {
				return ""
			}
			return "."
		})
	}
	return s
}
