package shell

import (
	"slices"
	"strings"
)

// Data reports which words of a clause's Argv are data to the command
// rather than what it acts on (docs/shell.md#data): a message, a title or
// body, a search pattern, a sed, awk or jq program, the words echo and
// printf print. Natural-language screening reads a clause without them, so
// `git commit -m "fix force push detection"` is a commit, not a force push.
// What is code is never data here: a substitution inside a data word is a
// clause of its own (`echo $(rm -rf ~)`), a string a shell or eval runs is
// re-read, and find's -exec command is a clause of its own (so it is left
// out of find's words as well).
//
// It returns nil when no word is data (most clauses), else one flag per
// word of Argv.
func (c Clause) Data() []bool {
	if len(c.Argv) < 2 || !dataCommands[c.Name()] {
		return nil
	}
	out := make([]bool, len(c.Argv))
	texts := make([]string, len(c.Argv))
	for i, w := range c.Argv {
		texts[i] = w.Text
	}
	mark := func(i int) {
		if i > 0 && i < len(out) {
			out[i] = true
		}
	}
	switch c.Name() {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash":
		// the string of -c is code, read as clauses of its own: the
		// shell's own words are the shell and its options
		for i := 1; i < len(texts); i++ {
			t := texts[i]
			if !strings.HasPrefix(t, "-") || strings.HasPrefix(t, "--") {
				break
			}
			if strings.Contains(t[1:], "c") && i+1 < len(texts) && c.Argv[i+1].Literal {
				mark(i + 1)
				break
			}
		}
	case "eval":
		for i := 1; i < len(texts); i++ {
			if c.Argv[i].Literal {
				mark(i)
			}
		}
	case "echo", "printf":
		for i := 1; i < len(texts); i++ {
			mark(i)
		}
	case "grep", "egrep", "fgrep", "rgrep", "zgrep", "rg", "ag", "ack", "ack-grep":
		idx, s := operands(texts, grepSpec)
		explicit := false
		for i := 1; i < len(texts); i++ {
			t := texts[i]
			if t == "-e" || t == "--regexp" {
				mark(i + 1)
				explicit = true
			} else if strings.HasPrefix(t, "--regexp=") || strings.HasPrefix(t, "-e") && len(t) > 2 && !strings.HasPrefix(t, "--") {
				mark(i)
				explicit = true
			}
		}
		if !explicit && !s.has("-f", "--file") && len(idx) > 0 {
			mark(idx[0])
		}
	case "sed", "gsed":
		script := false
		for i := 1; i < len(texts); i++ {
			switch t := texts[i]; {
			case t == "-e" || t == "--expression":
				mark(i + 1)
				script = true
				i++
			case strings.HasPrefix(t, "--expression="):
				mark(i)
				script = true
			case t == "-f" || t == "--file":
				script = true
				i++
			}
		}
		if !script {
			for i := 1; i < len(texts); i++ {
				if !strings.HasPrefix(texts[i], "-") {
					mark(i)
					break
				}
			}
		}
	case "awk", "gawk", "mawk", "nawk", "jq", "gojq", "jaq", "yq":
		// the program: the first operand (awk's -v and jq's --arg values
		// are data too)
		for i := 1; i < len(texts); i++ {
			t := texts[i]
			switch {
			case t == "-v" || t == "--assign":
				mark(i + 1)
				i++
			case t == "--arg" || t == "--argjson":
				mark(i + 2)
				i += 2
			case t == "-f" || t == "--file" || t == "--from-file":
				return out // the program is a file: no operand is data
			case strings.HasPrefix(t, "-"):
			default:
				mark(i)
				return out
			}
		}
	case "git":
		if g, ok := c.Git(); ok {
			gitData(c, g, out)
		}
	case "gh":
		for i := 1; i < len(texts); i++ {
			switch t := texts[i]; {
			case t == "--title" || t == "-t" || t == "--body" || t == "-b":
				mark(i + 1)
				i++
			case strings.HasPrefix(t, "--title=") || strings.HasPrefix(t, "--body="):
				mark(i)
			}
		}
	case "find":
		_, expr := findStart(texts)
		for i := expr; i < len(texts); i++ {
			switch texts[i] {
			case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname":
				mark(i + 1)
				i++
			case "-exec", "-execdir", "-ok", "-okdir":
				j := i + 1
				for j < len(texts) && texts[j] != ";" && !(texts[j] == "+" && j > i+1 && strings.Contains(texts[j-1], "{}")) {
					mark(j)
					j++
				}
				mark(j)
				i = j
			}
		}
	}
	return out
}

// dataCommands are the commands Data knows the data words of.
var dataCommands = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true,
	"ash": true, "yash": true, "eval": true, "echo": true, "printf": true, "grep": true, "egrep": true, "fgrep": true,
	"rgrep": true, "zgrep": true, "rg": true, "ag": true, "ack": true, "ack-grep": true, "sed": true, "gsed": true,
	"awk": true, "gawk": true, "mawk": true, "nawk": true, "jq": true, "gojq": true, "jaq": true, "yq": true,
	"git": true, "gh": true, "find": true}

// gitDataOptions are git's options whose value is a message or a pattern.
var gitDataOptions = map[string]bool{"message": true, "m": true, "grep": true, "author": true, "committer": true,
	"S": true, "G": true, "format": true, "pretty": true}

// SpeltWords is a git command as natural-language screening reads it: its
// spellings (Spellings) without the values of message and pattern options.
func (g *Git) SpeltWords() []string {
	var out []string
	data := false
	for _, w := range g.Spellings() {
		switch w.Role {
		case 'o':
			data = gitDataOptions[strings.TrimLeft(w.Text, "-")]
		case 'v':
			if data {
				continue
			}
		}
		out = append(out, w.Text)
	}
	return out
}

// gitData marks the words of a git clause that are messages or search
// patterns: -m/--message (commit, tag, merge, stash, notes …), log's
// --grep, --author, --committer, -S and -G, and git grep's pattern.
func gitData(c Clause, g *Git, out []bool) {
	msg := gitDataOptions
	switch strings.Fields(g.Sub + " x")[0] {
	case "commit", "tag", "merge", "stash", "notes", "log", "shortlog", "show", "whatchanged", "reflog", "revert", "cherry-pick", "am", "grep":
	default:
		return
	}
	start := 1
	for start < len(c.Argv) && c.Argv[start].Text != strings.Fields(g.Sub)[0] {
		start++
	}
	// find each option's word in order; its value is attached to it or
	// the next word
	cur := start + 1
	pattern := strings.HasPrefix(g.Sub, "grep")
	for _, o := range g.Options {
		at := cur
		for at < len(c.Argv) && c.Argv[at].Text != o.Word.Text {
			at++
		}
		if at == len(c.Argv) {
			continue
		}
		cur = at
		if o.Name == "e" || o.Name == "f" || o.Name == "file" {
			pattern = false // -e gives the pattern; -f reads it from a file
		}
		if !(msg[o.Name] || o.Name == "e" && strings.HasPrefix(g.Sub, "grep")) || !o.HasValue {
			continue
		}
		if strings.HasSuffix(o.Word.Text, o.Value) && len(o.Word.Text) > len(o.Value) && o.Value != "" {
			out[at] = true
		} else if at+1 < len(c.Argv) && c.Argv[at+1].Text == o.Value {
			out[at+1] = true
			cur = at + 1
		}
	}
	if pattern {
		for i := start + 1; i < len(c.Argv); i++ {
			t := c.Argv[i].Text
			if !strings.HasPrefix(t, "-") && !out[i] {
				out[i] = true
				break
			}
			if t == "--" {
				break
			}
		}
	}
}

// EchoesParams reports an operand of echo that only expands plain
// parameters and command substitutions (`echo "$HOME"`, `echo "$(git
// rev-parse HEAD)"`): what it prints is a read of the environment or the
// output of a clause judged on its own, not code, so it does not make the
// clause unreadable (docs/shell.md#data). The secrets screen still reads
// the names it expands. before are the words before it (the command
// first).
// A parameter whose name says it holds a secret (SecretVar) is not such a
// read: printing it is what the secrets screen stops.
func EchoesParams(before []Word, i int, w Word) bool {
	return i > 0 && (w.ParamsOnly || w.ValuesOnly) && len(before) > 0 && before[0].Literal && before[0].Text == "echo" &&
		!slices.ContainsFunc(w.Params, SecretVar)
}

// SecretVar reports an environment variable whose name says it holds a
// secret: GITHUB_TOKEN, ANTHROPIC_API_KEY, AWS_SECRET_ACCESS_KEY,
// DB_PASSWORD, NPM_AUTH_TOKEN ….
func SecretVar(name string) bool {
	u := strings.ToUpper(name)
	for _, k := range []string{"TOKEN", "SECRET", "PASSW", "_KEY", "APIKEY", "CREDENTIAL", "PRIVATE"} {
		if strings.Contains(u, k) {
			return true
		}
	}
	return false
}
