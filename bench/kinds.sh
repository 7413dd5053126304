#!/bin/sh
# bench/kinds.sh — what kinds cost the hook's decision (issue 29,
# "Performance": within 1.1× of the decision before kinds). Builds the
# static gitwarrant at three revisions — BEFORE (the main line right before
# kinds were merged), KINDS (the merge that brought them) and the work tree
# — and times `hook claude --loop fix-bug-on-branch --no-record` of each on
# the same payloads, interleaved with `git rev-parse HEAD` for scale
# (bench/interleave: every command sees the same load). KINDS / BEFORE is
# the cost of kinds alone; NOW / BEFORE also holds every change since.
# Two payloads: a compound of calls the loop allows, each classified
# (`git status`, `git diff`, `gh pr view`, `git log`, `git add`), and bench/gate.sh's
# push.
#
# Usage: bench/kinds.sh [runs]   (default 40; BEFORE=<rev> KINDS=<rev>)
set -eu
runs=${1:-40}
before=${BEFORE:-83d79bd}
kinds=${KINDS:-f45e5a3}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/lib.sh"
work=$(mktemp -d)
trap 'cd /; git -C "$here" worktree remove --force "$work/src-before" 2>/dev/null; git -C "$here" worktree remove --force "$work/src-kinds" 2>/dev/null; rm -rf "$work"' EXIT
for r in before kinds; do
  eval rev=\$$r
  git -C "$here" worktree add -q --detach "$work/src-$r" "$rev"
  (cd "$work/src-$r" && CGO_ENABLED=0 go build -o "$work/gitwarrant-$r" ./cmd/gitwarrant)
done
(cd "$here" && CGO_ENABLED=0 go build -o "$work/gitwarrant-now" ./cmd/gitwarrant && go build -o "$work/interleave" ./bench/interleave)
repo="$work/repo"
templates_repo "$work/gitwarrant-now" "$repo"
git switch -q -c fix/login
payload() {
  printf '{"session_id":"8c1f","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"tool_use_id":"toolu_01XyZ"}\n' "$repo" "$1"
}
payload 'git status && git diff --stat && gh pr view 12 && git log --oneline -5 && git add -A' > "$work/allowed.json"
payload 'git push origin fix/login && go test ./... 2>&1 | tee /tmp/test.log # push the fix' > "$work/push.json"
for p in allowed push; do
  for b in before kinds now; do
    echo "$p, $b: $("$work/gitwarrant-$b" hook claude --loop fix-bug-on-branch --no-record < "$work/$p.json")" >&2
  done
done
echo "load: $(uptime)"
for p in allowed push; do
  echo
  echo "### $p"
  "$work/interleave" -runs "$runs" -warmup 5 -stdin "$work/$p.json" -floor floor -ref before -json "$work/$p.m.json" \
    "floor=:" \
    "git=git rev-parse HEAD" \
    "before=$work/gitwarrant-before hook claude --loop fix-bug-on-branch --no-record" \
    "kinds=$work/gitwarrant-kinds hook claude --loop fix-bug-on-branch --no-record" \
    "now=$work/gitwarrant-now hook claude --loop fix-bug-on-branch --no-record"
  interleave_aims "$work/$p.m.json" floor "kinds|before|1.1" "now|before|1.1"
done
echo "load after: $(uptime)"
