package agente2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Setup says how a project is made before any session runs.
type Setup struct {
	Files    map[string]string // committed before `gitwarrant init`, by path relative to the root
	Loop     string            // the loop `gitwarrant new` creates; "fix" when empty
	Template string            // its template; "fix-bug-on-branch" when empty
	// More are further loops `gitwarrant new` creates before install, by
	// name, each with its template.
	More map[string]string
	// Install is the flags `gitwarrant install` runs with, e.g.
	// {"--default-loop", "fix"}; nil runs it with none.
	Install []string
	// Origin makes a bare repository, pushes main there and adds it as
	// the remote origin, for tests of pushes.
	Origin bool
}

// Project is a real Git repository wired by `gitwarrant install`, in
// which real agent sessions run. Its gitwarrant binary is first on the
// PATH every command and session sees, so the installed hook command
// `gitwarrant hook claude …` resolves to it.
type Project struct {
	T          testing.TB
	Dir        string // the work tree
	Origin     string // the bare remote, when Setup.Origin
	Home       string // HOME for git, gitwarrant and the agents
	Gitwarrant string // the binary
	BinDir     string // a folder first on PATH: Gitwarrant's, then the test's own tools (AddTool)
	path       string
}

// NewProject makes the repository: Files committed on main, `gitwarrant
// init`, `gitwarrant new <Loop> --template <Template>`, `gitwarrant
// install <Install…>`, and everything install wrote committed, as a user
// would. gitwarrant is the binary to use (testkit.Binary).
func NewProject(t testing.TB, gitwarrant string, s Setup) *Project {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		SkipOrFail(t, "git is not installed")
	}
	if s.Loop == "" {
		s.Loop = "fix"
	}
	if s.Template == "" {
		s.Template = "fix-bug-on-branch"
	}
	p := &Project{T: t, Dir: t.TempDir(), Home: ClaudeHome(t), Gitwarrant: gitwarrant, BinDir: t.TempDir()}
	// The folder the binary is in goes on PATH as it is: testkit builds
	// gitwarrant-mcp beside it, which `gitwarrant mcp` runs.
	p.path = p.BinDir + string(os.PathListSeparator) + filepath.Dir(gitwarrant) + string(os.PathListSeparator) + os.Getenv("PATH")
	p.Git("init", "-q", "-b", "main")
	if len(s.Files) == 0 {
		s.Files = map[string]string{"README.md": "e2e\n"}
	}
	for name, body := range s.Files {
		p.WriteFile(name, body)
	}
	p.Git("add", "-A")
	p.Git("commit", "-q", "-m", "initial")
	if s.Origin {
		p.Origin = filepath.Join(t.TempDir(), "origin.git")
		p.Git("init", "-q", "--bare", "-b", "main", p.Origin)
		p.Git("remote", "add", "origin", p.Origin)
		p.Git("push", "-q", "origin", "main")
	}
	p.Run("init")
	p.Run("new", s.Loop, "--template", s.Template)
	for name, tmpl := range s.More {
		p.Run("new", name, "--template", tmpl)
	}
	p.Run(append([]string{"install"}, s.Install...)...)
	p.Git("add", "-A")
	p.Git("commit", "-q", "-m", "gitwarrant: install")
	return p
}

// Env is the environment of every command the project runs.
func (p *Project) Env() []string {
	return []string{
		"PATH=" + p.path, "HOME=" + p.Home, "NO_COLOR=1", "LANG=C.UTF-8",
		"GIT_AUTHOR_NAME=Test Human", "GIT_AUTHOR_EMAIL=human@example.com",
		"GIT_COMMITTER_NAME=Test Human", "GIT_COMMITTER_EMAIL=human@example.com",
		"GIT_CONFIG_NOSYSTEM=1",
	}
}

// Path is the absolute path of rel in the work tree.
func (p *Project) Path(rel string) string { return filepath.Join(p.Dir, filepath.FromSlash(rel)) }

// WriteFile writes rel in the work tree, making its folders.
func (p *Project) WriteFile(rel, body string) {
	p.T.Helper()
	path := p.Path(rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.T.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		p.T.Fatal(err)
	}
}

// ReadFile returns rel's content ("" when it does not exist).
func (p *Project) ReadFile(rel string) string {
	b, _ := os.ReadFile(p.Path(rel))
	return string(b)
}

// AddTool puts an executable script named name first on the PATH of the
// project's commands and sessions, e.g. a stand-in `sudo` that only
// leaves a mark if it ever runs.
func (p *Project) AddTool(name, script string) string {
	p.T.Helper()
	path := filepath.Join(p.BinDir, name)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		p.T.Fatal(err)
	}
	return path
}

// Git runs git in the work tree and returns its stdout; a failure fails
// the test.
func (p *Project) Git(args ...string) string {
	p.T.Helper()
	return p.exec("git", args...)
}

// Run runs the gitwarrant binary in the work tree and returns its stdout;
// a failure fails the test.
func (p *Project) Run(args ...string) string {
	p.T.Helper()
	return p.exec(p.Gitwarrant, args...)
}

func (p *Project) exec(name string, args ...string) string {
	p.T.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = p.Dir, p.Env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		p.T.Fatalf("%s %s: %v\nstdout: %s\nstderr: %s", filepath.Base(name), strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.String()
}

// Session is one agent session in the project.
type Session struct {
	Prompt string
	Calls  []ToolCall // the model's tool calls, in order
	Final  string     // the model's last text ("done" when empty)
	Args   []string   // more client flags, e.g. --permission-mode bypassPermissions
	Env    []string   // more environment (KEY=VALUE)
}

// Claude runs one `claude -p` session in the project with the pinned CLI
// (skipping, or failing under GITWARRANT_REQUIRE_AGENTS, without it).
// Sessions share the project's HOME, as one user's sessions do; each has
// its own model server, so sessions may run in parallel.
func (p *Project) Claude(s Session) *ClaudeResult {
	p.T.Helper()
	return RunClaude(p.T, ClaudeRun{
		Bin: ClaudeBin(p.T), Dir: p.Dir, Home: p.Home, PATH: p.path,
		Prompt: s.Prompt, Script: Script{Calls: s.Calls, Final: s.Final},
		Args: s.Args, Env: s.Env,
	})
}

// RecordEntry is one line of `gitwarrant record log --json`: the chain
// and the entry's fields the tests read (docs/record.md).
type RecordEntry struct {
	Chain string `json:"chain"`
	Entry struct {
		Kind      string `json:"kind"`
		Verdict   string `json:"verdict"`
		Rule      string `json:"rule"`
		Loop      string `json:"loop"`
		Tool      string `json:"tool"`
		Target    string `json:"target"`
		Action    string `json:"action"`
		Session   string `json:"session"`
		ToolUseID string `json:"tool_use_id"`
		Via       string `json:"via"`
		LoopVia   string `json:"loop_via"` // how the deciding loop was chosen (docs/sessions.md#the-record)
	} `json:"entry"`
}

// Record returns the project's record, every chain merged by time.
func (p *Project) Record() []RecordEntry {
	p.T.Helper()
	var out []RecordEntry
	sc := bufio.NewScanner(strings.NewReader(p.Run("record", "log", "--json")))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var e RecordEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			p.T.Fatalf("record log --json: %v\n%s", err, sc.Text())
		}
		out = append(out, e)
	}
	return out
}

// Checks returns the record's check entries for one session's tool call.
func (p *Project) Checks(session, toolUseID string) []RecordEntry {
	p.T.Helper()
	var out []RecordEntry
	for _, e := range p.Record() {
		if e.Entry.Kind == "check" && e.Entry.Session == session && e.Entry.ToolUseID == toolUseID {
			out = append(out, e)
		}
	}
	return out
}
