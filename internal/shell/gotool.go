package shell

import "strings"

// goCode says why a go command runs code the gate cannot read, or "" (see
// docs/shell.md#opaque): `go run` of Go files outside the working
// directory (one inside it is screened as a script), `go generate` (it runs the commands
// its //go:generate directives name), `go env -w|-u` (it changes the
// settings every later go command runs with: GOFLAGS=-toolexec=…, CC,
// GOTOOLCHAIN), and the options that name a program to run (-vettool,
// -toolexec, -exec, an external linker given in -ldflags).
func goCode(args []string) string {
	sub := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "-C" {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			sub = a
			break
		}
	}
	for _, a := range args[1:] {
		name, val, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			continue
		}
		switch name {
		case "vettool", "toolexec", "exec", "test.vettool":
			return "go -" + name + " runs a program"
		case "ldflags":
			if strings.Contains(val, "extld") {
				return "go -ldflags names an external linker to run"
			}
		}
	}
	switch sub {
	case "generate":
		return "go generate runs the commands its //go:generate directives name"
	case "env":
		for _, a := range args[2:] {
			if a == "-w" || a == "-u" || strings.HasPrefix(a, "-w=") {
				return "go env " + a + " changes the settings every later go command runs with"
			}
		}
	case "run":
		// A Go file below the working directory is the project's code, as
		// the package `go run ./cmd/x` builds is: the entry that allows one
		// allows the other, and the gate screens the file as a script
		// (GoRunFiles). One elsewhere (absolute, in the home directory, up
		// a `..`) is code the project does not hold.
		for _, a := range args[2:] {
			if strings.HasSuffix(a, ".go") && !strings.HasPrefix(a, "-") && !inTree(a) {
				return "go run runs the Go file " + a + ", outside the working directory"
			}
		}
	}
	return ""
}

// inTree reports a relative path that does not climb out of the
// directory it is read in.
func inTree(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "\\") {
		return false
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return false
		}
	}
	return true
}

// GoRunFiles returns the Go files `go run` is given (a script in Go), for
// the gate to screen as it screens a script run by its interpreter.
func GoRunFiles(args []string) []string {
	if len(args) < 3 || baseName(args[0]) != "go" || args[1] != "run" {
		return nil
	}
	var out []string
	for _, a := range args[2:] {
		if strings.HasSuffix(a, ".go") && !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

// goOutputs are the go command's options whose value is a file (or, for
// -outputdir, a directory) it writes: build outputs and test profiles.
func goOutputOption(name string) bool {
	switch strings.TrimPrefix(name, "test.") {
	case "o", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "coverprofile", "outputdir", "pkgdir", "fuzzcachedir", "gocoverdir":
		return true
	}
	return false
}

// goEffects: `go build|test|run|vet|install -o FILE`, the test profiles
// (-cpuprofile, -memprofile, -trace, -coverprofile …) and -outputdir write
// the file they name (docs/shell.md#effects).
func (e *effects) goEffects(args []Word, texts []string) {
	for i := 1; i < len(texts); i++ {
		t := texts[i]
		if !strings.HasPrefix(t, "-") || t == "--" {
			continue
		}
		name, val, eq := strings.Cut(strings.TrimLeft(t, "-"), "=")
		if !goOutputOption(name) {
			continue
		}
		via := "go -" + name
		tree := strings.HasSuffix(name, "dir")
		switch {
		case eq:
			f := e.add("write", withText(args[i], val), via)
			f.Tree = tree
		case i+1 < len(args):
			i++
			for _, x := range args[i].expand() {
				f := e.add("write", x, via)
				f.Tree = tree
			}
		}
	}
}

// jqCode: jq's $ENV and env read the whole environment (tokens and keys
// among it) into its output.
func jqCode(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-f", "--from-file":
			return ""
		case "--arg", "--argjson", "--slurpfile", "--rawfile":
			i += 2
			continue
		case "-L", "--indent", "--tab":
			if a != "--tab" {
				i++
			}
			continue
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			continue
		}
		if readsEnv(a) {
			return "jq reads the environment ($ENV, env)"
		}
		return ""
	}
	return ""
}

// readsEnv reports `$ENV` or the `env` builtin in a jq program (`.env`,
// a field of that name, is not it).
func readsEnv(prog string) bool {
	if strings.Contains(prog, "$ENV") {
		return true
	}
	ident := func(b byte) bool {
		return b == '_' || b == '$' || b == '.' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
	}
	for i := 0; ; {
		j := strings.Index(prog[i:], "env")
		if j < 0 {
			return false
		}
		j += i
		end := j + 3
		if (j == 0 || !ident(prog[j-1])) && (end >= len(prog) || !ident(prog[end]) || prog[end] == '.') {
			return true
		}
		i = end
	}
}
