package shell

import (
	"path"
	"strings"
	"sync"
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
		if f, ok := effectTable()[name]; ok {
			f(&e, args, texts)
		}
		e.searches(name, args, texts)
		e.fromInput(name)
	}
	return e.out
}

// fromInput: a command run by xargs or parallel gets more operands from
// input; when it writes, it may write anything under the directory.
func (e *effects) fromInput(name string) {
	if len(e.c.Via) == 0 {
		return
	}
	switch e.c.Via[len(e.c.Via)-1] {
	case "xargs", "parallel":
	default:
		return
	}
	kind := ""
	switch name {
	case "rm", "unlink", "shred", "rmdir":
		kind = "delete"
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		kind = "chmod"
	case "ln", "link":
		kind = "link"
	case "cat", "head", "tail", "less", "more", "base64", "xxd", "od", "strings", "nl", "bat", "source", ".":
		kind = "read"
	default:
		if _, ok := effectTable()[name]; !ok {
			return
		}
		kind = "write"
	}
	e.tree(kind, Word{Text: ".", Literal: true, Parts: []string{"."}}, e.c.Via[len(e.c.Via)-1]+" "+name, true)
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

// effectTable maps a command name to the paths it reads, writes or
// deletes. It is built on first use, not at start-up: a process that never
// reads a shell command does not pay for it (docs/threat-model.md#cost).
func effectTable() map[string]effectFunc { return effectTableLazy.get(buildEffectTable) }

var effectTableLazy lazyTable[effectFunc]

func buildEffectTable() map[string]effectFunc {
	return map[string]effectFunc{
		"tee":          opsAll("write", optSpec{flags: "aip", flagLong: []string{"append", "ignore-interrupts", "output-error"}}),
		"rm":           (*effects).rm,
		"unlink":       opsAll("delete", optSpec{}),
		"shred":        opsAll("delete", optSpec{argShort: "ns", flags: "fuvxz", argLong: []string{"iterations", "size", "random-source"}, flagLong: []string{"force", "remove", "verbose", "exact", "zero"}}),
		"rmdir":        opsAll("delete", optSpec{flags: "pv", flagLong: []string{"parents", "verbose", "ignore-fail-on-non-empty"}}),
		"touch":        (*effects).touch,
		"mkdir":        (*effects).mkdir,
		"zip":          (*effects).zip,
		"uniq":         outputOperand(1),
		"xxd":          outputOperand(1),
		"shuf":         optOutputs("o", "output"),
		"iconv":        optOutputs("o", "output"),
		"gpg":          optOutputs("o", "output"),
		"ssh-keygen":   optOutputs("f", "file"),
		"gofmt":        formatter("", "-w"),
		"goimports":    formatter("", "-w"),
		"prettier":     formatter(prettierExts, "--write", "-w"),
		"eslint":       formatter("js jsx mjs cjs ts tsx mts cts vue", "--fix"),
		"black":        formatter(""),
		"isort":        formatter(""),
		"autopep8":     formatter("", "-i", "--in-place"),
		"rustfmt":      formatter(""),
		"clang-format": formatter("c h cc cpp cxx hpp hh m mm proto cs java js ts json", "-i"),
		"shfmt":        formatter("sh bash *", "-w", "--write"),
		"yq":           formatter("yaml yml json", "-i", "--inplace"),
		"sd":           formatter("*"),
		"ruff":         formatter("", "format", "--fix"),
		"terraform":    formatter("", "fmt"),
		"truncate":     (*effects).truncate,
		"chmod":        chmodLike("chmod"),
		"chown":        chmodLike("chmod"),
		"chgrp":        chmodLike("chmod"),
		"chattr":       chmodLike("chmod"),
		"setfacl":      (*effects).setfacl,
		"cp":           copyLike("cp"),
		"mv":           copyLike("mv"),
		"install":      copyLike("install"),
		"ln":           (*effects).ln,
		"link":         (*effects).link,
		"dd":           (*effects).dd,
		"sed":          (*effects).sed,
		"gsed":         (*effects).sed,
		"perl":         (*effects).perl,
		"tar":          (*effects).tar,
		"bsdtar":       (*effects).tar,
		"unzip":        (*effects).unzip,
		"7z":           (*effects).vagueDot,
		"cpio":         (*effects).vagueDot,
		"rsync":        (*effects).rsync,
		"scp":          (*effects).scp,
		"patch":        (*effects).patch,
		"git":          (*effects).git,
		"find":         (*effects).find,
		"curl":         (*effects).curl,
		"wget":         (*effects).wget,
		"sort":         optOutputs("o", "output"),
		"time":         optOutputs("o", "output"),
		"strace":       optOutputs("o", "output"),
		"flock":        (*effects).flock,
		"sudo":         (*effects).sudoedit,
		"sudoedit":     opsAll("write", optSpec{}),
		"split":        (*effects).vagueDot,
		"csplit":       (*effects).vagueDot,
		"gzip":         (*effects).compress,
		"gunzip":       (*effects).compress,
		"bzip2":        (*effects).compress,
		"xz":           (*effects).compress,
		"zstd":         (*effects).compress,
		"cat":          opsAll("read", optSpec{flags: "AbeEnstTuv"}),
		"head":         opsAll("read", optSpec{argShort: "cn", flags: "qvz"}),
		"tail":         opsAll("read", optSpec{argShort: "cns", flags: "fFqvz", argLong: []string{"bytes", "lines", "pid", "sleep-interval", "max-unchanged-stats"}}),
		"less":         opsAll("read", optSpec{}),
		"more":         opsAll("read", optSpec{}),
		"source":       opsAll("read", optSpec{}),
		".":            opsAll("read", optSpec{}),
		"base64":       opsAll("read", optSpec{argShort: "w", flags: "di"}),
		"od":           opsAll("read", optSpec{}),
		"strings":      opsAll("read", optSpec{}),
		"nl":           opsAll("read", optSpec{}),
		"bat":          opsAll("read", optSpec{}),
		"vi":           opsAll("write", optSpec{}),
		"vim":          opsAll("write", optSpec{}),
		"nvim":         opsAll("write", optSpec{}),
		"nano":         opsAll("write", optSpec{}),
		"emacs":        opsAll("write", optSpec{}),
		"ed":           opsAll("write", optSpec{}),
		"ex":           opsAll("write", optSpec{}),
		"mkfifo":       opsAll("write", optSpec{argShort: "mZ", argLong: []string{"mode"}}),
		"mknod":        (*effects).mknod,
		"awk":          (*effects).awk,
		"gawk":         (*effects).awk,
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

// prettierExts are the files prettier formats.
const prettierExts = "js jsx mjs cjs ts tsx mts cts json json5 jsonc md mdx markdown yaml yml css scss less html vue graphql gql hbs handlebars"

var copySpec = sync.OnceValue(func() map[string]optSpec {
	return map[string]optSpec{
		"cp": {argShort: "St", flags: "abdfHilLnPpRrsTuvxZ", argLong: []string{"suffix", "target-directory", "no-preserve", "sparse"},
			flagLong: []string{"backup", "preserve", "reflink", "context", "update", "archive", "attributes-only", "copy-contents", "dereference", "force", "interactive", "link", "no-clobber", "no-dereference", "parents", "recursive", "remove-destination", "strip-trailing-slashes", "symbolic-link", "no-target-directory", "one-file-system", "verbose", "debug"}},
		"mv": {argShort: "St", flags: "bfinTuvZ", argLong: []string{"suffix", "target-directory"},
			flagLong: []string{"backup", "update", "force", "interactive", "no-clobber", "no-target-directory", "strip-trailing-slashes", "verbose", "exchange", "no-copy", "context", "debug"}},
		"install": {argShort: "gmoSt", flags: "bcCdDpsTvZ", argLong: []string{"group", "mode", "owner", "suffix", "target-directory", "strip-program"},
			flagLong: []string{"backup", "context", "compare", "directory", "preserve-timestamps", "strip", "no-target-directory", "verbose", "debug", "preserve-context"}},
	}
})

// copyLike: cp, mv, install. The destination is written; when it may be a
// directory, so is destination/basename(source) for each source (the
// whole tree for a recursive copy or a move).
func copyLike(name string) effectFunc {
	return func(e *effects, args []Word, texts []string) {
		spec := copySpec()[name]
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
			e.backups(x, s, name)
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
	inPlace, script, suffix := false, false, ""
	var files []int
	for i := 1; i < len(texts); i++ {
		t := texts[i]
		switch {
		case t == "--":
			for j := i + 1; j < len(texts); j++ {
				files = append(files, j)
			}
			i = len(texts)
		case len(t) >= 3 && strings.HasPrefix(t, "--i") && strings.HasPrefix("in-place", strings.SplitN(t[2:], "=", 2)[0]):
			inPlace = true // --in-place, and any abbreviation of it (--in-pl)
			if _, v, ok := strings.Cut(t, "="); ok {
				suffix = v
			}
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
					suffix = t[j+1:]
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
	via := "sed"
	if inPlace {
		via = "sed -i"
	}
	for _, i := range files {
		e.addAll(kind, args[i:i+1], via)
		if inPlace && suffix != "" {
			for _, x := range args[i].expand() {
				e.add("write", inPlaceBackup(x, suffix), "sed -i"+suffix)
			}
		}
	}
}

// perl -i edits its files in place; interp records -i for python-less
// interpreters.
func (e *effects) perl(args []Word, texts []string) {
	inPlace, code, suffix := false, false, ""
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
					suffix = t[j+1:]
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
			if suffix != "" {
				for _, x := range args[i].expand() {
					e.add("write", inPlaceBackup(x, suffix), "perl -i"+suffix)
				}
			}
		}
	}
}

// mkdir: every operand. The directories -p creates on the way hold the
// operand, so an effect on the operand already lies inside them.
func (e *effects) mkdir(args []Word, texts []string) {
	idx, _ := operands(texts, optSpec{argShort: "m", flags: "pvZ", argLong: []string{"mode"}, flagLong: []string{"parents", "verbose", "context"}})
	for _, i := range idx {
		e.addAll("write", args[i:i+1], "mkdir")
	}
}

// backups: -b/--backup and --suffix make cp, mv, install and ln keep the
// replaced file as dest~ (or dest+suffix).
func (e *effects) backups(dst Word, s scanned, via string) {
	if !s.has("-b", "--backup") && len(s.values("-S", "--suffix")) == 0 {
		return
	}
	suffix := "~"
	if v := s.values("-S", "--suffix"); len(v) > 0 {
		suffix = v[len(v)-1]
	}
	e.add("write", withText(dst, dst.Text+suffix), via+" --backup")
}

// inPlaceBackup is the backup file sed -i SUFFIX and perl -i SUFFIX keep:
// file+suffix, or the suffix with * replaced by the file's name.
func inPlaceBackup(file Word, suffix string) Word {
	if !strings.Contains(suffix, "*") {
		return withText(file, file.Text+suffix)
	}
	name := strings.ReplaceAll(suffix, "*", path.Base(file.Text))
	if !strings.Contains(name, "/") {
		name = path.Join(path.Dir(file.Text), name)
	}
	return withText(file, name)
}
