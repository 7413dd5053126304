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

// find follows -exec, -execdir, -ok and -okdir: the command runs on paths
// find produces, so it is opaque.
func (w *walker) find(idx int, args []Word, texts []string) {
	_, expr := findStart(texts)
	for i := expr; i < len(texts); i++ {
		switch texts[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			via := "find " + texts[i]
			j := i + 1
			for j < len(texts) && texts[j] != ";" && !(texts[j] == "+" && j > i+1 && strings.Contains(texts[j-1], "{}")) {
				j++
			}
			if j > i+1 {
				w.inner(idx, args[i+1:j], via, nil, "", "runs on the paths find produces")
			}
			i = j
		}
	}
}
