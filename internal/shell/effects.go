package shell

import (
	"path"
	"strings"
)

// Effects returns the paths the clause writes, deletes, links, chmods or
// reads, joined to the clause's directory but otherwise as written. Unknown
// options never make a path disappear: when unsure, operands count as
// written. See docs/shell.md#effects.
func (c Clause) Effects() []Effect {
	e := effects{c: c}
	e.redirs()
	args := c.Expanded()
	if len(args) > 0 && args[0].Literal {
		texts := make([]string, len(args))
		for i, a := range args {
			texts[i] = a.Text
		}
		name := baseName(texts[0])
		if f, ok := effectTable[name]; ok {
			f(&e, args, texts)
		} else if strings.HasPrefix(name, "python") || name == "perl" {
			e.interp(name, args, texts)
		}
	}
	return e.out
}

type effects struct {
	c   Clause
	out []Effect
}

func (e *effects) add(kind string, w Word, via string) *Effect {
	w = e.join(w)
	e.out = append(e.out, Effect{Kind: kind, Path: w, Via: via})
	return &e.out[len(e.out)-1]
}

// addAll adds an effect per word, one per brace expansion.
func (e *effects) addAll(kind string, ws []Word, via string) {
	for _, w := range ws {
		for _, x := range w.expand() {
			e.add(kind, x, via)
		}
	}
}

func (e *effects) tree(kind string, w Word, via string, vague bool) {
	for _, x := range w.expand() {
		f := e.add(kind, x, via)
		f.Tree, f.Vague = true, vague
	}
}

// join puts a relative path under the clause's directory.
func (e *effects) join(w Word) Word {
	dir := e.c.Dir
	if dir == "" || strings.HasPrefix(w.Text, "/") || w.Tilde {
		return w
	}
	w.Text = joinDir(dir, w.Text)
	if w.Pattern != "" {
		w.Pattern = joinDir(dir, w.Pattern)
	}
	if strings.HasPrefix(dir, "~") {
		w.Tilde = true
	}
	return w
}

func (e *effects) redirs() {
	for _, r := range e.c.Redirs {
		switch r.Op {
		case ">", ">>", ">|", "&>", "&>>", "<>":
			if r.Target.Text == "/dev/null" || isFdTarget(r) {
				continue
			}
			e.add("write", r.Target, r.Op)
		case "<":
			e.add("read", r.Target, r.Op)
		case ">&":
			if !isFdTarget(r) {
				e.add("write", r.Target, r.Op)
			}
		}
	}
}

func isFdTarget(r Redir) bool {
	t := r.Target.Text
	if t == "-" {
		return true
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return t != ""
}

type effectFunc func(e *effects, args []Word, texts []string)

var effectTable map[string]effectFunc

func init() {
	effectTable = map[string]effectFunc{
		"tee":      opsAll("write", optSpec{flags: "aip", flagLong: []string{"append", "ignore-interrupts", "output-error"}}),
		"rm":       (*effects).rm,
		"unlink":   opsAll("delete", optSpec{}),
		"shred":    opsAll("delete", optSpec{argShort: "ns", flags: "fuvxz", argLong: []string{"iterations", "size", "random-source"}, flagLong: []string{"force", "remove", "verbose", "exact", "zero"}}),
		"rmdir":    opsAll("delete", optSpec{flags: "pv", flagLong: []string{"parents", "verbose", "ignore-fail-on-non-empty"}}),
		"touch":    (*effects).touch,
		"mkdir":    opsAll("write", optSpec{argShort: "mZ", flags: "pv", argLong: []string{"mode", "context"}, flagLong: []string{"parents", "verbose"}}),
		"truncate": (*effects).truncate,
		"chmod":    chmodLike("chmod"),
		"chown":    chmodLike("chmod"),
		"chgrp":    chmodLike("chmod"),
		"chattr":   chmodLike("chmod"),
		"setfacl":  (*effects).setfacl,
		"cp":       copyLike("cp"),
		"mv":       copyLike("mv"),
		"install":  copyLike("install"),
		"ln":       (*effects).ln,
		"link":     (*effects).link,
		"dd":       (*effects).dd,
		"sed":      (*effects).sed,
		"gsed":     (*effects).sed,
		"perl":     (*effects).perl,
		"tar":      (*effects).tar,
		"bsdtar":   (*effects).tar,
		"unzip":    (*effects).unzip,
		"7z":       (*effects).vagueDot,
		"cpio":     (*effects).vagueDot,
		"rsync":    (*effects).rsync,
		"scp":      (*effects).scp,
		"patch":    (*effects).patch,
		"git":      (*effects).git,
		"find":     (*effects).find,
		"curl":     (*effects).curl,
		"wget":     (*effects).wget,
		"sort":     optOutputs("o", "output"),
		"uniq":     (*effects).uniq,
		"time":     optOutputs("o", "output"),
		"strace":   optOutputs("o", "output"),
		"flock":    (*effects).flock,
		"sudo":     (*effects).sudoedit,
		"sudoedit": opsAll("write", optSpec{}),
		"split":    (*effects).vagueDot,
		"csplit":   (*effects).vagueDot,
		"gzip":     (*effects).compress,
		"gunzip":   (*effects).compress,
		"bzip2":    (*effects).compress,
		"xz":       (*effects).compress,
		"zstd":     (*effects).compress,
		"cat":      opsAll("read", optSpec{flags: "AbeEnstTuv"}),
		"head":     opsAll("read", optSpec{argShort: "cn", flags: "qvz"}),
		"tail":     opsAll("read", optSpec{argShort: "cns", flags: "fFqvz", argLong: []string{"bytes", "lines", "pid", "sleep-interval", "max-unchanged-stats"}}),
		"less":     opsAll("read", optSpec{}),
		"more":     opsAll("read", optSpec{}),
		"source":   opsAll("read", optSpec{}),
		".":        opsAll("read", optSpec{}),
		"base64":   opsAll("read", optSpec{argShort: "w", flags: "di"}),
		"xxd":      opsAll("read", optSpec{}),
		"od":       opsAll("read", optSpec{}),
		"strings":  opsAll("read", optSpec{}),
		"nl":       opsAll("read", optSpec{}),
		"bat":      opsAll("read", optSpec{}),
		"vi":       opsAll("write", optSpec{}),
		"vim":      opsAll("write", optSpec{}),
		"nvim":     opsAll("write", optSpec{}),
		"nano":     opsAll("write", optSpec{}),
		"emacs":    opsAll("write", optSpec{}),
		"ed":       opsAll("write", optSpec{}),
	}
}

// uniq [OPTION]... [INPUT [OUTPUT]]: the second operand is written.
func (e *effects) uniq(args []Word, texts []string) {
	idx, _ := operands(texts, optSpec{argShort: "fsw", flags: "cdDiuz", argLong: []string{"skip-fields", "skip-chars", "check-chars", "all-repeated", "group"},
		flagLong: []string{"count", "repeated", "ignore-case", "unique", "zero-terminated"}})
	if len(idx) >= 2 {
		e.addAll("write", args[idx[1]:idx[1]+1], "uniq")
	}
}

// opsAll: every operand has the effect.
func opsAll(kind string, spec optSpec) effectFunc {
	return func(e *effects, args []Word, texts []string) {
		idx, _ := operands(texts, spec)
		for _, i := range idx {
			e.addAll(kind, args[i:i+1], texts[0])
		}
	}
}

// optOutputs: the file named by an output option is written.
func optOutputs(short, long string) effectFunc {
	return func(e *effects, args []Word, texts []string) {
		for i := 1; i < len(texts); i++ {
			t := texts[i]
			switch {
			case t == "-"+short || t == "--"+long:
				if i+1 < len(args) {
					e.addAll("write", args[i+1:i+2], texts[0]+" "+t)
					i++
				}
			case strings.HasPrefix(t, "--") && len(t) > 2:
				// An abbreviation getopt_long accepts (`sort --out=F`);
				// read as the output option even when ambiguous.
				name, val, eq := strings.Cut(t[2:], "=")
				if !strings.HasPrefix(long, name) {
					continue
				}
				if eq {
					e.add("write", withText(args[i], val), texts[0]+" --"+long)
				} else if i+1 < len(args) {
					e.addAll("write", args[i+1:i+2], texts[0]+" --"+long)
					i++
				}
			case len(short) == 1 && strings.HasPrefix(t, "-") && len(t) > 2:
				// A cluster (`sort -uo F`, `sort -uoF`).
				j := strings.Index(t[1:], short)
				if j < 0 {
					continue
				}
				if rest := t[j+2:]; rest != "" {
					e.add("write", withText(args[i], rest), texts[0]+" -"+short)
				} else if i+1 < len(args) {
					e.addAll("write", args[i+1:i+2], texts[0]+" -"+short)
					i++
				}
			}
		}
	}
}

func withText(w Word, t string) Word {
	w.Text = t
	w.Pattern = t
	w.Parts = []string{t}
	w.Braces, w.alts = nil, nil
	return w
}

func (e *effects) rm(args []Word, texts []string) {
	idx, s := operands(texts, optSpec{flags: "dfirRvI", flagLong: []string{"force", "interactive", "one-file-system", "no-preserve-root", "preserve-root", "recursive", "dir", "verbose"}})
	rec := s.has("-r", "-R", "--recursive")
	for _, i := range idx {
		for _, x := range args[i].expand() {
			f := e.add("delete", x, "rm")
			f.Tree = rec
		}
	}
}

func (e *effects) touch(args []Word, texts []string) {
	idx, _ := operands(texts, optSpec{argShort: "drt", flags: "acfhm", argLong: []string{"date", "reference", "time"}, flagLong: []string{"no-create", "no-dereference"}})
	for _, i := range idx {
		e.addAll("write", args[i:i+1], "touch")
	}
}

func (e *effects) truncate(args []Word, texts []string) {
	idx, _ := operands(texts, optSpec{argShort: "rs", flags: "coh", argLong: []string{"reference", "size"}, flagLong: []string{"no-create", "io-blocks"}})
	for _, i := range idx {
		e.addAll("write", args[i:i+1], "truncate")
	}
}

// chmodLike: the first operand is the mode/owner unless --reference is
// given; the rest are changed.
func chmodLike(kind string) effectFunc {
	return func(e *effects, args []Word, texts []string) {
		idx, s := operands(texts, optSpec{flags: "cfvRHLPh", argLong: []string{"reference", "from"}, flagLong: []string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "recursive", "dereference", "no-dereference"}})
		// chmod -x / -w are modes, not options: GNU chmod takes them as such.
		if texts[0] == "chmod" || texts[0] == "chattr" || baseName(texts[0]) == "chmod" || baseName(texts[0]) == "chattr" {
			idx = nil
			for i := 1; i < len(texts); i++ {
				t := texts[i]
				if strings.HasPrefix(t, "--") || (strings.HasPrefix(t, "-") && strings.Trim(t[1:], "cfvRHLP") == "") {
					if strings.HasPrefix(t, "--reference") && !strings.Contains(t, "=") {
						i++
					}
					continue
				}
				idx = append(idx, i)
			}
		}
		if !s.has("--reference") && len(idx) > 0 {
			idx = idx[1:]
		}
		rec := s.has("-R", "--recursive")
		for _, i := range idx {
			for _, x := range args[i].expand() {
				f := e.add(kind, x, baseName(texts[0]))
				f.Tree = rec
			}
		}
	}
}

func (e *effects) setfacl(args []Word, texts []string) {
	idx, _ := operands(texts, optSpec{argShort: "mMxX", flags: "bkndRLPvt", argLong: []string{"modify", "modify-file", "remove", "remove-file", "set", "set-file"}})
	for _, i := range idx {
		e.addAll("chmod", args[i:i+1], "setfacl")
	}
}

var copySpec = map[string]optSpec{
	"cp": {argShort: "St", flags: "abdfHilLnPpRrsTuvxZ", argLong: []string{"suffix", "target-directory", "backup", "preserve", "no-preserve", "reflink", "sparse", "context", "update"},
		flagLong: []string{"archive", "attributes-only", "copy-contents", "dereference", "force", "interactive", "link", "no-clobber", "no-dereference", "parents", "recursive", "remove-destination", "strip-trailing-slashes", "symbolic-link", "no-target-directory", "one-file-system", "verbose", "debug"}},
	"mv": {argShort: "St", flags: "bfinTuvZ", argLong: []string{"suffix", "target-directory", "backup", "update"},
		flagLong: []string{"force", "interactive", "no-clobber", "no-target-directory", "strip-trailing-slashes", "verbose", "exchange", "no-copy", "context", "debug"}},
	"install": {argShort: "gmoStT", flags: "bcCdDpsvZ", argLong: []string{"group", "mode", "owner", "suffix", "target-directory", "strip-program", "backup", "context"},
		flagLong: []string{"compare", "directory", "preserve-timestamps", "strip", "no-target-directory", "verbose", "debug", "preserve-context"}},
}

// copyLike: cp, mv, install. The destination is written; when it may be a
// directory, so is destination/basename(source) for each source (the
// whole tree for a recursive copy or a move).
func copyLike(name string) effectFunc {
	return func(e *effects, args []Word, texts []string) {
		spec := copySpec[name]
		idx, s := operands(texts, spec)
		rec := name == "mv" || s.has("-r", "-R", "-a", "--recursive", "--archive")
		if name == "install" && s.has("-d", "--directory") {
			for _, i := range idx {
				e.addAll("write", args[i:i+1], name)
			}
			return
		}
		targets := s.values("-t", "--target-directory")
		var srcs []Word
		var dst *Word
		if len(targets) > 0 {
			for _, i := range idx {
				srcs = append(srcs, args[i])
			}
			w := wordFor(args, texts, targets[len(targets)-1])
			dst = &w
		} else if len(idx) > 0 {
			for _, i := range idx[:len(idx)-1] {
				srcs = append(srcs, args[i])
			}
			dst = &args[idx[len(idx)-1]]
		}
		if dst == nil {
			return
		}
		for _, x := range dst.expand() {
			f := e.add("write", x, name)
			f.Tree = rec
			for _, src := range srcs {
				for _, sx := range src.expand() {
					f := e.add("write", intoDir(x, sx), name)
					f.Tree = rec
				}
			}
		}
		for _, src := range srcs {
			kind := "read"
			if name == "mv" {
				kind = "delete"
			}
			for _, sx := range src.expand() {
				f := e.add(kind, sx, name)
				f.Tree = rec
			}
		}
	}
}

// intoDir is dir/basename(src), as a word.
func intoDir(dir, src Word) Word {
	b := path.Base(strings.TrimRight(src.Text, "/"))
	w := dir
	w.Text = strings.TrimRight(dir.Text, "/") + "/" + b
	if dir.Text == "" {
		w.Text = b
	}
	w.Literal = dir.Literal && src.Literal
	w.Glob = dir.Glob || src.Glob
	if w.Glob {
		w.Pattern = strings.TrimRight(dir.Pattern+"", "/")
		if w.Pattern == "" {
			w.Pattern = strings.TrimRight(dir.Text, "/")
		}
		w.Pattern += "/" + path.Base(strings.TrimRight(src.Pattern+src.Text[:0], "/"))
		if src.Pattern == "" {
			w.Pattern = strings.TrimRight(dir.Text, "/") + "/" + b
		}
	}
	w.Parts = append(append([]string{}, dir.Parts...), src.Parts...)
	w.Braces, w.alts = nil, nil
	return w
}

var lnSpec = optSpec{argShort: "St", flags: "bdfFiLnPrsTv", argLong: []string{"suffix", "target-directory", "backup"},
	flagLong: []string{"directory", "force", "interactive", "logical", "no-dereference", "physical", "relative", "symbolic", "no-target-directory", "verbose"}}

// ln: the link path is written (a link to a protected place is a write to
// it: the gate resolves LinkTarget).
func (e *effects) ln(args []Word, texts []string) {
	idx, s := operands(texts, lnSpec)
	targets := s.values("-t", "--target-directory")
	var srcs []Word
	var dst *Word
	switch {
	case len(targets) > 0:
		for _, i := range idx {
			srcs = append(srcs, args[i])
		}
		w := wordFor(args, texts, targets[len(targets)-1])
		dst = &w
	case len(idx) == 1:
		srcs = []Word{args[idx[0]]}
		w := Word{Text: path.Base(args[idx[0]].Text), Literal: args[idx[0]].Literal, Parts: []string{path.Base(args[idx[0]].Text)}}
		dst = &w
	case len(idx) > 1:
		for _, i := range idx[:len(idx)-1] {
			srcs = append(srcs, args[i])
		}
		dst = &args[idx[len(idx)-1]]
	default:
		return
	}
	for _, x := range dst.expand() {
		for _, src := range srcs {
			for _, sx := range src.expand() {
				t := sx
				f := e.add("link", x, "ln")
				f.LinkTarget = &t
				t2 := sx
				g := e.add("link", intoDir(x, sx), "ln")
				g.LinkTarget = &t2
			}
		}
	}
}

func (e *effects) link(args []Word, texts []string) {
	if len(args) == 3 {
		t := args[1]
		f := e.add("link", args[2], "link")
		f.LinkTarget = &t
	}
}

func (e *effects) dd(args []Word, texts []string) {
	for i, t := range texts[1:] {
		if v, ok := strings.CutPrefix(t, "of="); ok {
			e.add("write", withText(args[i+1], v), "dd of=")
		}
		if v, ok := strings.CutPrefix(t, "if="); ok {
			e.add("read", withText(args[i+1], v), "dd if=")
		}
	}
}

// sed -i edits its files in place (-i, -iSUFFIX, --in-place[=SUFFIX], and
// -i inside a cluster like -ni). Without -e/-f the first operand is the
// script.
func (e *effects) sed(args []Word, texts []string) {
	inPlace, script := false, false
	var files []int
	for i := 1; i < len(texts); i++ {
		t := texts[i]
		switch {
		case t == "--":
			for j := i + 1; j < len(texts); j++ {
				files = append(files, j)
			}
			i = len(texts)
		case len(t) >= 3 && strings.HasPrefix("in-place", strings.SplitN(t[2:], "=", 2)[0]) && strings.HasPrefix(t, "--i"):
			inPlace = true // --in-place, and any abbreviation of it (--in-pl)
		case t == "--expression" || t == "--file" || t == "-e" || t == "-f" || t == "-l" || t == "--line-length":
			if t != "-l" && t != "--line-length" {
				script = true
			}
			i++
		case strings.HasPrefix(t, "--expression=") || strings.HasPrefix(t, "--file="):
			script = true
		case strings.HasPrefix(t, "--"):
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				c := t[j]
				if c == 'i' {
					inPlace = true
					break // the rest is the suffix
				}
				if c == 'e' || c == 'f' || c == 'l' {
					if c != 'l' {
						script = true
					}
					if j+1 == len(t) {
						i++
					}
					break
				}
			}
		default:
			files = append(files, i)
		}
	}
	if !script && len(files) > 0 {
		files = files[1:]
	}
	kind := "read"
	if inPlace {
		kind = "write"
	}
	for _, i := range files {
		e.addAll(kind, args[i:i+1], "sed -i")
	}
}

// perl -i edits its files in place; interp records -i for python-less
// interpreters.
func (e *effects) perl(args []Word, texts []string) {
	inPlace, code := false, false
	var files []int
	for i := 1; i < len(texts); i++ {
		t := texts[i]
		switch {
		case t == "--":
			for j := i + 1; j < len(texts); j++ {
				files = append(files, j)
			}
			i = len(texts)
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				c := t[j]
				if c == 'i' {
					inPlace = true
					break
				}
				if c == 'e' || c == 'E' {
					code = true
					if j+1 == len(t) {
						i++
					}
					break
				}
				if strings.IndexByte("IMmlx0CdDV", c) >= 0 {
					break // rest of the cluster is the value
				}
			}
		default:
			files = append(files, i)
		}
	}
	if !code && len(files) > 0 {
		files = files[1:] // the script file
	}
	if inPlace {
		for _, i := range files {
			e.addAll("write", args[i:i+1], "perl -i")
		}
	}
}

func (e *effects) interp(name string, args []Word, texts []string) {}

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
			for _, s := range starts {
				e.tree("write", s, "find "+texts[i], true)
			}
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
			// A cluster of short options (`-sSLo F`, `-o F`, `-sSLoF`): the
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
