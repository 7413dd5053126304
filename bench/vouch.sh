#!/bin/sh
# bench/vouch.sh — what "only a signed warrant is in force" costs a hook
# decision (docs/signing.md#the-cache): the static build of this tree
# against the static build of a base revision, in one interleaved run, on
# the same repository (one signer, every template loop blessed, a record
# of a few hundred entries):
#   base      the base revision's pinned hook (no vouching)
#   vouched   this tree's, the loop signed as it stands, cache warm
#   first     this tree's, the first decision after a new signed entry:
#             the cache emptied, so every chain is read and every
#             signature verified once (rm's cost included)
# Aims: vouched / base ≤ 1.1, first / base ≤ 3.
#
# Usage: bench/vouch.sh [runs] [base-rev]   (default 30, HEAD~0 of main)
set -eu
runs=${1:-30}
base=${2:-main}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$here" && CGO_ENABLED=0 go build -o "$work/new" ./cmd/gitwarrant)
mkdir "$work/basesrc"
(cd "$here" && git archive "$base" | tar -x -C "$work/basesrc")
(cd "$work/basesrc" && CGO_ENABLED=0 go build -o "$work/old" ./cmd/gitwarrant)
repo="$work/repo"
mkdir -p "$repo"
cd "$repo"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
git init -q -b main
git config user.email bench@example.com
"$work/new" init >/dev/null
for t in $("$work/new" templates | awk '$1 ~ /^[a-z0-9-]+$/ {print $1}'); do
  "$work/new" new "$t" --template "$t" >/dev/null 2>&1 || true
done
git add -A && git commit -q -m init
ssh-keygen -q -t ed25519 -N '' -C b -f "$work/key"
"$work/new" signers add bench@example.com "$work/key.pub" --key "$work/key" >/dev/null 2>&1
git add -A && git commit -q -m signer
pl="$work/payload.json"
cat > "$pl" <<JSON
{"session_id":"8c1f","cwd":"$repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin feature/login-fix && go test ./... 2>&1 | tee /tmp/test.log # push the fix"},"tool_use_id":"toolu_01XyZ"}
JSON
for i in $(seq 300); do "$work/new" hook claude --loop fix-bug-on-branch < "$pl" >/dev/null; done
echo "sanity: $("$work/new" hook claude --loop fix-bug-on-branch --no-record < "$pl")" >&2
(cd "$here" && go build -o "$work/interleave" ./bench/interleave)
"$work/interleave" -runs "$runs" -warmup 5 -stdin "$pl" -floor floor -ref base -json "$work/m.json" \
  "floor=:" \
  "base=$work/old hook claude --loop fix-bug-on-branch --no-record" \
  "vouched=$work/new hook claude --loop fix-bug-on-branch --no-record" \
  "first=rm -rf .git/gitwarrant/vouch; $work/new hook claude --loop fix-bug-on-branch --no-record"
