package shell

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// snapshot maps every path under root to what it is (type, mode, content
// hash, link target).
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		v := info.Mode().String()
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			v += " -> " + l
		case info.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			v += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out[rel] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// covered: a changed path is named by an effect (the path itself, under a
// Tree effect, or a file an effect's pattern matches).
func covered(rel string, effs []Effect) bool {
	for _, e := range effs {
		if e.Kind == "read" {
			continue
		}
		p := filepath.Clean(e.Path.Text)
		if p == rel || p == "." && e.Tree {
			return true
		}
		if e.Tree && strings.HasPrefix(rel, p+"/") {
			return true
		}
		if e.Path.Glob {
			if ok, _ := filepath.Match(e.Path.Pattern, rel); ok {
				return true
			}
		}
		// a directory created or removed on the way to an effect's path
		// (mkdir -p, install -D, git rm emptying a directory)
		if strings.HasPrefix(p, rel+"/") {
			return true
		}
	}
	return false
}

// TestEffectsMatchRealCommands runs each command in a scratch directory
// and checks that every path it created, changed or removed is among the
// clause's effects: no written path goes unnamed.
func TestEffectsMatchRealCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash and real commands a few hundred times")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	setup := `mkdir -p .git/hooks .gitwarrant/loops src d && echo a > a && echo b > b && echo x > d/x &&
echo loop > .gitwarrant/loops/fix.loop.md && echo hook > .git/hooks/pre-commit && chmod 644 .git/hooks/pre-commit &&
tar -cf arch.tar d && printf -- '--- a\n+++ a\n@@ -1 +1 @@\n-a\n+patched\n' > p.diff &&
git init -q . && git add -A && git -c user.name=t -c user.email=t@x commit -qm x && echo dirty > b && echo u > untracked`
	for _, src := range []string{
		`echo x >> $'\x2egitwarrant/loops/fix\x2eloop\x2emd'`,
		`printf 'exit 0\n' > $'\x2egit/hooks/pre-commit'`,
		`cp a .git/hooks/`,
		`cp a b .git/hooks`,
		`cp -r d .gitwarrant`,
		`cp -t .git/hooks a b`,
		`mv a .gitwarrant/loops/new.loop.md`,
		`mv d .git/`,
		`install -m 755 a .git/hooks/pre-push`,
		`install -D a .gitwarrant/x/y`,
		`ln -s ../$'\x2egitwarrant/loops/new\x2eloop\x2emd' src/source-files.md`,
		`ln a .git/hooks/hard`,
		`ln -s /tmp/x .git/hooks/`,
		`ln -sf a .git/hooks/pre-commit`,
		`dd if=a of=.git/hooks/pre-commit status=none`,
		`sed -i 's/loop/changed/' .gitwarrant/loops/fix.loop.md`,
		`sed -i.bak 's/a/z/' a`,
		`sed -ni 's/a/z/p' a b`,
		`perl -pi -e 's/a/z/' a`,
		`tar -xf arch.tar -C .gitwarrant`,
		`mkdir e && cd e && tar xf ../arch.tar`,
		`perl -i.orig -pe 's/a/z/' a`,
		`cp -b a b`,
		`mv --suffix=.old a b`,
		`sed --in-place=bak_* 's/a/z/' a`,
		`mkdir -p .gitwarrant/a/b/c`,
		`truncate -s 0 .gitwarrant/loops/fix.loop.md`,
		`rm -rf .gitwarrant`,
		`rm .git/hooks/pre-*`,
		`rmdir src`,
		`chmod +x .git/hooks/pre-commit`,
		`chmod -R 700 .gitwarrant`,
		`touch .gitwarrant/loops/x.loop.md`,
		`mkdir -p .git/hooks/new/deeper`,
		`find . -name fix.loop.md -delete`,
		`find .gitwarrant -type f -delete`,
		`echo x | tee -a .gitwarrant/loops/fix.loop.md b > /dev/null`,
		`{ echo a; } > .git/hooks/pre-commit`,
		`cd .git/hooks && echo x > pre-commit`,
		`cd .git || exit 1; echo x > hooks/pre-commit`,
		`env -C .git/hooks tee pre-commit < a > /dev/null`,
		`patch -s -p0 < p.diff`,
		`rm .git/hooks/{pre-commit,missing}; true`,
		`echo 'echo x > .git/hooks/pre-commit' > s.sh && sh s.sh`,
		`sh -c 'echo x > .gitwarrant/loops/fix.loop.md'`,
		`bash <<'EOF'
cp a .git/hooks/pre-push
EOF`,
		`echo 'rm -rf .gitwarrant' | bash`,
		`sudo -n true 2>/dev/null; cp a .git/hooks/x`,
		`timeout 5 cp a .gitwarrant/`,
		`unlink .git/hooks/pre-commit`,
		`mkfifo .git/hooks/fifo`,
		`cp -a d/. .gitwarrant/`,
		`zip -q z.zip a && unzip -q -o z.zip -d .gitwarrant`,
		`git rm -q a`,
		`git mv a .gitwarrant/`,
		`git apply -p0 p.diff`,
		`git clean -fdxq`,
		`git reset -q --hard`,
		`git checkout -- b`,
		`git restore b`,
		`git -C .gitwarrant rm -q loops/fix.loop.md`,
		`git stash -q`,
		`git checkout -q -b x && git checkout -q HEAD~0 -- b`,
		`git log -1 --output=.git/hooks/pre-commit`,
		`git diff HEAD --output .gitwarrant/loops/fix.loop.md`,
		`find .gitwarrant -type f | xargs rm`,
		`find . -name fix.loop.md -exec rm {} \;`,
		`echo .git/hooks/pre-commit | xargs -n1 chmod +x`,
	} {
		dir := t.TempDir()
		prep := exec.Command(bash, "--norc", "-c", setup)
		prep.Dir = dir
		if out, err := prep.CombinedOutput(); err != nil {
			t.Fatalf("setup: %v\n%s", err, out)
		}
		before := snapshot(t, dir)
		cmd := exec.Command(bash, "--norc", "-c", src)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "LC_ALL=C"}
		out, _ := cmd.CombinedOutput()
		after := snapshot(t, dir)
		var effs []Effect
		for _, c := range Parse(src).Clauses {
			effs = append(effs, c.Effects()...)
		}
		changed := 0
		for p, v := range after {
			if gitInternal(p) {
				continue
			}
			if before[p] != v {
				changed++
				if !covered(p, effs) {
					t.Errorf("%s: %s changed and no effect names it (%s)\n  effects %s", src, p, strings.TrimSpace(string(out)), effList(effs))
				}
			}
		}
		for p := range before {
			if gitInternal(p) {
				continue
			}
			if _, ok := after[p]; !ok {
				changed++
				if !covered(p, effs) {
					t.Errorf("%s: %s removed and no effect names it\n  effects %s", src, p, effList(effs))
				}
			}
		}
		if changed == 0 {
			t.Errorf("%s: changed nothing (%s)", src, strings.TrimSpace(string(out)))
		}
	}
}

func effList(effs []Effect) string {
	var s []string
	for _, e := range effs {
		x := e.Kind + " " + e.Path.Text
		if e.Tree {
			x += "/**"
		}
		s = append(s, x)
	}
	return strings.Join(s, ", ")
}

// gitInternal: git's own bookkeeping (index, objects, refs, logs) changes
// with every git command; hooks and config are checked like any file.
func gitInternal(p string) bool {
	if !strings.HasPrefix(p, ".git/") {
		return false
	}
	return !strings.HasPrefix(p, ".git/hooks") && p != ".git/config"
}
