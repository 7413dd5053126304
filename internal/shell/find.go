package shell

import "strings"

// findStart returns the index where find's expression starts; before it
// are the leading options (-H -L -P -D x -Ox) and the start points.
func findStart(texts []string) (first, expr int) {
	i := 1
	for i < len(texts) {
		a := texts[i]
		switch {
		case a == "-H" || a == "-L" || a == "-P":
			i++
			continue
		case a == "-D":
			i += 2
			continue
		case strings.HasPrefix(a, "-O") && len(a) > 2:
			i++
			continue
		}
		break
	}
	first = i
	for i < len(texts) {
		a := texts[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == ")" || a == "," {
			break
		}
		i++
	}
	return first, i
}

// findReaders only read (or print) the paths they are given: find's
// -exec running one of them reads what find finds and nothing else
// (docs/shell.md#effects).
var findReaders = map[string]bool{"cat": true, "head": true, "tail": true, "wc": true, "grep": true, "egrep": true,
	"fgrep": true, "rg": true, "ls": true, "file": true, "stat": true, "du": true, "md5sum": true, "sha1sum": true,
	"sha256sum": true, "sha512sum": true, "echo": true, "printf": true, "basename": true, "dirname": true,
	"realpath": true, "readlink": true, "nl": true, "od": true, "xxd": true, "strings": true, "wc.exe": true}

// ReadsOnly reports a command that find -exec (or xargs) may run on the
// paths it produces and that only reads them.
func ReadsOnly(name string) bool { return findReaders[name] }

// findExec returns the end of the -exec command that starts at i+1: the
// index of its `;` or `+` (len(texts) when it has none).
func findExec(texts []string, i int) int {
	j := i + 1
	for j < len(texts) && texts[j] != ";" && !(texts[j] == "+" && j > i+1 && strings.Contains(texts[j-1], "{}")) {
		j++
	}
	return j
}

// find follows -exec, -execdir, -ok and -okdir: the command runs on paths
// find produces, so it is opaque — unless it only reads them (cat, grep,
// wc …), when it is a clause like any other reading `{}`.
func (w *walker) find(idx int, args []Word, texts []string) {
	_, expr := findStart(texts)
	for i := expr; i < len(texts); i++ {
		switch texts[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			via := "find " + texts[i]
			j := findExec(texts, i)
			if j > i+1 {
				why := "runs on the paths find produces"
				if args[i+1].Literal && ReadsOnly(texts[i+1]) {
					why = ""
				}
				w.inner(idx, args[i+1:j], via, nil, "", why)
			}
			i = j
		}
	}
}
