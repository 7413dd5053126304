package gate

import (
	"path"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/shell"
)

// secretWord reports an argument that names a secret or key file
// (docs/threat-model.md#natural-language-entries-and-tool-calls): as
// written (`@.env` for curl), as the path of a `rev:path` word (`git show
// HEAD:.env`), as an option's value (`--body-file=~/.ssh/id_rsa`), or as
// a glob that can match one (`cat .e*`, `cat ~/.s?h/config`).
func secretWord(w shell.Word) (string, bool) {
	t := strings.TrimLeft(w.Text, "@")
	cands := []string{}
	if !strings.HasPrefix(t, "-") {
		cands = append(cands, t)
	}
	if i := strings.LastIndexByte(t, ':'); i >= 0 && !strings.Contains(t, "://") {
		cands = append(cands, t[i+1:])
	}
	if _, v, ok := strings.Cut(t, "="); ok && strings.HasPrefix(t, "-") {
		cands = append(cands, strings.TrimLeft(v, "@"))
	}
	for _, c := range cands {
		// the file itself, or a folder of secrets (`ls ~/.ssh`)
		if c != "" && (isSecret(c) || !sourceExt[strings.ToLower(path.Ext(c))] && isSecret(strings.TrimSuffix(c, "/")+"/x")) {
			return c, true
		}
	}
	if w.Literal && w.Glob && w.Pattern != "" && secretGlob(w.Pattern) {
		return w.Text, true
	}
	for _, p := range w.Params {
		if secretVar(p) {
			return "$" + p, true
		}
	}
	return "", false
}

// secretVar reports an environment variable whose name says it holds a
// secret (shell.SecretVar).
func secretVar(name string) bool { return shell.SecretVar(name) }

// findSecret reports a find test whose pattern aims at a secret or key
// file (`find ~ -name 'id_*'`): what it finds is then printed, read or
// run on.
func findSecret(args []string) string {
	if len(args) == 0 || path.Base(args[0]) != "find" {
		return ""
	}
	for i := 1; i+1 < len(args); i++ {
		switch args[i] {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
			v := args[i+1]
			if isSecret(v) || strings.ContainsAny(v, "*?[") && secretGlob(v) {
				return v
			}
		}
	}
	return ""
}

// secretNames are the secret and key files' names as patterns (isSecret
// says the same in code), and secretDirs the folders that hold them.
var (
	secretNames = []string{".env", ".env." + string(starOne), ".netrc", ".npmrc", ".pypirc", "credentials",
		"id_rsa" + string(starOne), "id_ed25519" + string(starOne), "id_ecdsa" + string(starOne),
		string(starOne) + ".pem", string(starOne) + ".key", string(starOne) + ".p12", string(starOne) + ".pfx",
		string(starOne) + ".keystore", "environ"}
	secretDirs = []string{".ssh", ".aws", ".gnupg", ".kube", "secrets", "gh"}
)

// secretGlob reports a glob that aims at a secret or key file, by its
// last component or a folder on its way: it can match the name, and its
// fixed start (two characters at least) or its fixed end is one of the
// name's own (`.e*` and `id*` aim at .env and id_rsa, `*.pem` and `*m` at
// x.pem; `*` and `*.go` aim at nothing, although `id_rsa.go` would match).
func secretGlob(g string) bool {
	comps := strings.Split(path.Clean(g), "/")
	for i, c := range comps {
		if !strings.ContainsAny(c, "*?[") {
			continue
		}
		p := globPattern(c)
		list := secretDirs
		if i == len(comps)-1 {
			list = append(append([]string{}, secretNames...), secretDirs...)
		}
		for _, n := range list {
			if intersect(p, n) && aims(p, n) {
				return true
			}
		}
	}
	return false
}

// aims reports whether pattern p's fixed start or end is one of name
// pattern n's (one a prefix, or a suffix, of the other).
func aims(p, n string) bool {
	wild := func(r rune) bool { return r == starOne || r == starAll || r == anyOne }
	lead := func(s string) string {
		if i := strings.IndexFunc(s, wild); i >= 0 {
			return s[:i]
		}
		return s
	}
	trail := func(s string) string {
		if i := strings.LastIndexFunc(s, wild); i >= 0 {
			return s[i+1:]
		}
		return s
	}
	lp, ln := lead(p), lead(n)
	if len(lp) >= 2 && ln != "" && (strings.HasPrefix(lp, ln) || strings.HasPrefix(ln, lp)) {
		return true
	}
	tp, tn := trail(p), trail(n)
	return tp != "" && tn != "" && (strings.HasSuffix(tp, tn) || strings.HasSuffix(tn, tp))
}

// envDump names the environment when a clause prints all of it (`env`,
// `printenv`, `export -p`, `declare -x`, `set` with no arguments) or a
// variable whose name says it holds a secret (`printenv GITHUB_TOKEN`):
// tokens and keys live there. It returns "" otherwise.
func envDump(cl *shell.Clause) string {
	args := cl.Strings()
	if len(args) == 0 || !cl.Argv[0].Literal {
		return ""
	}
	ops := 0
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		ops++
		if secretVar(a) && args[0] == "printenv" {
			return "the environment (" + a + ")"
		}
	}
	switch args[0] {
	case "env", "printenv":
		if ops == 0 && len(cl.Via) == 0 {
			return "the environment"
		}
	case "export", "declare", "typeset":
		// `export`, `export -p`, `declare -x` list variables; `declare
		// -f|-F` lists only functions
		fn := false
		for _, a := range args[1:] {
			fn = fn || strings.HasPrefix(a, "-") && strings.ContainsAny(a, "fF")
		}
		if ops == 0 && !fn {
			return "the environment"
		}
	case "set":
		if len(args) == 1 {
			return "the environment"
		}
	}
	return ""
}
