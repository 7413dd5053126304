package gate

import (
	"os"
	"path/filepath"
)

// hardLink screens a write to an existing file with more than one name
// (docs/threat-model.md#hard-links): a write through a hard link is a
// write to every name of the inode, and the path rules see only the one
// written. A file that is a protected file under another name is denied;
// any other file with several links asks, since its other names cannot be
// found without walking the disk. Only a file with st_nlink > 1 costs more
// than the one stat.
func (a *analysis) hardLink(abs string) {
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	if linkCount(fi) <= 1 {
		return
	}
	for _, g := range a.place.guards() {
		if g.dir {
			for _, p := range guardedFiles(g.path) {
				if sameFile(fi, p) {
					a.c.deny("it writes " + a.place.rel(abs) + ", a hard link to " + a.place.rel(p) + "; " + g.why)
					return
				}
			}
			continue
		}
		if sameFile(fi, g.path) {
			a.c.deny("it writes " + a.place.rel(abs) + ", a hard link to " + a.place.rel(g.path) + "; " + g.why)
			return
		}
	}
	a.c.unreadable("it writes " + a.place.rel(abs) + ", which has other names (hard links) the gate cannot see: a write there changes them too")
}

// guardedFiles lists the files two levels below a protected directory
// (the loops, allowed_signers, hooks, Claude's settings folders), at most
// a few hundred: enough to name the file a link shares, not a walk.
func guardedFiles(dir string) []string {
	var out []string
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			if e.Name() == "objects" || e.Name() == "refs" || e.Name() == "logs" {
				continue
			}
			sub, _ := os.ReadDir(p)
			for _, s := range sub {
				if len(out) > 512 {
					return out
				}
				if !s.IsDir() {
					out = append(out, filepath.Join(p, s.Name()))
				}
			}
			continue
		}
		out = append(out, p)
	}
	return out
}

func sameFile(fi os.FileInfo, p string) bool {
	other, err := os.Stat(p)
	return err == nil && os.SameFile(fi, other)
}
