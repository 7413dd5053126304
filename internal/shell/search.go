package shell

import "strings"

// searches adds the reads of commands that read files they are given,
// recursively for a directory: grep -r, rg, ag, ack (everything under a
// directory operand, Tree), tar -c and zip -r (the members they pack),
// jq --rawfile/--slurpfile; and the go command's output files. A read of a
// directory is screened as every path it could read
// (docs/shell.md#effects).
func (e *effects) searches(name string, args []Word, texts []string) {
	switch name {
	case "grep", "egrep", "fgrep", "rgrep", "zgrep":
		e.grep(name, args, texts)
	case "rg", "ag", "ack", "ack-grep":
		e.grep(name, args, texts)
	case "tar", "bsdtar", "gtar":
		e.tarMembers(args, texts)
	case "zip":
		idx, s := operands(texts, optSpec{argShort: "bntx", flags: "0123456789ADFJLRSTXdefgjlmoqruvyz@", argLong: []string{"temp-path", "suffixes", "exclude", "include"}})
		if len(idx) > 1 {
			for _, i := range idx[1:] {
				for _, x := range args[i].expand() {
					f := e.add("read", x, "zip")
					f.Tree = s.has("-r", "-R", "--recurse-paths")
				}
			}
		}
	case "jq", "gojq", "jaq":
		for i := 1; i+2 < len(texts); i++ {
			if texts[i] == "--rawfile" || texts[i] == "--slurpfile" {
				e.addAll("read", args[i+2:i+3], "jq "+texts[i])
				i += 2
			}
		}
	case "go":
		e.goEffects(args, texts)
	case "rsync":
		// every operand but the destination is copied in full
		idx, _ := operands(texts, optSpec{argShort: "eBfT", argLong: []string{"rsh", "rsync-path", "exclude", "include", "filter", "files-from", "exclude-from", "include-from", "temp-dir", "compare-dest", "copy-dest", "link-dest", "backup-dir", "suffix", "chmod", "chown", "log-file", "password-file", "port", "timeout", "contimeout", "bwlimit", "partial-dir", "max-size", "min-size", "max-delete", "block-size", "out-format", "info", "debug", "usermap", "groupmap", "iconv", "checksum-choice", "compress-choice", "compress-level", "skip-compress", "sockopts", "outbuf", "remote-option", "write-batch", "read-batch", "only-write-batch", "protocol", "address"}, permute: true})
		if len(idx) > 1 {
			for _, i := range idx[:len(idx)-1] {
				for _, x := range args[i].expand() {
					e.add("read", x, "rsync").Tree = true
				}
			}
		}
	}
}

// grepSpec is GNU grep's options that take a value, for finding its
// operands; rg, ag and ack are read with the same table (their valued
// options overlap; an unknown one counts as a flag, so its value counts as
// a file read, never as a file missed).
var grepSpec = optSpec{
	argShort: "efmABCdDgtTjM",
	argLong: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "directories",
		"devices", "include", "exclude", "exclude-from", "exclude-dir", "label", "binary-files", "group-separator",
		"glob", "iglob", "type", "type-not", "type-add", "max-depth", "maxdepth", "max-filesize", "pre", "pre-glob",
		"threads", "sort", "sortr", "engine", "encoding", "replace", "ignore-file", "path-separator", "max-columns",
		"color", "colors", "colour", "dfa-size-limit", "regex-size-limit"},
	permute: true,
}

// grep reads its file operands (the first operand is the pattern unless
// -e or -f gives it); recursive (-r, -R, --recursive, -d recurse, and
// always for rg, ag and ack) a directory is read in full, and with no file
// operand the working directory is.
func (e *effects) grep(name string, args []Word, texts []string) {
	idx, s := operands(texts, grepSpec)
	if !s.has("-e", "--regexp", "-f", "--file") && len(idx) > 0 {
		idx = idx[1:]
	}
	rec := name == "rgrep" || name == "rg" || name == "ag" || name == "ack" || name == "ack-grep" ||
		s.has("-r", "-R", "--recursive", "--dereference-recursive")
	for _, v := range s.values("-d", "--directories") {
		rec = rec || v == "recurse"
	}
	for _, v := range s.values("-f", "--file") {
		e.add("read", Word{Text: v, Literal: true, Parts: []string{v}}, name+" -f")
	}
	if len(idx) == 0 && rec {
		dot := Word{Text: ".", Literal: true, Parts: []string{"."}}
		f := e.add("read", dot, name)
		f.Tree = true
		return
	}
	for _, i := range idx {
		for _, x := range args[i].expand() {
			f := e.add("read", x, name)
			f.Tree = rec
		}
	}
}

// tarMembers reads what tar -c (or -r, -u) packs: every operand, in full.
func (e *effects) tarMembers(args []Word, texts []string) {
	create := false
	valued := map[int]bool{}
	for i := 1; i < len(texts); i++ {
		t := texts[i]
		switch {
		case t == "--create" || t == "--append" || t == "--update":
			create = true
		case t == "-f" || t == "--file" || t == "-C" || t == "--directory" || t == "-T" || t == "--files-from" ||
			t == "-X" || t == "--exclude-from" || t == "--exclude" || t == "-b" || t == "-H" || t == "--format" ||
			t == "-I" || t == "--use-compress-program" || t == "-K" || t == "-N" || t == "-V" || t == "--label":
			valued[i+1] = true
		case strings.HasPrefix(t, "--"):
		case strings.HasPrefix(t, "-") || i == 1:
			cl := strings.TrimPrefix(t, "-")
			if strings.ContainsAny(cl, "cru") && !strings.ContainsAny(cl, "x") {
				create = true
			}
			// a cluster's valued letters take the next words in order
			n := 0
			for j := 0; j < len(cl); j++ {
				if strings.IndexByte("fCTXbHIKNV", cl[j]) >= 0 {
					if j+1 < len(cl) && strings.HasPrefix(t, "-") {
						break // the value is attached
					}
					n++
					valued[i+n] = true
				}
			}
		}
	}
	if !create {
		return
	}
	for i := 2; i < len(texts); i++ {
		if valued[i] || strings.HasPrefix(texts[i], "-") {
			continue
		}
		for _, x := range args[i].expand() {
			f := e.add("read", x, "tar -c")
			f.Tree = true
		}
	}
}
