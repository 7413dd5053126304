package typed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// kindLoop is a warrant holding one entry in one list, plus the project
// files editable only under ask (so the loop vouches for package.json).
func kindLoop(t *testing.T, list, entry string, extra ...string) *loops.TypedWarrant {
	t.Helper()
	body := "---\nname: k\nversion: 1\nwarrant:\n"
	lists := map[string][]string{list: {entry}}
	for i := 0; i+1 < len(extra); i += 2 {
		lists[extra[i]] = append(lists[extra[i]], extra[i+1])
	}
	for _, l := range []string{"read", "draft", "change", "send", "ask", "never"} {
		body += "  " + l + ":"
		if len(lists[l]) == 0 {
			body += " []\n"
			continue
		}
		body += "\n"
		for _, e := range lists[l] {
			body += "    - " + quoteYAML(e) + "\n"
		}
	}
	body += "---\n# Brief\nx\n# Procedure\n1. x\n"
	l, err := loops.Parse("k.loop.md", []byte(body))
	if err != nil {
		t.Fatalf("%s\n%s", err, body)
	}
	return l.Warrant.Typed()
}

func quoteYAML(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func kindRepo(t *testing.T, files map[string]string) Env {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Env{Root: root, Cwd: root, Home: "/home/nobody", Branch: "fix/issue-29"}
}

func decideBash(tw *loops.TypedWarrant, env Env, cmd string) Decision {
	return Decide(tw, Units("Bash", map[string]any{"command": cmd}, env))
}

// TestKindIssueExamples: each call of issue 29 asks under the list its
// entry stands in, and is allowed when the same entry stands in send.
func TestKindIssueExamples(t *testing.T) {
	env := kindRepo(t, map[string]string{
		"package.json": `{"name":"app","scripts":{"deploy":"vercel deploy --prod","test":"vitest run","lint":"eslint ."}}`,
	})
	cases := []struct{ list, entry, call, says string }{
		{"read", "Bash(gh api *)", "gh api -X PUT repos/o/r/pulls/219/merge -f merge_method=squash", "merges a pull request"},
		{"read", "Bash(git branch *)", "git branch -f main HEAD~4", "protected branch main"},
		{"change", "Bash(pnpm *)", "pnpm publish --no-git-checks", "`pnpm publish` sends a package"},
		{"change", "Bash(pnpm *)", "pnpm -r publish --access public", "sends a package"},
		{"change", "Bash(yarn *)", "yarn npm publish", "sends a package"},
		{"change", "Bash(npm run *)", "npm run deploy", "vercel deploy"},
		{"change", "Bash(git rebase *)", "git rebase -i --root", "rewrites every commit"},
	}
	for _, c := range cases {
		tw := kindLoop(t, c.list, c.entry, "ask", "Edit(package.json)")
		d := decideBash(tw, env, c.call)
		if d.Verdict != loops.Ask {
			t.Errorf("%s under %s: %s = %s (%s), want ask", c.entry, c.list, c.call, d.Verdict, d.Rule)
			continue
		}
		if !strings.Contains(d.Rule, c.says) || !strings.Contains(d.Rule, "is a "+c.list+" entry") {
			t.Errorf("%s under %s: %s: rule %q should name the list and say %q", c.entry, c.list, c.call, d.Rule, c.says)
		}
		tw = kindLoop(t, "send", c.entry, "ask", "Edit(package.json)")
		if d := decideBash(tw, env, c.call); d.Verdict != loops.Allow {
			t.Errorf("%s under send: %s = %s (%s), want allow", c.entry, c.call, d.Verdict, d.Rule)
		}
	}
}

// TestKindNarrowerAllowed: a clause of the entry's own kind or a narrower
// one is allowed as before.
func TestKindNarrowerAllowed(t *testing.T) {
	env := kindRepo(t, map[string]string{
		"package.json": `{"name":"app","scripts":{"test":"vitest run","lint":"eslint . && prettier --check ."}}`,
	})
	cases := []struct{ list, entry, call string }{
		{"read", "Bash(gh api *)", "gh api repos/o/r/pulls/219"},
		{"read", "Bash(gh api *)", "gh api -X GET search/issues -f q=bug"},
		{"read", "Bash(gh api *)", "gh api graphql -f query='query { viewer { login } }'"},
		{"read", "Bash(gh --version)", "gh --version"},
		{"read", "Bash(gh --help)", "gh --help"},
		{"read", "Bash(git branch *)", "git branch --list 'fix/*'"},
		{"read", "Bash(git branch *)", "git branch -a"},
		{"change", "Bash(git branch *)", "git branch -f fix/old HEAD~1"},
		{"change", "Bash(pnpm *)", "pnpm install"},
		{"change", "Bash(pnpm *)", "pnpm test"},
		{"change", "Bash(yarn *)", "yarn lint"},
		{"change", "Bash(npm run *)", "npm run lint"},
		{"change", "Bash(git rebase *)", "git rebase origin/main"},
		{"read", "Bash(git fetch *)", "git fetch origin"},
		{"draft", "Bash(git commit *)", "git commit -m wip"},
		{"change", "Bash(timeout 60 git *)", "timeout 60 git status"},
		{"read", "Bash(gh api *)", "gh api -H 'Accept: application/vnd.github+json' repos/o/r/pulls"},
		{"read", "Bash(curl *)", "curl -sS -H 'Authorization: token x' https://api.github.com/repos/o/r"},
		{"read", "Bash(http *)", "http https://api.example.com/x 'Accept:application/json' q==1"},
		{"read", "Bash(http *)", "http GET https://api.example.com/x?a=b"},
		{"read", "Bash(http *)", "http -a u:p https://api.example.com/x"},
		{"read", "Bash(xh *)", "xh get https://api.example.com/x"},
		{"change", "Bash(npm *)", "npm exec -- npm install"},
	}
	for _, c := range cases {
		tw := kindLoop(t, c.list, c.entry, "ask", "Edit(package.json)")
		if d := decideBash(tw, env, c.call); d.Verdict != loops.Allow {
			t.Errorf("%s under %s: %s = %s (%s), want allow", c.entry, c.list, c.call, d.Verdict, d.Rule)
		}
	}
}

// TestKindAttacks: rewrites that keep a call's meaning never make it
// narrower — a wrapper, an option before the subcommand, a script run in
// place of the command, corepack, a workspace selector, an unknown
// subcommand.
func TestKindAttacks(t *testing.T) {
	env := kindRepo(t, map[string]string{
		"package.json":              `{"name":"app","scripts":{"ship":"npm publish","prerel":"git push origin HEAD","rel":"echo ok"}}`,
		"packages/web/package.json": `{"name":"web","scripts":{"build":"vercel --prod"}}`,
		// npm reads "scripts" exactly; a look-alike key must not hide it.
		"cased/package.json": `{"name":"c","scripts":{"lint":"npm publish"},"Scripts":{"lint":"eslint ."},"SCRIPTS":{"lint":"eslint ."}}`,
	})
	cases := []struct{ list, entry, call string }{
		{"change", "Bash(npm *)", "npm --prefix cased run lint"},
		{"change", "Bash(npm *)", "cd cased && npm run lint"},
		{"change", "Bash(timeout *)", "timeout 60 pnpm publish"},
		{"change", "Bash(env NODE_ENV=production *)", "env NODE_ENV=production npm publish"},
		{"change", "Bash(pnpm *)", "pnpm --reporter silent publish"},
		{"change", "Bash(pnpm *)", "pnpm --frobnicate x publish"},
		{"change", "Bash(pnpm *)", "pnpm ship"},
		{"change", "Bash(npm *)", "npm run ship"},
		{"change", "Bash(npm *)", "npm run rel"},
		{"change", "Bash(corepack *)", "corepack pnpm publish"},
		{"change", "Bash(pnpm *)", "pnpm --filter web build"},
		{"change", "Bash(pnpm *)", "pnpm -r build"},
		{"change", "Bash(yarn *)", "yarn workspace web build"},
		{"change", "Bash(pnpm *)", "pnpm frobnicate"},
		{"change", "Bash(cargo *)", "cargo publish"},
		{"change", "Bash(cargo *)", "cargo --frobnicate x build"},
		{"change", "Bash(docker *)", "docker build --push -t x ."},
		{"change", "Bash(docker *)", "docker push x"},
		{"change", "Bash(kubectl *)", "kubectl -n get delete pod x"},
		{"read", "Bash(kubectl *)", "kubectl --context prod apply -f k8s/"},
		{"change", "Bash(terraform *)", "terraform apply -auto-approve"},
		{"read", "Bash(gcloud *)", "gcloud compute instances suspend list"},
		{"read", "Bash(aws *)", "aws s3 rm s3://bucket/x"},
		{"read", "Bash(gh *)", "gh pr merge 12 --squash"},
		{"read", "Bash(gh *)", "gh api graphql -f query='mutation { x }'"},
		{"read", "Bash(gh *)", "gh api repos/o/r/issues -f title=x"},
		{"read", "Bash(gh *)", "gh frobnicate"},
		{"read", "Bash(gh *)", "gh --version pr merge 12"},
		{"read", "Bash(gh *)", "gh --repo o/r pr merge 12"},
		{"read", "Bash(git *)", "git frobnicate"},
		{"change", "Bash(git *)", "git tag -d v1.0"},
		{"change", "Bash(git *)", "git update-ref refs/heads/main HEAD~3"},
		{"change", "Bash(git *)", "git checkout -B main"},
		{"change", "Bash(uv *)", "uv publish"},
		{"change", "Bash(twine *)", "twine upload dist/*"},
		{"change", "Bash(helm *)", "helm upgrade app ./chart"},
		{"change", "Bash(vercel *)", "vercel"},
		{"change", "Bash(vercel *)", "vercel --prod"},
		// npm exec and npm x run what follows them, as npx does.
		{"change", "Bash(npm *)", "npm exec -- npm publish"},
		{"change", "Bash(npm *)", "npm x -- npm publish"},
		{"change", "Bash(npm *)", "npm --prefix . exec -- npm publish"},
		{"change", "Bash(npm *)", "npm --loglevel=warn x npm publish"},
		{"change", "Bash(npm *)", "npm exec -c 'npm publish'"},
		{"change", "Bash(yarn *)", "yarn exec npm publish"},
		{"change", "Bash(yarn *)", "yarn exec -- npm publish"},
		// a method-override header is the method it names.
		{"read", "Bash(gh api *)", "gh api -H 'X-HTTP-Method-Override: PUT' repos/o/r/pulls/1/merge"},
		{"read", "Bash(gh api *)", "gh api --header=x-http-method-override:DELETE repos/o/r"},
		{"read", "Bash(gh api *)", "gh api -H'X-HTTP-Method: POST' repos/o/r/issues"},
		{"read", "Bash(curl *)", "curl -H 'X-HTTP-Method-Override: DELETE' https://api.example.com/x"},
		{"read", "Bash(curl *)", "curl --header='X-Method-Override: PUT' https://api.example.com/x"},
		// curl's options from a file may carry a body or a method.
		{"read", "Bash(curl *)", "curl -K req.cfg https://api.example.com/x"},
		{"read", "Bash(curl *)", "curl --config=req.cfg https://api.example.com/x"},
		{"read", "Bash(curl *)", "curl -sK req.cfg https://api.example.com/x"},
		// HTTPie and xh: a method word, a data item, --raw, an unknown option.
		{"read", "Bash(http *)", "http POST https://api.example.com/x a=b"},
		{"read", "Bash(http *)", "http https://api.example.com/x a=b"},
		{"read", "Bash(http *)", "http https://api.example.com/x n:=1"},
		{"read", "Bash(http *)", "http https://api.example.com/x f@secrets.txt"},
		{"read", "Bash(http *)", "http -f https://api.example.com/x a=b"},
		{"read", "Bash(http *)", "http --raw x https://api.example.com/x"},
		{"read", "Bash(http *)", "http --frobnicate POST https://api.example.com/x"},
		{"read", "Bash(http *)", "http https://api.example.com/x X-HTTP-Method-Override:DELETE"},
		{"read", "Bash(xh *)", "xh post https://api.example.com/x"},
		{"read", "Bash(https *)", "https delete api.example.com/x"},
	}
	for _, c := range cases {
		tw := kindLoop(t, c.list, c.entry, "ask", "Edit(package.json)")
		if d := decideBash(tw, env, c.call); d.Verdict == loops.Allow {
			t.Errorf("%s under %s: %s = allow (%s), want ask", c.entry, c.list, c.call, d.Rule)
		}
	}
}

// TestKindPackageScriptVouched: a package script is judged by its command
// only when the loop does not let the agent edit package.json.
func TestKindPackageScriptVouched(t *testing.T) {
	env := kindRepo(t, map[string]string{"package.json": `{"name":"app","scripts":{"test":"vitest run"}}`})
	tw := kindLoop(t, "change", "Bash(npm test *)", "change", "Edit(**)")
	d := decideBash(tw, env, "npm test")
	if d.Verdict != loops.Ask || !strings.Contains(d.Rule, "package.json") {
		t.Errorf("npm test with package.json editable = %s (%s), want ask naming package.json", d.Verdict, d.Rule)
	}
	tw = kindLoop(t, "change", "Bash(npm test *)", "ask", "Edit(package.json)")
	if d := decideBash(tw, env, "npm test"); d.Verdict != loops.Allow {
		t.Errorf("npm test vouched = %s (%s), want allow", d.Verdict, d.Rule)
	}
}

// TestKindRewriteOnProtectedBranch: on main, moving the branch is a
// rewrite; on a feature branch the same command changes only local work.
func TestKindRewriteOnProtectedBranch(t *testing.T) {
	env := kindRepo(t, nil)
	tw := kindLoop(t, "change", "Bash(git reset *)")
	if d := decideBash(tw, env, "git reset --hard HEAD~1"); d.Verdict != loops.Allow {
		t.Errorf("reset on a feature branch = %s (%s), want allow", d.Verdict, d.Rule)
	}
	env.Branch = "main"
	if d := decideBash(tw, env, "git reset --hard HEAD~1"); d.Verdict != loops.Ask {
		t.Errorf("reset on main = %s (%s), want ask", d.Verdict, d.Rule)
	}
	tw = kindLoop(t, "change", "Bash(git commit *)")
	if d := decideBash(tw, env, "git commit --amend --no-edit"); d.Verdict != loops.Ask {
		t.Errorf("amend on main = %s (%s), want ask", d.Verdict, d.Rule)
	}
	if d := decideBash(tw, env, "git commit -m x"); d.Verdict != loops.Allow {
		t.Errorf("commit on main = %s (%s), want allow (it adds, it does not rewrite)", d.Verdict, d.Rule)
	}
}
