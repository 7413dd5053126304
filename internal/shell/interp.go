package shell

import (
	"strings"
)

// pythonName reports a Python interpreter's name: `python`, `pypy`, with
// an optional version (`python3.12`) — `^(python|pypy)[0-9.]*$`, checked
// without a regular expression on the hook's hot path.
func pythonName(name string) bool {
	rest, ok := strings.CutPrefix(name, "python")
	if !ok {
		if rest, ok = strings.CutPrefix(name, "pypy"); !ok {
			return false
		}
	}
	return strings.Trim(rest, "0123456789.") == ""
}

// interpreterCode says why a command runs code given on its command line
// (python -c, node -e, perl -e, awk with system() …), or "". Such a clause
// is opaque; its code strings are in Script.Literals. See
// docs/shell.md#opaque.
func interpreterCode(name string, args []string) string {
	switch {
	case pythonName(name):
		if hasShortOpt(args, 'c', "") {
			return name + " -c"
		}
	case name == "node" || name == "nodejs" || name == "bun":
		if hasShortOpt(args, 'e', "eval") || hasShortOpt(args, 'p', "print") {
			return name + " -e"
		}
	case name == "deno":
		if len(args) > 1 && args[1] == "eval" {
			return "deno eval"
		}
	case strings.HasPrefix(name, "perl"):
		if hasShortOpt(args, 'e', "") || hasShortOpt(args, 'E', "") {
			return "perl -e"
		}
	case name == "ruby" || name == "jruby" || name == "lua" || name == "luajit" || name == "Rscript" ||
		name == "osascript" || name == "julia" || name == "crystal" || name == "elixir":
		if hasShortOpt(args, 'e', "eval") {
			return name + " -e"
		}
	case strings.HasPrefix(name, "php"):
		if hasShortOpt(args, 'r', "run") || hasShortOpt(args, 'R', "process-code") || hasShortOpt(args, 'B', "process-begin") || hasShortOpt(args, 'E', "process-end") {
			return name + " -r"
		}
	case name == "expect" || name == "tclsh" || name == "wish":
		if hasShortOpt(args, 'c', "") {
			return name + " -c"
		}
	case name == "pwsh" || name == "powershell" || name == "powershell.exe" || name == "pwsh.exe":
		for _, a := range args[1:] {
			l := strings.ToLower(a)
			if strings.HasPrefix(l, "-c") || strings.HasPrefix(l, "-e") || strings.HasPrefix(l, "/c") {
				return name + " -Command"
			}
		}
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" || name == "busybox-awk":
		return awkCode(args)
	case name == "sed" || name == "gsed":
		return SedCode(args)
	case name == "go":
		return goCode(args)
	case name == "jq" || name == "gojq" || name == "jaq":
		return jqCode(args)
	case name == "vim" || name == "vi" || name == "nvim" || name == "ex":
		for _, a := range args[1:] {
			if a == "-c" || strings.HasPrefix(a, "+") || a == "--cmd" || a == "-S" {
				return name + " runs editor commands"
			}
		}
	case name == "emacs":
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "--eval") || a == "-eval" || strings.HasPrefix(a, "--batch") || a == "-l" || strings.HasPrefix(a, "--load") || strings.HasPrefix(a, "-f") {
				return "emacs runs lisp"
			}
		}
	}
	return ""
}

// CodeWhateverFollows says why every command opening with words runs code
// the gate cannot read, or "": `go generate`, `go env -w`, `vim -c`, an
// interpreter given code on its command line. What makes such a command
// opaque is an option or subcommand among those words, and words added
// after them do not take it away, so a Bash allow entry with that literal
// prefix never allows a call; lint says so (docs/typed-entries.md#entries-that-never-allow).
func CodeWhateverFollows(words []string) string {
	if len(words) == 0 {
		return ""
	}
	return interpreterCode(baseName(words[0]), words)
}

// hasShortOpt reports a short option letter anywhere in a cluster before
// the first operand, or the long form.
func hasShortOpt(args []string, c byte, long string) bool {
	for _, a := range args[1:] {
		if a == "--" {
			return false
		}
		if long != "" && (a == "--"+long || strings.HasPrefix(a, "--"+long+"=")) {
			return true
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' {
			if strings.IndexByte(a[1:], c) >= 0 {
				return true
			}
			continue
		}
		if !strings.HasPrefix(a, "-") {
			// the first operand is a script; the rest are its arguments
			// (for perl/ruby -e may follow other options only)
			return false
		}
	}
	return false
}

// awkCode: awk runs commands through system(), pipes to or from a command,
// and writes files with print > "file". A program that may do so is
// opaque.
func awkCode(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || strings.HasPrefix(a, "--file") || a == "-E" || strings.HasPrefix(a, "--exec"):
			return "" // program from a file
		case a == "-v" || a == "-F" || a == "--assign" || a == "--field-separator":
			i++
			continue
		case strings.HasPrefix(a, "-"):
			continue
		}
		if strings.Contains(a, "system") || strings.ContainsAny(a, "|>") || strings.Contains(a, "@load") {
			return "awk program may run commands or write files"
		}
		if strings.Contains(a, "ENVIRON") || strings.Contains(a, "PROCINFO") {
			return "awk program reads the environment"
		}
		return ""
	}
	return ""
}

// SedCode says why sed's script (its operand, or every -e) runs commands
// or writes files — the e command and s///e run commands; w writes files
// (SedRuns) — or returns "".
func SedCode(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		script := ""
		switch {
		case a == "-e" || a == "--expression":
			if i+1 < len(args) {
				script = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--expression="):
			script = strings.TrimPrefix(a, "--expression=")
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "e") && !strings.HasPrefix(a, "-i"):
			j := strings.IndexByte(a, 'e')
			if j+1 < len(a) {
				script = a[j+1:]
			} else if i+1 < len(args) {
				script = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "-"):
			continue
		default:
			if !sedHasE(args) {
				script = a
			}
		}
		if script != "" && SedRuns(script) {
			return "sed script runs commands or writes files"
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
	}
	return ""
}

func sedHasE(args []string) bool {
	for _, a := range args[1:] {
		if a == "-e" || a == "-f" || strings.HasPrefix(a, "--expression") || strings.HasPrefix(a, "--file") {
			return true
		}
	}
	return false
}

// readsCodeFromStdin: an interpreter with no script operand reads its
// program from standard input.
func readsCodeFromStdin(name string, args []string) bool {
	interp := pythonName(name) || name == "node" || name == "nodejs" || strings.HasPrefix(name, "perl") ||
		name == "ruby" || strings.HasPrefix(name, "php") || name == "lua" || name == "Rscript" || name == "osascript" ||
		name == "tclsh" || name == "expect" || name == "pwsh" || name == "powershell" || name == "julia" || name == "bun" || name == "deno"
	if !interp {
		return false
	}
	for _, a := range args[1:] {
		if a == "-" {
			return true
		}
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// interpreterName: a program that runs a script file it is given.
func interpreterName(name string) bool {
	return pythonName(name) || name == "node" || name == "nodejs" || name == "bun" || name == "deno" ||
		strings.HasPrefix(name, "perl") || name == "ruby" || strings.HasPrefix(name, "php") || name == "lua" ||
		name == "Rscript" || name == "osascript" || name == "tclsh" || name == "expect" || name == "pwsh" ||
		name == "julia" || name == "awk" || name == "gawk" || name == "make" || name == "ts-node" || name == "tsx"
}
