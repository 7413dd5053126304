package gitx

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Packing the record's objects (docs/record.md#packing). Every event
// writes about four loose objects; left alone, they would make `git gc
// --auto` run inside some later `git commit` of the user's. The record
// packs them itself, under the writer's lock: the objects of a range of
// record commits go into one pack, kept (a .keep file, so gc --auto never
// counts or repacks it), and the loose copies are pruned.

// PackRange packs the objects reachable from tip but not from since
// (zero: all), marks the pack kept, prunes the loose copies, and returns
// the pack's name ("pack-<hash>.pack").
func (r *Repo) PackRange(tip, since string) (string, error) {
	revs := tip + "\n"
	if since != "" {
		revs += "^" + since + "\n"
	}
	out, err := r.GitInput([]byte(revs), "pack-objects", "-q", "--revs", "--unpacked", "--delta-base-offset", r.packBase())
	if err != nil {
		return "", err
	}
	return r.keepAndPrune(strings.TrimSpace(string(out)))
}

// MergePacks packs every object of the named kept packs into one new kept
// pack and removes them.
func (r *Repo) MergePacks(names []string) (string, error) {
	out, err := r.GitInput([]byte(strings.Join(names, "\n")+"\n"), "pack-objects", "-q", "--stdin-packs", "--delta-base-offset", r.packBase())
	if err != nil {
		return "", err
	}
	name, err := r.keepAndPrune(strings.TrimSpace(string(out)))
	if err != nil {
		return "", err
	}
	for _, old := range names {
		if old == name {
			continue
		}
		base := filepath.Join(r.CommonDir, "objects", "pack", strings.TrimSuffix(old, ".pack"))
		// .keep last: a pack is never unkept while it is still there
		for _, ext := range []string{".pack", ".idx", ".rev", ".keep"} {
			if err := os.Remove(base + ext); err != nil && !errors.Is(err, os.ErrNotExist) {
				return name, err
			}
		}
	}
	return name, nil
}

func (r *Repo) packBase() string { return filepath.Join(r.CommonDir, "objects", "pack", "pack") }

func (r *Repo) keepAndPrune(hash string) (string, error) {
	if len(hash) != 40 {
		return "", fmt.Errorf("git pack-objects printed %q, not a pack id", hash)
	}
	name := "pack-" + hash + ".pack"
	keep := filepath.Join(r.CommonDir, "objects", "pack", "pack-"+hash+".keep")
	if err := os.WriteFile(keep, []byte("gitwarrant record\n"), 0o644); err != nil {
		return "", err
	}
	if _, err := r.Git("prune-packed", "-q"); err != nil {
		return "", err
	}
	r.packs = packs{} // reload the indexes on the next read
	return name, nil
}
