package typed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// attackRepo is the project the kind attacks run in: a root package.json
// whose honest-looking scripts hide sends in the places npm, pnpm and yarn
// look (lifecycle scripts, stop/start behind restart, nesting deeper than
// the gate follows), a workspace package whose build deploys, and a
// folder whose lint publishes.
func attackRepo(t *testing.T) Env {
	return kindRepo(t, map[string]string{
		"package.json": `{"name":"app","workspaces":["packages/*","tools/*"],"scripts":{"lint":"eslint .","build":"tsc",` +
			`"test":"vitest run","stop":"vercel --prod","postversion":"git push --follow-tags","prepack":"npm publish",` +
			`"d1":"npm run d2","d2":"npm run d3","d3":"npm run d4","d4":"npm publish","chain":"eslint . && npm publish",` +
			`"viaNpx":"npx -y np","viaExec":"npm exec -- npm publish"}}`,
		"packages/web/package.json": `{"name":"web","scripts":{"build":"vercel --prod","lint":"eslint ."}}`,
		"tools/cli/package.json":    `{"name":"cli","scripts":{"build":"npm publish","lint":"eslint ."}}`,
		"sub/package.json":          `{"name":"sub","scripts":{"lint":"npm publish"}}`,
		"sub2/package.json":         `{"name":"sub2","scripts":{"test":"npm publish"}}`,
		"dup/package.json":          `{"name":"dup","scripts":{"lint":"npm publish"},"Scripts":{"lint":"eslint ."}}`,
	})
}

// TestKindAttacksWide: each call's real kind is send (or a rewrite of a
// protected ref), and an entry under read or change names it. It must ask
// or deny, never allow (docs/typed-entries.md#kinds). Found by red-teaming
// issue 29; the ones that were allowed are fixed, the rest held already.
func TestKindAttacksWide(t *testing.T) {
	env := attackRepo(t)
	cases := []struct{ list, entry, call, branch string }{
		// npm, pnpm, yarn: option spellings and places.
		{"change", "Bash(pnpm *)", "pnpm --filter x publish", ""},
		{"change", "Bash(pnpm *)", "pnpm -C . publish", ""},
		{"change", "Bash(pnpm *)", "pnpm --dir=. publish", ""},
		{"change", "Bash(pnpm *)", "pnpm -w publish", ""},
		{"change", "Bash(pnpm *)", "pnpm -- publish", ""},
		{"change", "Bash(npm *)", "npm --prefix . publish", ""},
		{"change", "Bash(npm *)", "npm pub", ""},
		{"change", "Bash(npm *)", "npm publ", ""},
		{"change", "Bash(npm *)", "npm unpub x", ""},
		{"change", "Bash(npm *)", "npm --workspaces publish", ""},
		{"change", "Bash(npm *)", "npm -ws publish", ""},
		{"change", "Bash(npm *)", "npm exec -- npm publish", ""},
		{"change", "Bash(npm *)", "npm exec --yes -- np", ""},
		{"change", "Bash(npm *)", "npm x -- npm publish", ""},
		{"change", "Bash(npx *) + Bash(npm *)", "npx -y npm publish", ""},
		{"change", "Bash(npx *) + Bash(npm *)", "npx npm publish", ""},
		{"change", "Bash(npx *) + Bash(np *)", "npx np", ""},
		{"change", "Bash(np *)", "np", ""},
		{"change", "Bash(semantic-release *)", "semantic-release", ""},
		{"change", "Bash(release-it *)", "release-it", ""},
		{"change", "Bash(pnpm *) + Bash(npm *)", "pnpm exec npm publish", ""},
		{"change", "Bash(pnpm *)", "pnpm dlx np", ""},
		{"change", "Bash(pnpm *)", "pnpm dlx vercel --prod", ""},
		{"change", "Bash(yarn *)", "yarn dlx np", ""},
		{"change", "Bash(yarn *)", "yarn exec npm publish", ""},
		{"change", "Bash(npm *)", "npm explore lodash -- npm publish", ""},
		{"change", "Bash(corepack *)", "corepack pnpm publish", ""},
		{"change", "Bash(corepack *)", "corepack pnpm@9.1.0 publish", ""},
		{"change", "Bash(corepack *)", "corepack npm@10 publish", ""},
		{"change", "Bash(corepack *)", "corepack yarn npm publish", ""},
		{"change", "Bash(yarn *)", "yarn workspaces foreach npm publish", ""},
		{"change", "Bash(yarn *)", "yarn workspaces foreach -A run build", ""},
		{"change", "Bash(yarn *)", "yarn workspace web run build", ""},
		{"change", "Bash(yarn *)", "yarn workspace web build", ""},
		{"change", "Bash(yarn *)", "yarn run publish", ""},
		{"change", "Bash(yarn *)", "yarn --cwd sub lint", ""},
		{"change", "Bash(bun *)", "bun publish", ""},
		{"change", "Bash(bun publish *)", "bun publish", ""},
		{"change", "Bash(bun run *)", "bun run stop", ""},
		{"change", "Bash(bun run *)", "bun run np", ""},
		{"change", "Bash(bun x *)", "bun x np", ""},
		{"change", "Bash(deno *)", "deno publish", ""},
		{"change", "Bash(deno publish *)", "deno publish", ""},
		{"change", "Bash(pulumi *)", "pulumi up --yes", ""},
		{"change", "Bash(pulumi *)", "pulumi destroy", ""},
		{"read", "Bash(pulumi stack *)", "pulumi stack rm dev", ""},
		{"change", "Bash(cdk *)", "cdk deploy --all", ""},
		{"change", "Bash(wrangler *)", "wrangler deploy", ""},
		{"change", "Bash(wrangler *)", "wrangler kv key put x y", ""},
		{"change", "Bash(sls *)", "sls deploy", ""},
		{"change", "Bash(serverless *)", "serverless remove", ""},
		{"change", "Bash(sam *)", "sam deploy", ""},
		{"change", "Bash(sam *)", "sam sync --watch", ""},
		// package scripts.
		{"change", "Bash(npm *)", "npm run-script stop", ""},
		{"change", "Bash(npm *)", "npm rum stop", ""},
		{"change", "Bash(npm *)", "npm urn stop", ""},
		{"change", "Bash(npm *)", "npm stop", ""},
		{"change", "Bash(npm *)", "npm restart", ""},
		{"change", "Bash(npm *)", "npm run lint --script-shell=./x.sh", ""},
		{"change", "Bash(npm *)", "npm --script-shell ./x.sh run lint", ""},
		{"change", "Bash(npm *)", "npm run lint --node-options=--require=./evil.js", ""},
		{"change", "Bash(npm *)", "npm test --userconfig ./evil.npmrc", ""},
		{"change", "Bash(npm *)", "npm run d1", ""},
		{"change", "Bash(npm *)", "npm run chain", ""},
		{"change", "Bash(npm *)", "npm run viaNpx", ""},
		{"change", "Bash(npm *)", "npm run viaExec", ""},
		{"change", "Bash(npm *)", "npm version patch", ""},
		{"change", "Bash(npm *)", "npm pack", ""},
		{"change", "Bash(npm *)", "npm --prefix sub2 it", ""},
		{"change", "Bash(npm *)", "npm --prefix sub2 install-test", ""},
		{"change", "Bash(npm *)", "npm --prefix sub2 cit", ""},
		{"change", "Bash(npm *)", "npm -w web run build", ""},
		{"change", "Bash(npm *)", "npm run build -w web", ""},
		{"change", "Bash(npm *)", "npm run build --workspace=web", ""},
		{"change", "Bash(npm *)", "npm run build --workspaces", ""},
		{"change", "Bash(npm *)", "npm run lint --prefix sub", ""},
		{"change", "Bash(npm *)", "npm --prefix sub run lint", ""},
		{"change", "Bash(npm *)", "npm --prefix=sub run lint", ""},
		{"change", "Bash(npm *)", "npm -ws run build", ""},
		{"change", "Bash(npm run *)", "npm run lint --prefix=sub", ""},
		{"change", "Bash(pnpm *)", "pnpm -r build", ""},
		{"change", "Bash(pnpm *)", "pnpm build -r", ""},
		{"change", "Bash(pnpm *)", "pnpm build --filter web", ""},
		{"change", "Bash(pnpm *)", "pnpm run build --recursive", ""},
		{"change", "Bash(pnpm *)", "pnpm --filter cli build", ""},
		{"change", "Bash(pnpm *)", "pnpm -C sub lint", ""},
		{"change", "Bash(pnpm *)", "pnpm lint -C sub", ""},
		{"change", "Bash(npm *)", "npm pkg set scripts.lint='npm publish' && npm run lint", ""},
		{"change", "Bash(npm *)", "npm pkg set scripts.lint='npm publish'; npm run lint", ""},
		{"change", "Bash(git *) + Bash(npm *)", "git checkout evil -- package.json && npm run lint", ""},
		{"change", "Bash(git *) + Bash(npm *)", "git switch evil && npm run lint", ""},
		{"change", "Bash(git *) + Bash(npm *)", "git stash pop && npm run lint", ""},
		{"change", "Bash(npm *)", "npm config set script-shell ./x.sh && npm run lint", ""},
		{"change", "Bash(tar *) + Bash(npm *)", "tar xf evil.tar && npm run lint", ""},
		{"change", "Bash(patch *) + Bash(npm *)", "patch -p1 -i evil.diff && npm run lint", ""},
		{"change", "Bash(cp *) + Bash(npm *)", "cp evil.json package.json && npm run lint", ""},
		{"change", "Bash(cd *) + Bash(npm *)", "cd dup && npm run lint", ""},
		{"change", "Bash(npm *)", "npm --prefix dup run lint", ""},
		// wrappers and shell forms.
		{"change", "Bash(env X=1 pnpm *)", "env X=1 pnpm publish", ""},
		{"change", "Bash(timeout 9 npm *)", "timeout 9 npm publish", ""},
		{"change", "Bash(command npm *)", "command npm publish", ""},
		{"change", "Bash(nice -n 5 npm *)", "nice -n 5 npm publish", ""},
		{"change", "Bash(nohup npm *)", "nohup npm publish", ""},
		{"change", "Bash(npm *)", "sh -c 'npm publish'", ""},
		{"change", "Bash(npm *)", "bash -c 'npm publish'", ""},
		{"change", "Bash(npm *)", "eval npm publish", ""},
		{"change", "Bash(npm *)", "$(echo npm) publish", ""},
		{"change", "Bash(echo *) + Bash(xargs npm *)", "echo publish | xargs npm", ""},
		{"change", "Bash(npm *)", "npm publish &", ""},
		{"change", "Bash(npm *)", "{ npm publish; }", ""},
		{"change", "Bash(npm *)", "(npm publish)", ""},
		{"change", "Bash(npm *)", "npm test || npm publish", ""},
		{"change", "Bash(npm *)", "\\npm publish", ""},
		{"change", "Bash(npm *)", "\"npm\" publish", ""},
		{"change", "Bash(npm *)", "n\\pm publish", ""},
		{"change", "Bash(npm *)", "'np'm pu'bl'ish", ""},
		{"change", "Bash(npm *)", "PATH=./bin:$PATH npm run lint", ""},
		{"change", "Bash(npm *)", "alias l='npm publish'; l", ""},
		{"change", "Bash(npm *)", "f() { npm publish; }; f", ""},
		{"change", "Bash(npm *)", "npm $'publish'", ""},
		{"change", "Bash(/usr/bin/npm *)", "/usr/bin/npm publish", ""},
		{"change", "Bash(./node_modules/.bin/npm *)", "./node_modules/.bin/npm publish", ""},
		{"change", "Bash(sudo -u me npm *)", "sudo -u me npm publish", ""},
		{"change", "Bash(find . -maxdepth 0 -exec npm *)", "find . -maxdepth 0 -exec npm publish \\;", ""},
		{"change", "Bash(watch -n 60 npm *)", "watch -n 60 npm publish", ""},
		{"change", "Bash(uv *) + Bash(twine *)", "uv run twine upload dist/x", ""},
		{"change", "Bash(uv *)", "uv tool run twine upload dist/x", ""},
		{"change", "Bash(uvx *)", "uvx twine upload dist/x", ""},
		{"change", "Bash(pipx *)", "pipx run twine upload dist/x", ""},
		{"change", "Bash(poetry *) + Bash(twine *)", "poetry run twine upload dist/x", ""},
		{"change", "Bash(poetry *)", "poetry publish --build", ""},
		{"change", "Bash(make *)", "make -C . publish", ""},
		// git.
		{"change", "Bash(git *)", "git -c alias.p=push p", ""},
		{"change", "Bash(git *)", "git -C . push", ""},
		{"change", "Bash(git *)", "git --git-dir=.git push", ""},
		{"change", "Bash(git *)", "git --work-tree=. push origin HEAD", ""},
		{"change", "Bash(git *)", "git send-email x.patch", ""},
		{"change", "Bash(git *)", "git branch -M main", ""},
		{"change", "Bash(git *)", "git branch --force main", ""},
		{"change", "Bash(git *)", "git branch -D main", ""},
		{"change", "Bash(git *)", "git branch -m main old", ""},
		{"change", "Bash(git *)", "git branch --delete main", ""},
		{"change", "Bash(git *)", "git branch --del main", ""},
		{"change", "Bash(git *)", "git branch --forc main HEAD~1", ""},
		{"change", "Bash(git *)", "git branch -fmain HEAD~1", ""},
		{"change", "Bash(git *)", "git branch -m main", "main"},
		{"change", "Bash(git *)", "git branch -M x", "main"},
		{"change", "Bash(git *)", "git branch -c main", ""},
		{"change", "Bash(git *)", "git branch -f master origin/x", ""},
		{"change", "Bash(git *)", "git branch -f release/1.2 x", ""},
		{"change", "Bash(git *)", "git branch -f refs/heads/main x", ""},
		{"change", "Bash(git *)", "git update-ref -d refs/heads/main", ""},
		{"change", "Bash(git *)", "git update-ref --stdin", ""},
		{"change", "Bash(git *)", "git update-ref refs/tags/v1 HEAD", ""},
		{"change", "Bash(git *)", "git update-ref HEAD HEAD~1", "main"},
		{"change", "Bash(git *)", "git symbolic-ref refs/heads/main refs/heads/x", ""},
		{"change", "Bash(git *)", "git tag -f v1", ""},
		{"change", "Bash(git *)", "git tag --force v1", ""},
		{"change", "Bash(git *)", "git tag -fa v1 -m x", ""},
		{"change", "Bash(git *)", "git tag -af v1 -m x", ""},
		{"change", "Bash(git *)", "git tag --delete v1", ""},
		{"change", "Bash(git *)", "git tag --del v1", ""},
		{"change", "Bash(git *)", "git checkout -B main", ""},
		{"change", "Bash(git *)", "git checkout -Bmain", ""},
		{"change", "Bash(git *)", "git checkout -B main origin/x", ""},
		{"change", "Bash(git *)", "git switch -C main", ""},
		{"change", "Bash(git *)", "git switch --force-create main", ""},
		{"change", "Bash(git *)", "git switch --force-c main", ""},
		{"change", "Bash(git *)", "git switch -Cmain", ""},
		{"change", "Bash(git *)", "git reset --hard HEAD~1", "main"},
		{"change", "Bash(git *)", "git reset --soft @~1", "main"},
		{"change", "Bash(git *)", "git reset --keep HEAD^", "main"},
		{"change", "Bash(git *)", "git commit --amend --no-edit", "main"},
		{"change", "Bash(git *)", "git commit --amen --no-edit", "main"},
		{"change", "Bash(git *)", "git commit --ame -m x", "main"},
		{"change", "Bash(git *)", "git switch main; git commit --amend --no-edit", ""},
		{"change", "Bash(git *)", "git switch main && git reset --hard HEAD~1", ""},
		{"change", "Bash(git *)", "git switch - && git reset --hard HEAD~1", ""},
		{"change", "Bash(git *)", "git rebase --update-refs HEAD~3", ""},
		{"change", "Bash(git *)", "git branch -f MAIN HEAD~1", ""},
		{"change", "Bash(git *)", "git worktree add -B main ../w HEAD~3", ""},
		{"change", "Bash(git *)", "git worktree add -f -B master ../w", ""},
		{"change", "Bash(git *)", "git rebase --root", ""},
		{"change", "Bash(git *)", "git rebase --roo", ""},
		{"change", "Bash(git *)", "git rebase -i HEAD~3", "main"},
		{"change", "Bash(git *)", "git rebase x main", ""},
		{"change", "Bash(git *)", "git rebase --onto x y main", ""},
		{"change", "Bash(git *)", "git rebase -x 'npm publish' HEAD~1", ""},
		{"change", "Bash(git *)", "git rebase --exec 'git push' HEAD~1", ""},
		{"change", "Bash(git *)", "git filter-branch -f HEAD", ""},
		{"change", "Bash(git *)", "git filter-repo --force", ""},
		{"change", "Bash(git *)", "git submodule foreach 'git push'", ""},
		{"change", "Bash(git *)", "git submodule foreach --recursive git push", ""},
		{"change", "Bash(git *)", "git bisect run npm publish", ""},
		{"read", "Bash(git *)", "git -c core.pager='npm publish' log", ""},
		{"read", "Bash(git *)", "git -c core.fsmonitor='npm publish' status", ""},
		{"read", "Bash(git *)", "git -c core.sshCommand='npm publish' fetch", ""},
		{"read", "Bash(git *)", "git ls-remote --upload-pack='npm publish' .", ""},
		{"read", "Bash(git *)", "git fetch --upload-pack='npm publish' .", ""},
		{"read", "Bash(git *)", "git grep -O'npm publish' x", ""},
		{"read", "Bash(git *)", "git grep --open-files-in-pager='npm publish' x", ""},
		{"read", "Bash(git *)", "git -c diff.external='npm publish' diff", ""},
		{"read", "Bash(git *)", "GIT_PAGER='npm publish' git log", ""},
		{"read", "Bash(git *)", "GIT_EXTERNAL_DIFF='npm publish' git diff", ""},
		{"read", "Bash(git *)", "git difftool -y -x 'npm publish'", ""},
		{"read", "Bash(git *)", "git archive --remote=origin --exec='npm publish' HEAD", ""},
		{"read", "Bash(git *)", "git fetch origin main:main", ""},
		{"read", "Bash(git *)", "git fetch origin +x:refs/tags/v1", ""},
		{"read", "Bash(git *)", "git push", ""},
		{"read", "Bash(git *)", "git status && git push", ""},
		{"change", "Bash(git config *)", "git config alias.x '!npm publish' && git x", ""},
		// gh.
		{"read", "Bash(gh api *)", "gh api -XPUT repos/o/r/pulls/1/merge", ""},
		{"read", "Bash(gh api *)", "gh api --method=put repos/o/r/pulls/1/merge", ""},
		{"read", "Bash(gh api *)", "gh api -X put repos/o/r/pulls/1/merge", ""},
		{"read", "Bash(gh api *)", "gh api -Xput repos/o/r/pulls/1/merge", ""},
		{"read", "Bash(gh api *)", "gh api repos/o/r/pulls/1/merge --method PUT", ""},
		{"read", "Bash(gh api *)", "gh api repos/o/r/issues -f title=x", ""},
		{"read", "Bash(gh api *)", "gh api repos/o/r/issues -ftitle=x", ""},
		{"read", "Bash(gh api *)", "gh api repos/o/r/issues -F title=x", ""},
		{"read", "Bash(gh api *)", "gh api repos/o/r/issues -Ftitle=x", ""},
		{"read", "Bash(gh api *)", "gh api repos/o/r/issues --field title=x", ""},
		{"read", "Bash(gh api *)", "gh api repos/o/r/issues --field=title=x", ""},
		{"read", "Bash(gh api *)", "gh api repos/o/r/issues --raw-field title=x", ""},
		{"read", "Bash(gh api *)", "gh api repos/o/r/issues --input body.json", ""},
		{"read", "Bash(gh api *)", "gh api repos/o/r/issues --input=body.json", ""},
		{"read", "Bash(gh api *)", "gh api graphql -F query=@q.graphql", ""},
		{"read", "Bash(gh api *)", "gh api graphql -fquery=@q.graphql", ""},
		{"read", "Bash(gh api *)", "gh api graphql --input q.json", ""},
		{"read", "Bash(gh api *)", "gh api graphql -f query='mutation { x }'", ""},
		{"read", "Bash(gh api *)", "gh api graphql -f query='mutation{x}'", ""},
		{"read", "Bash(gh api *)", "gh api graphql -fquery='mutation{x}'", ""},
		{"read", "Bash(gh api *)", "gh api graphql -f query='query{a}' -f query='mutation{x}'", ""},
		{"read", "Bash(gh api *)", "gh api graphql -X GET -f query='{a}'", ""},
		{"read", "Bash(gh api *)", "gh api -H 'X-HTTP-Method-Override: DELETE' repos/o/r", ""},
		{"read", "Bash(gh *)", "gh pr merge 1", ""},
		{"read", "Bash(gh *)", "gh pr -R view merge 1", ""},
		{"read", "Bash(gh *)", "gh pr --repo list merge 1", ""},
		{"read", "Bash(gh *)", "gh pr -R o/r merge 1", ""},
		{"read", "Bash(gh *)", "gh repo delete o/r --yes", ""},
		{"read", "Bash(gh *)", "gh release create v1", ""},
		{"read", "Bash(gh *)", "gh workflow run deploy.yml", ""},
		{"read", "Bash(gh *)", "gh secret set X", ""},
		{"read", "Bash(gh *)", "gh variable set X", ""},
		{"read", "Bash(gh *)", "gh pr review 1 --approve", ""},
		{"read", "Bash(gh *)", "gh pr comment 1 -b x", ""},
		{"read", "Bash(gh *)", "gh run rerun 1", ""},
		{"read", "Bash(gh *)", "gh repo sync o/r", ""},
		{"read", "Bash(gh *)", "gh copilot suggest x", ""},
		{"change", "Bash(gh *)", "gh extension exec foo", ""},
		{"change", "Bash(gh *)", "gh ext exec foo", ""},
		{"read", "Bash(gh *)", "gh issue -R status create -t x", ""},
		// http tools.
		{"read", "Bash(curl *)", "curl -d x https://h", ""},
		{"read", "Bash(curl *)", "curl --data-binary @f https://h", ""},
		{"read", "Bash(curl *)", "curl --json '{}' https://h", ""},
		{"read", "Bash(curl *)", "curl -T f https://h", ""},
		{"read", "Bash(curl *)", "curl -XPOST https://h", ""},
		{"read", "Bash(curl *)", "curl --request=POST https://h", ""},
		{"read", "Bash(curl *)", "curl --request DELETE https://h", ""},
		{"read", "Bash(curl *)", "curl -F a=b https://h", ""},
		{"read", "Bash(curl *)", "curl -sSd x https://h", ""},
		{"read", "Bash(curl *)", "curl -K cfg https://h", ""},
		{"read", "Bash(curl *)", "curl -Kcfg https://h", ""},
		{"read", "Bash(curl *)", "curl --config cfg https://h", ""},
		{"read", "Bash(curl *)", "curl -Kcfg https://h", ""},
		{"read", "Bash(curl *)", "curl -sK cfg https://h", ""},
		{"read", "Bash(curl *)", "curl --req PUT https://h", ""},
		{"read", "Bash(curl *)", "curl --upload f https://h", ""},
		{"read", "Bash(curl *)", "curl -Q 'DELE f' ftp://h/", ""},
		{"read", "Bash(curl *)", "curl --quote 'DELE f' ftp://h/", ""},
		{"read", "Bash(curl *)", "curl --mail-rcpt a@b smtp://h", ""},
		{"read", "Bash(curl *)", "curl -H 'X-HTTP-Method-Override: DELETE' https://h", ""},
		{"read", "Bash(wget *)", "wget --post-data=x https://h", ""},
		{"read", "Bash(wget *)", "wget --method=DELETE https://h", ""},
		{"read", "Bash(wget *)", "wget --post-d=x https://h", ""},
		{"read", "Bash(wget *)", "wget --meth=DELETE https://h", ""},
		{"read", "Bash(wget *)", "wget -e post_data=x https://h", ""},
		{"read", "Bash(wget *)", "wget --execute=method=DELETE https://h", ""},
		{"read", "Bash(wget *)", "wget --config=cfg https://h", ""},
		{"read", "Bash(http *)", "http POST https://h a=b", ""},
		{"read", "Bash(http *)", "http https://h a=b", ""},
		{"read", "Bash(https *)", "https DELETE h/x", ""},
		{"read", "Bash(xh *)", "xh post h a=b", ""},
		// cloud and infrastructure.
		{"change", "Bash(kubectl *)", "kubectl apply -f k.yaml", ""},
		{"change", "Bash(kubectl *)", "kubectl delete pod x", ""},
		{"change", "Bash(kubectl *)", "kubectl edit deploy x", ""},
		{"change", "Bash(kubectl *)", "kubectl patch deploy x -p '{}'", ""},
		{"change", "Bash(kubectl *)", "kubectl scale deploy x --replicas=0", ""},
		{"read", "Bash(kubectl *)", "kubectl --context x apply -f k.yaml", ""},
		{"read", "Bash(kubectl *)", "kubectl rollout -l status restart deploy/x", ""},
		{"read", "Bash(kubectl *)", "kubectl config --kubeconfig view set-context x", ""},
		{"change", "Bash(helm *)", "helm upgrade app ./chart", ""},
		{"change", "Bash(helm *)", "helm --kube-context x install app ./c", ""},
		{"change", "Bash(terraform *)", "terraform apply -auto-approve", ""},
		{"change", "Bash(terraform *)", "terraform -chdir=x apply", ""},
		{"change", "Bash(terraform *)", "terraform test", ""},
		{"change", "Bash(terraform *)", "terraform workspace delete prod", ""},
		{"change", "Bash(terraform *)", "terraform init -migrate-state -force-copy", ""},
		{"change", "Bash(tofu *)", "tofu destroy", ""},
		{"change", "Bash(docker *)", "docker push x", ""},
		{"change", "Bash(docker *)", "docker buildx build --push .", ""},
		{"change", "Bash(docker *)", "docker buildx build --output=type=registry .", ""},
		{"change", "Bash(docker *)", "docker buildx build -o type=registry .", ""},
		{"change", "Bash(docker *)", "docker compose build --push", ""},
		{"change", "Bash(docker *)", "docker compose -f x.yml push", ""},
		{"change", "Bash(docker *)", "docker compose -f ls push", ""},
		{"change", "Bash(docker *)", "docker image -q push x", ""},
		{"change", "Bash(docker *)", "docker -H ssh://prod rm -f db", ""},
		{"change", "Bash(docker *)", "docker --context prod rm -f db", ""},
		{"change", "Bash(docker *)", "docker stack deploy -c s.yml app", ""},
		{"change", "Bash(cargo *)", "cargo publish", ""},
		{"change", "Bash(cargo *)", "cargo yank --version 1.0.0", ""},
		{"change", "Bash(cargo *)", "cargo +nightly publish", ""},
		{"change", "Bash(cargo *)", "cargo -Zx publish", ""},
		{"change", "Bash(cargo *)", "cargo --frozen publish", ""},
		{"change", "Bash(uv *)", "uv publish", ""},
		{"change", "Bash(twine *)", "twine upload dist/*", ""},
		{"change", "Bash(aws *)", "aws s3 cp x s3://b/x", ""},
		{"change", "Bash(aws *)", "aws s3 sync . s3://b", ""},
		{"read", "Bash(aws *)", "aws --region eu-west-1 ec2 terminate-instances --instance-ids i", ""},
		{"read", "Bash(gcloud *)", "gcloud run deploy x", ""},
		{"read", "Bash(gcloud *)", "gcloud compute instances --impersonate-service-account list delete x", ""},
		{"change", "Bash(vercel *)", "vercel --prod", ""},
		{"change", "Bash(vercel *)", "vercel deploy --prod", ""},
		{"change", "Bash(netlify *)", "netlify deploy --prod", ""},
		{"change", "Bash(fly *)", "fly deploy", ""},
		{"change", "Bash(flyctl *)", "flyctl deploy", ""},
		{"change", "Bash(firebase *)", "firebase deploy", ""},
		{"change", "Bash(heroku *)", "heroku releases:rollback", ""},
		{"change", "Bash(gsutil *)", "gsutil -m rm gs://b/x", ""},
		{"change", "Bash(az *)", "az group delete -n x", ""},
	}
	for _, c := range cases {
		var extra []string
		entries := strings.Split(c.entry, " + ")
		for _, more := range entries[1:] {
			extra = append(extra, c.list, more)
		}
		tw := kindLoop(t, c.list, entries[0], append(extra, "ask", "Edit(**/package.json)", "ask", "Edit(**/.npmrc)")...)
		e := env
		if c.branch != "" {
			e.Branch = c.branch
		}
		d := decideBash(tw, e, c.call)
		if testing.Verbose() {
			t.Logf("%-6s %-28s %-60s %s: %s", c.list, c.entry, c.call, d.Verdict, d.Rule)
		}
		if d.Verdict == loops.Allow {
			t.Errorf("%s under %s: %s = allow (%s), want ask", c.entry, c.list, c.call, d.Rule)
		}
	}
}

// TestKindAttacksHonest: the fixes for TestKindAttacksWide leave the
// honest forms next to each attack allowed.
func TestKindAttacksHonest(t *testing.T) {
	env := attackRepo(t)
	cases := []struct{ list, entry, call string }{
		{"change", "Bash(npm *)", "npm run lint"},
		{"change", "Bash(npm *)", "npm run lint -w cli --if-present -- --fix"},
		{"change", "Bash(npm *)", "npm ci && npm run lint"},
		{"change", "Bash(npm *) + Bash(eslint *)", "npm exec -- eslint ."},
		{"change", "Bash(npm *)", "npm pkg get scripts && npm run lint"},
		{"change", "Bash(npm *)", "npm config get registry && npm run lint"},
		{"change", "Bash(npm *)", "npm --prefix sub2 ci"},
		{"change", "Bash(git *) + Bash(npm *)", "git checkout -b fix/x && npm run lint"},
		{"change", "Bash(pnpm *)", "pnpm --filter web lint"},
		{"change", "Bash(bun run *)", "bun run lint"},
		{"change", "Bash(bun run *)", "bun run src/index.ts"},
		{"change", "Bash(bun test *)", "bun test"},
		{"read", "Bash(pulumi preview *)", "pulumi preview"},
		{"read", "Bash(cdk *)", "cdk diff"},
		{"change", "Bash(wrangler *)", "wrangler dev"},
		{"change", "Bash(sam *)", "sam build"},
		{"change", "Bash(sam *)", "sam local invoke F"},
		{"change", "Bash(deno task *)", "deno task dev"},
		{"change", "Bash(git *)", "git switch -c fix/y && git commit --amend --no-edit"},
		{"change", "Bash(git *)", "git rebase --no-update-refs HEAD~3"},
		{"change", "Bash(git *)", "git worktree add -b fix/z ../w"},
		{"change", "Bash(corepack *)", "corepack pnpm@9.1.0 install"},
		{"change", "Bash(yarn *)", "yarn workspace web run lint"},
		{"read", "Bash(gh api *)", "gh api -H 'Accept: application/vnd.github+json' repos/o/r"},
		{"read", "Bash(curl *)", "curl -sSL -H 'Accept: application/json' https://h"},
		{"read", "Bash(curl *)", "curl --request-target '*' -X GET https://h"},
		{"read", "Bash(wget *)", "wget -qO- https://h"},
		{"read", "Bash(http *)", "http https://h q==1 Accept:application/json"},
		{"read", "Bash(http *)", "http GET https://h"},
		{"read", "Bash(xh *)", "xh h/x"},
		{"read", "Bash(kubectl *)", "kubectl rollout status deploy/x -n y"},
		{"read", "Bash(kubectl *)", "kubectl -n y get pods -o wide"},
		{"change", "Bash(docker *)", "docker compose -f docker-compose.yml up -d"},
		{"change", "Bash(docker *)", "docker compose -p app build"},
		{"change", "Bash(docker *)", "docker build -f Dockerfile -t app ."},
		{"change", "Bash(terraform *)", "terraform init -upgrade"},
		{"change", "Bash(terraform *)", "terraform workspace select dev"},
		{"read", "Bash(gcloud *)", "gcloud compute instances list --filter=name:x"},
		{"read", "Bash(semantic-release *)", "semantic-release --help"},
	}
	for _, c := range cases {
		var extra []string
		entries := strings.Split(c.entry, " + ")
		for _, more := range entries[1:] {
			extra = append(extra, c.list, more)
		}
		tw := kindLoop(t, c.list, entries[0], append(extra, "ask", "Edit(**/package.json)")...)
		if d := decideBash(tw, env, c.call); d.Verdict != loops.Allow {
			t.Errorf("%s under %s: %s = %s (%s), want allow", c.entry, c.list, c.call, d.Verdict, d.Rule)
		}
	}
}

// TestKindRepoOptionReads: gh's -R takes a value, so `gh pr -R o/r view`
// is a view (its entry is a matter of the repository it names).
func TestKindRepoOptionReads(t *testing.T) {
	if k := ghKind("gh", []string{"pr", "-R", "o/r", "view", "1"}); k.Verb != loops.Read {
		t.Errorf("gh pr -R o/r view 1 = %s (%s), want read", k.Verb, k.Why)
	}
}

// TestKindAttacksManifestFile: a package.json the gate cannot read as
// Node does, or one the agent may edit by another name, never lets a
// script run be allowed by a change entry.
func TestKindAttacksManifestFile(t *testing.T) {
	env := kindRepo(t, map[string]string{
		"notes/pkg.json":        `{"name":"app","scripts":{"lint":"eslint ."}}`,
		"bom/package.json":      "\ufeff" + `{"name":"bom","scripts":{"lint":"npm publish"}}`,
		"comments/package.json": "// x\n" + `{"name":"c","scripts":{"lint":"eslint ."}}`,
	})
	if err := os.Symlink("notes/pkg.json", filepath.Join(env.Root, "package.json")); err != nil {
		t.Fatal(err)
	}
	// The link's target is editable under change: what lint runs is the
	// agent's to say.
	tw := kindLoop(t, "change", "Bash(npm *)", "change", "Edit(notes/**)", "ask", "Edit(package.json)")
	if d := decideBash(tw, env, "npm run lint"); d.Verdict == loops.Allow {
		t.Errorf("npm run lint through a linked, editable package.json = allow (%s), want ask", d.Rule)
	}
	tw = kindLoop(t, "change", "Bash(npm *)", "ask", "Edit(**/package.json)")
	for _, call := range []string{"npm --prefix bom run lint", "npm --prefix comments run lint"} {
		if d := decideBash(tw, env, call); d.Verdict == loops.Allow {
			t.Errorf("%s = allow (%s), want ask", call, d.Rule)
		}
	}
}

// TestKindAttacksLint: lint's reach names the new wide kinds for an entry
// whose words lead to them, so `misfiled` warns about it.
func TestKindAttacksLint(t *testing.T) {
	env := attackRepo(t)
	cases := []struct{ list, entry string }{
		{"change", "Bash(npm version *)"},
		{"change", "Bash(bun run *)"},
		{"read", "Bash(wget *)"},
		{"read", "Bash(http *)"},
		{"change", "Bash(terraform *)"},
		{"change", "Bash(pulumi *)"},
		{"change", "Bash(wrangler *)"},
		{"read", "Bash(kubectl rollout *)"},
	}
	for _, c := range cases {
		tw := kindLoop(t, c.list, c.entry)
		if len(tw.Allow) != 1 {
			t.Fatalf("%s: %d allow entries", c.entry, len(tw.Allow))
		}
		e := tw.Allow[0]
		if k := Reach(e, env); ListAllows(c.list, k.Verb) {
			t.Errorf("%s under %s reaches %s (%s), want wider than its list", c.entry, c.list, k.Verb, k.Why)
		}
	}
}
