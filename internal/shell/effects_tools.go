package shell

import (
	"path"
	"strings"
)

// Effects of archivers, transfer tools and other commands that write
// files they name themselves. See docs/shell.md#effects.

// tar -x writes the archive's members into -C DIR (or .): a vague write
// of the whole tree. tar -c writes the archive (-f).
func (e *effects) tar(args []Word, texts []string) {
	extract, create := false, false
	dir := Word{Text: ".", Literal: true, Parts: []string{"."}}
	var file *Word
	for i := 1; i < len(texts); i++ {
		t := texts[i]
		switch {
		case t == "-C" || t == "--directory":
			if i+1 < len(args) {
				dir = args[i+1]
				i++
			}
		case strings.HasPrefix(t, "--directory="):
			dir = withText(args[i], strings.TrimPrefix(t, "--directory="))
		case t == "--extract" || t == "--get":
			extract = true
		case t == "--create" || t == "--append" || t == "--update":
			create = true
		case t == "-f" || t == "--file":
			if i+1 < len(args) {
				w := args[i+1]
				file = &w
				i++
			}
		case strings.HasPrefix(t, "--file="):
			w := withText(args[i], strings.TrimPrefix(t, "--file="))
			file = &w
		case strings.HasPrefix(t, "--"):
		case strings.HasPrefix(t, "-") || i == 1:
			cl := strings.TrimPrefix(t, "-")
			if strings.ContainsAny(cl, "x") {
				extract = true
			}
			if strings.ContainsAny(cl, "cru") {
				create = true
			}
			if j := strings.IndexByte(cl, 'f'); j >= 0 {
				if j+1 < len(cl) && strings.HasPrefix(t, "-") {
					w := withText(args[i], cl[j+1:])
					file = &w
				} else if i+1 < len(args) {
					w := args[i+1]
					file = &w
					i++
				}
			}
			if strings.HasSuffix(cl, "C") && i+1 < len(args) {
				dir = args[i+1]
				i++
			}
		}
	}
	if extract || !create {
		e.tree("write", dir, "tar -x", true)
	}
	if create && file != nil {
		e.add("write", *file, "tar -c")
	}
}

func (e *effects) unzip(args []Word, texts []string) {
	dir := Word{Text: ".", Literal: true, Parts: []string{"."}}
	for i := 1; i < len(texts); i++ {
		if texts[i] == "-d" && i+1 < len(args) {
			dir = args[i+1]
			i++
		} else if strings.HasPrefix(texts[i], "-d") && len(texts[i]) > 2 {
			dir = withText(args[i], texts[i][2:])
		}
	}
	for _, t := range texts[1:] {
		if t == "-l" || t == "-t" || t == "-v" || t == "-Z" || t == "-p" {
			return
		}
	}
	e.tree("write", dir, "unzip", true)
}

// vagueDot: a command that writes files it names itself in the directory.
func (e *effects) vagueDot(args []Word, texts []string) {
	e.tree("write", Word{Text: ".", Literal: true, Parts: []string{"."}}, baseName(texts[0]), true)
}

// rsync: the last operand is the destination, written as a tree.
func (e *effects) rsync(args []Word, texts []string) {
	idx, s := operands(texts, optSpec{argShort: "eBfMT", argLong: []string{"rsh", "rsync-path", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "temp-dir", "partial-dir", "backup-dir", "suffix", "chmod", "chown", "compare-dest", "copy-dest", "link-dest", "log-file", "password-file", "max-size", "min-size", "timeout", "bwlimit", "port", "out-format", "info", "debug", "remote-option", "block-size", "checksum-choice", "compress-choice", "usermap", "groupmap", "modify-window", "max-delete", "iconv", "sockopts", "outbuf", "stop-after", "stop-at"}})
	_ = s
	if len(idx) == 0 {
		return
	}
	dst := args[idx[len(idx)-1]]
	if strings.Contains(dst.Text, ":") && !strings.HasPrefix(dst.Text, "/") && !strings.HasPrefix(dst.Text, ".") {
		return // remote destination
	}
	e.tree("write", dst, "rsync", true)
	for _, i := range idx[:len(idx)-1] {
		for _, x := range args[i].expand() {
			f := e.add("write", intoDir(dst, x), "rsync")
			f.Tree = true
		}
	}
}

func (e *effects) scp(args []Word, texts []string) {
	idx, _ := operands(texts, optSpec{argShort: "cFiJloPSDX", flags: "346ABCOpqRrsTv"})
	if len(idx) == 0 {
		return
	}
	dst := args[idx[len(idx)-1]]
	if strings.Contains(dst.Text, ":") && !strings.HasPrefix(dst.Text, "/") && !strings.HasPrefix(dst.Text, ".") {
		for _, i := range idx[:len(idx)-1] {
			e.addAll("read", args[i:i+1], "scp")
		}
		return
	}
	e.tree("write", dst, "scp", true)
}

// patch writes the files its patch names (vague), under -d DIR, or the
// file operand.
func (e *effects) patch(args []Word, texts []string) {
	dir := Word{Text: ".", Literal: true, Parts: []string{"."}}
	idx, s := operands(texts, optSpec{argShort: "BdDFgiopQrVYzo", flags: "bcfeElnNRstuZ", argLong: []string{"directory", "input", "output", "strip", "reject-file", "prefix", "suffix", "basename-prefix", "ifdef", "fuzz", "get", "version-control", "quoting-style", "reject-format", "read-only"}})
	for _, d := range s.values("-d", "--directory") {
		dir = withText(dir, d)
	}
	for _, o := range s.values("-o", "--output") {
		e.add("write", withText(dir, o), "patch -o")
	}
	if len(idx) > 0 {
		e.addAll("write", args[idx[0]:idx[0]+1], "patch")
	}
	e.tree("write", dir, "patch", true)
}

func (e *effects) find(args []Word, texts []string) {
	first, expr := findStart(texts)
	starts := args[first:expr]
	if len(starts) == 0 {
		starts = []Word{{Text: ".", Literal: true, Parts: []string{"."}}}
	}
	for i := expr; i < len(texts); i++ {
		switch texts[i] {
		case "-delete":
			for _, s := range starts {
				e.tree("delete", s, "find -delete", true)
			}
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(args) {
				e.addAll("write", args[i+1:i+2], "find "+texts[i])
				i++
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			// what the command does to the paths find produces: a reader
			// reads them; anything else may write any of them
			j := findExec(texts, i)
			if j > i+1 && args[i+1].Literal && ReadsOnly(texts[i+1]) {
				for _, s := range starts {
					e.tree("read", s, "find "+texts[i]+" "+texts[i+1], false)
				}
			} else {
				for _, s := range starts {
					e.tree("write", s, "find "+texts[i], true)
				}
			}
			i = j
		}
	}
}

func (e *effects) curl(args []Word, texts []string) {
	for i := 1; i < len(texts); i++ {
		t := texts[i]
		switch {
		case t == "-o" || t == "--output" || t == "-c" || t == "--cookie-jar" || t == "-D" || t == "--dump-header" || t == "--trace" || t == "--trace-ascii" || t == "--stderr" || t == "--output-dir" || t == "--etag-save" || t == "--hsts" || t == "--alt-svc":
			if i+1 < len(args) {
				e.addAll("write", args[i+1:i+2], "curl "+t)
				i++
			}
		case t == "-O" || t == "--remote-name" || t == "-J" || t == "--remote-name-all":
			e.tree("write", Word{Text: ".", Literal: true, Parts: []string{"."}}, "curl "+t, true)
		case t == "-T" || t == "--upload-file" || t == "-K" || t == "--config" || t == "--netrc-file":
			if i+1 < len(args) {
				e.addAll("read", args[i+1:i+2], "curl "+t)
				i++
			}
		case t == "-d" || t == "--data" || t == "--data-binary" || t == "--data-raw" || t == "--data-urlencode" || t == "-F" || t == "--form" || t == "--json":
			if i+1 < len(args) {
				v := texts[i+1]
				if j := strings.IndexByte(v, '@'); j >= 0 && t != "--data-raw" {
					f := strings.TrimPrefix(v[j:], "@")
					if k := strings.IndexByte(f, ';'); k >= 0 {
						f = f[:k]
					}
					e.add("read", withText(args[i+1], f), "curl "+t)
				}
				i++
			}
		case strings.HasPrefix(t, "-") && len(t) > 2 && !strings.HasPrefix(t, "--"):
			// A cluster of short options (`-sSLo F`, `-oF`, `-sSLoF`): the
			// first option that takes an argument ends it.
			for j := 1; j < len(t); j++ {
				c := t[j]
				if strings.IndexByte(curlArgShort, c) < 0 {
					continue
				}
				if strings.IndexByte("ocD", c) >= 0 {
					if rest := t[j+1:]; rest != "" {
						e.add("write", withText(args[i], rest), "curl -"+string(c))
					} else if i+1 < len(args) {
						e.addAll("write", args[i+1:i+2], "curl -"+string(c))
						i++
					}
				} else if j+1 == len(t) {
					i++ // its argument is the next word
				}
				break
			}
		}
	}
}

// curlArgShort are curl's short options that take an argument.
const curlArgShort = "AbcCdDeEFHKmoPQrTuUwxXYyzt"

func (e *effects) wget(args []Word, texts []string) {
	wrote := false
	for i := 1; i < len(texts); i++ {
		t := texts[i]
		switch {
		case t == "-O" || t == "--output-document" || t == "-o" || t == "--output-file" || t == "-a" || t == "--append-output":
			if i+1 < len(args) {
				e.addAll("write", args[i+1:i+2], "wget "+t)
				i++
				wrote = wrote || t == "-O" || t == "--output-document"
			}
		case t == "-P" || t == "--directory-prefix":
			if i+1 < len(args) {
				e.tree("write", args[i+1], "wget "+t, true)
				i++
				wrote = true
			}
		case strings.HasPrefix(t, "--output-document="):
			e.add("write", withText(args[i], strings.TrimPrefix(t, "--output-document=")), "wget -O")
			wrote = true
		case strings.HasPrefix(t, "-O") && len(t) > 2:
			e.add("write", withText(args[i], t[2:]), "wget -O")
			wrote = true
		}
	}
	if !wrote {
		e.tree("write", Word{Text: ".", Literal: true, Parts: []string{"."}}, "wget", true)
	}
}

func (e *effects) flock(args []Word, texts []string) {
	s := scanOpts(texts, 1, optSpec{argShort: "wEc", flags: "sxenuoFvh", argLong: []string{"timeout", "wait", "conflict-exit-code", "command"}})
	if s.rest < len(args) {
		t := texts[s.rest]
		if strings.Trim(t, "0123456789") != "" {
			e.add("write", args[s.rest], "flock")
		}
	}
}

func (e *effects) sudoedit(args []Word, texts []string) {
	s := scanOpts(texts, 1, optSpec{argShort: "aCcDgpRrTtUu", flags: "ABbEeHiKklNnPSsVv", argLong: []string{"user", "group", "prompt", "chdir", "chroot", "close-from", "host", "login-class", "role", "type", "command-timeout", "other-user"}})
	if s.has("-e", "--edit") {
		for i := s.rest; i < len(args); i++ {
			e.addAll("write", args[i:i+1], "sudoedit")
		}
	}
}

func (e *effects) compress(args []Word, texts []string) {
	idx, s := operands(texts, optSpec{argShort: "S", flags: "cdfhklLnNqrtvV123456789", argLong: []string{"suffix"}})
	if s.has("-c", "--stdout", "-t", "--test", "-l", "--list") {
		return
	}
	for _, i := range idx {
		e.addAll("write", args[i:i+1], baseName(texts[0]))
		e.add("write", withText(args[i], args[i].Text+".*"), baseName(texts[0]))
	}
}

func (e *effects) mknod(args []Word, texts []string) {
	idx, _ := operands(texts, optSpec{argShort: "m", argLong: []string{"mode"}})
	if len(idx) > 0 {
		e.addAll("write", args[idx[0]:idx[0]+1], "mknod")
	}
}

// awk -i inplace (gawk's inplace extension) rewrites its input files.
func (e *effects) awk(args []Word, texts []string) {
	inplace, prog := false, false
	var files []int
	for i := 1; i < len(texts); i++ {
		t := texts[i]
		switch {
		case t == "-i" || t == "--include":
			if i+1 < len(texts) && strings.TrimSuffix(texts[i+1], ".awk") == "inplace" {
				inplace = true
			}
			i++
		case t == "-iinplace" || t == "--include=inplace" || t == "-iinplace.awk":
			inplace = true
		case t == "-f" || t == "--file" || t == "-v" || t == "--assign" || t == "-F" || t == "--field-separator" || t == "-E" || t == "--exec":
			if t == "-f" || t == "--file" || t == "-E" || t == "--exec" {
				prog = true
			}
			i++
		case strings.HasPrefix(t, "-") && t != "-":
		case !prog:
			prog = true
		default:
			files = append(files, i)
		}
	}
	if inplace {
		for _, i := range files {
			if !strings.Contains(texts[i], "=") {
				e.addAll("write", args[i:i+1], "awk -i inplace")
			}
		}
	}
}

// zip writes its archive (the first operand).
func (e *effects) zip(args []Word, texts []string) {
	idx, _ := operands(texts, optSpec{argShort: "bntx", flags: "0123456789ADFJLRSTXdefgjlmoqruvyz@", argLong: []string{"temp-path", "suffixes", "exclude", "include"}})
	if len(idx) > 0 {
		e.addAll("write", args[idx[0]:idx[0]+1], "zip")
	}
}

// formatters rewrite the files they are given when told to: gofmt -w,
// prettier --write, black, clang-format -i …. A file operand (a name with
// an extension) is written; for a directory, the files of the tool's
// languages under it are (dir/**/*.py as a glob): prettier --write .
// reaches Markdown and JSON anywhere, black . only Python. --check,
// --diff and the like only report.
func formatter(exts string, flags ...string) effectFunc {
	return func(e *effects, args []Word, texts []string) {
		on := len(flags) == 0
		for _, t := range texts[1:] {
			switch t {
			case "--check", "--check-only", "--diff", "-d", "-l", "--list-different", "--dry-run":
				return
			}
			for _, f := range flags {
				if t == f || strings.HasPrefix(t, f+"=") {
					on = true
				}
			}
		}
		if !on {
			return
		}
		idx, _ := operands(texts, optSpec{})
		if len(idx) == 0 && baseName(texts[0]) != "gofmt" && baseName(texts[0]) != "goimports" {
			e.languageFiles(Word{Text: ".", Literal: true, Parts: []string{"."}}, exts, baseName(texts[0]))
		}
		for _, i := range idx {
			for _, x := range args[i].expand() {
				if ext := path.Ext(x.Text); ext != "" && ext != "." && !strings.HasSuffix(x.Text, "/") && path.Base(x.Text) != ".." {
					e.add("write", x, baseName(texts[0]))
					continue
				}
				e.languageFiles(x, exts, baseName(texts[0]))
			}
		}
	}
}

// languageFiles adds a write of the glob dir/**/*.ext for each extension
// (the glob names the files exactly; it is not vague). A formatter of Go,
// Python, Rust or Terraform (exts "") lists no directory: the protected
// places (the project directory, git's hooks and config, agent and hook
// manager settings) hold no files of those languages.
func (e *effects) languageFiles(dir Word, exts, via string) {
	if exts == "" {
		return
	}
	if !dir.Literal {
		f := e.add("write", dir, via)
		f.Tree, f.Vague = true, true
		return
	}
	base := strings.TrimRight(dir.Text, "/")
	for _, ext := range strings.Fields(exts) {
		g := base + "/**/*." + ext
		if base == "." || base == "" {
			g = "**/*." + ext
		}
		w := withText(dir, g)
		w.Glob = true
		e.add("write", w, via)
	}
}

// outputOperand: the n-th operand (from 0) is written (uniq IN OUT,
// xxd -r IN OUT).
func outputOperand(n int) effectFunc {
	return func(e *effects, args []Word, texts []string) {
		idx, _ := operands(texts, optSpec{})
		if len(idx) > n {
			e.addAll("write", args[idx[n]:idx[n]+1], baseName(texts[0]))
		}
	}
}
