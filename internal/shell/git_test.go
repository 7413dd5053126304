package shell

import (
	"slices"
	"testing"
)

func gitOf(t *testing.T, src string) *Git {
	t.Helper()
	s := Parse(src)
	for _, c := range s.Clauses {
		if g, ok := c.Git(); ok {
			return g
		}
	}
	t.Fatalf("%s: no git clause:\n%s", src, dump(s))
	return nil
}

func TestGitGlobals(t *testing.T) {
	g := gitOf(t, `git -C sub -C deeper --git-dir=.x --work-tree /w -c User.Name=me -c core.quotepath --no-pager -p status`)
	if g.Chdir != "sub/deeper" || g.Dir != ".x" || g.WorkTree != "/w" || g.Sub != "status" || g.Opaque {
		t.Errorf("globals: %+v", g)
	}
	if !slices.Equal(g.Config["user.name"], []string{"me"}) || !slices.Equal(g.Config["core.quotepath"], []string{"true"}) {
		t.Errorf("config: %v", g.Config)
	}
	g = gitOf(t, `X=/dev/null git --config-env=core.hooksPath=X commit`)
	if !slices.Equal(g.Config["core.hookspath"], []string{"/dev/null"}) || !g.Opaque {
		t.Errorf("config-env: %+v", g)
	}
	g = gitOf(t, `git --config-env=user.name=NAME commit`)
	if !g.Opaque {
		t.Errorf("--config-env from an unknown variable must be opaque")
	}
	g = gitOf(t, `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit`)
	if !slices.Equal(g.Config["core.hookspath"], []string{"/dev/null"}) || !g.Opaque {
		t.Errorf("GIT_CONFIG_*: %+v", g)
	}
	g = gitOf(t, `GIT_CONFIG_PARAMETERS="'core.hooksPath'='/dev/null' 'user.name'='a''\''b'" git commit`)
	if !slices.Equal(g.Config["core.hookspath"], []string{"/dev/null"}) || !g.Opaque {
		t.Errorf("GIT_CONFIG_PARAMETERS: %+v", g.Config)
	}
	g = gitOf(t, `GIT_DIR=.git/../x git status`)
	if g.Dir != ".git/../x" {
		t.Errorf("GIT_DIR: %+v", g)
	}
	for _, src := range []string{
		`git --exec-path=/tmp status`,
		`git --bogus status`,
		`GIT_SSH_COMMAND='sh x' git fetch`,
		`GIT_CONFIG_GLOBAL=x git commit`,
		`EDITOR='sh x' git commit`,
		`git -c alias.st='!sh x' st`,
		`git -c core.sshCommand='sh x' fetch`,
		`git -c core.fsmonitor=x status`,
		`git -c core.pager='sh x' log`,
		`git -c pager.log='sh x' log`,
		`git -c core.editor=x commit`,
		`git -c sequence.editor=x rebase -i`,
		`git -c credential.helper='!sh x' fetch`,
		`git -c credential.https://x.helper=y fetch`,
		`git -c diff.external=x diff`,
		`git -c diff.foo.textconv=x diff`,
		`git -c filter.lfs.smudge=x checkout`,
		`git -c gpg.program=x commit -S`,
		`git -c protocol.ext.allow=always fetch`,
		`git -c uploadpack.packObjectsHook=x fetch`,
		`git -c include.path=/tmp/x status`,
		`git -c includeIf.gitdir:/.path=/tmp/x status`,
		`git -c hook.pre-commit.command=x commit`,
		`git -c url.ext::sh.insteadOf=origin push`,
		`git -c remote.origin.receivepack=x push`,
		`git -c CORE.HOOKSPATH=x commit`,
		`git fetch --upload-pack='sh x' origin`,
		`git ls-remote -u 'sh x' origin`,
		`git clone --upload-pack=x url`,
		`git clone -c core.hooksPath=x url`,
		`git clone --template=/tmp/t url`,
		`git push 'ext::sh -c x' main`,
		`git fetch ext::x`,
		`git rebase -x 'sh x' main`,
		`git rebase --exec='sh x' main`,
		`git config alias.x '!sh'`,
		`git config --global core.hooksPath /dev/null`,
		`git config set core.hooksPath /dev/null`,
		`git config -e`,
		`git config --remove-section core`,
		`git mystery-alias`,
		`git $SUB`,
		`git push $REMOTE main`,
		`git commit --no-v`,
		`git push --f origin main`,
		`git -C "$D" commit`,
		`git --git-dir "$G" commit`,
	} {
		if g := gitOf(t, src); !g.Opaque {
			t.Errorf("%s: not opaque", src)
		}
	}
	for _, src := range []string{`git status`, `git push -u origin feature`, `git commit -m "x"`, `git -c user.name=x commit -m y`, `git log --oneline -5`, `git diff --stat`} {
		if g := gitOf(t, src); g.Opaque {
			t.Errorf("%s: opaque: %s", src, g.Why)
		}
	}
}

func TestGitPrefixes(t *testing.T) {
	for _, c := range []struct {
		src  string
		opts []string
	}{
		{`git commit --no-veri`, []string{"no-verify"}},
		{`git commit -n`, []string{"no-verify"}},
		{`git commit -anm x`, []string{"all", "no-verify", "message"}},
		{`git commit --verify`, []string{"verify"}},
		{`git -c alias.c='commit --no-verify' c -m x`, []string{"no-verify", "message"}},
		{`git push --mirr origin`, []string{"mirror"}},
		{`git push --force-w origin main`, []string{"force-with-lease"}},
		{`git push --force-with-lease=main:abc origin main`, []string{"force-with-lease"}},
		{`git push --no-force origin main`, []string{"no-force"}},
		{`git push --del origin main`, []string{"delete"}},
		{`git push --br origin`, []string{"all"}},
		{`git reset --har`, []string{"hard"}},
		{`git branch -D main`, []string{"D"}},
		{`git branch --del --forc main`, []string{"delete", "force"}},
		{`git rebase --no-verif main`, []string{"no-verify"}},
		{`git gc --prune=now`, []string{"prune"}},
		{`git gc --pru=now`, []string{"prune"}},
		{`git reflog expire --expire-unr=now --al`, []string{"expire-unreachable", "all"}},
		{`git update-ref --no-der -d refs/gitwarrant/x`, []string{"no-deref", "d"}},
	} {
		g := gitOf(t, c.src)
		var got []string
		for _, o := range g.Options {
			n := o.Name
			if o.Negated {
				n = "no-" + n
			}
			got = append(got, n)
		}
		for _, o := range c.opts {
			if !slices.Contains(got, o) {
				t.Errorf("%s: options %q lack %q (%s)", c.src, got, o, g.Why)
			}
		}
	}
	if g := gitOf(t, `git push --force-w=main origin main`); g.Options[0].Value != "main" {
		t.Errorf("value of an abbreviated option: %+v", g.Options)
	}
}

func TestPushDescribe(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
		not  []string
	}{
		{`git push origin main`, []string{"push to main"}, []string{"force push"}},
		{`git push origin HEAD:main`, []string{"push to main"}, nil},
		{`git push origin HEAD:refs/heads/main`, []string{"push to main"}, nil},
		{`git push origin feature:heads/main`, []string{"push to main"}, nil},
		{`git push origin +feature:main`, []string{"force push to main", "force push"}, nil},
		{`git push -f origin main`, []string{"force push to main"}, nil},
		{`git push --force origin feature`, []string{"force push to feature"}, []string{"push to main"}},
		{`git push --force-with-lease origin main`, []string{"force push to main"}, nil},
		{`git push --force --no-force origin main`, []string{"push to main"}, []string{"force push to main"}},
		{`git push origin :main`, []string{"delete branch main", "force push to main"}, nil},
		{`git push --delete origin main`, []string{"delete branch main"}, nil},
		{`git push -d origin v1 refs/tags/v2`, []string{"delete branch v1", "delete tag v2"}, nil},
		{`git push origin tag v1`, []string{"push tag v1"}, nil},
		{`git push --tags`, []string{"push all tags"}, nil},
		{`git push --all`, []string{"push all branches"}, nil},
		{`git push --branches -f`, []string{"force push all branches"}, nil},
		{`git push --mirror`, []string{"mirror push", "force push"}, nil},
		{`git push origin :`, []string{"push all matching branches"}, nil},
		{`git push --prune origin 'refs/heads/*:refs/heads/*'`, []string{"delete remote branches", "push all branches"}, nil},
		{`git push`, []string{"push to the current branch"}, nil},
		{`git push -f`, []string{"force push", "push to the current branch"}, nil},
		{`git -c push.default=matching push`, []string{"push all matching branches"}, nil},
		{`git -c remote.origin.mirror=true push origin`, []string{"mirror push"}, nil},
		{`git -c remote.pushDefault=evil -c remote.evil.push=+HEAD:main push`, []string{"force push to main"}, nil},
		{`git -c remote.origin.push=refs/heads/x:refs/heads/main push`, []string{"push to main"}, nil},
		{`git push --repo=origin main`, []string{"push to the current branch"}, []string{"push to main"}}, // the first operand is the repository
		{`git push origin main --force`, []string{"force push to main"}, nil},
		{`git push origin ma{in,ster}`, []string{"push to main", "push to master"}, nil},
		{`sh -c 'git push origin main'`, []string{"push to main"}, nil},
		{`git push origin "$BRANCH":main`, []string{"push to main"}, nil},
		{`git push origin @:main`, []string{"push to main"}, nil},
		{`git push origin @`, []string{"push to the current branch"}, nil},
		{`git push origin '+refs/heads/ma*:refs/heads/ma*'`, []string{"force push to branches matching ma*"}, nil},
		{`git -c alias.p='push --force' p origin main`, []string{"force push to main"}, nil},
		{`git -c alias.p='push --force' -c alias.q=p q origin main`, []string{"force push to main"}, nil},
		{`git config alias.p 'push --force'; git p origin main`, []string{"force push to main"}, nil},
		{`git config alias.p 'push --force' && sudo git p origin main`, []string{"force push to main"}, nil},
		{`git send-pack --force origin main`, []string{"force push to main"}, nil},
		{`/usr/lib/git-core/git-push --force origin main`, []string{"force push to main"}, nil},
		{`git-push origin HEAD:main`, []string{"push to main"}, nil},
		{`git push --prune origin 'refs/gitwarrant/*:refs/gitwarrant/*'`, []string{"delete remote branches", "push to refs matching refs/gitwarrant/*"}, nil},
		{`git push origin --delete refs/gitwarrant/x`, []string{"delete ref refs/gitwarrant/x"}, nil},
	} {
		var d []string
		found := false
		for _, cl := range Parse(c.src).Clauses {
			if g, ok := cl.Git(); ok && g.Push != nil {
				d = append(d, g.Push.Describe()...)
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no push", c.src)
			continue
		}
		for _, w := range c.want {
			if !slices.Contains(d, w) {
				t.Errorf("%s: %q lacks %q", c.src, d, w)
			}
		}
		for _, n := range c.not {
			if slices.Contains(d, n) {
				t.Errorf("%s: %q has %q", c.src, d, n)
			}
		}
	}
}
