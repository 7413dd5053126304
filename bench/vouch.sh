#!/bin/sh
# bench/vouch.sh — what "only a signed warrant is in force" costs a hook
# decision (docs/signing.md#the-cache): the static build of this tree
# against the static build of a base revision, in one interleaved run, on
# the same repository (one signer, every template loop blessed, a record
# of a few hundred entries):
#   base      the base revision's pinned hook (before vouching: 343bc78)
#   unsigned  this tree's, on a copy of the repository made before the
#             signer was added (no vouching: every loop in force as is)
#   vouched   this tree's, the loop signed as it stands, caches warm
#   first     this tree's, the first decision after a new signed entry:
#             the vouch cache and the parse cache emptied, so every
#             chain is read, every signature verified and every loop
#             parsed once (rm's cost included)
# Aims: vouched / base ≤ 1.1 and vouched / unsigned ≤ 1.1 (the same
# build), first / base ≤ 3.
#
# Usage: bench/vouch.sh [runs] [base-rev]   (default 30, 343bc78)
set -eu
runs=${1:-30}
base=${2:-343bc78}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/lib.sh"
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
cp -r "$repo" "$work/plain"
ssh-keygen -q -t ed25519 -N '' -C b -f "$work/key"
"$work/new" signers add bench@example.com "$work/key.pub" --key "$work/key" >/dev/null 2>&1
git add -A && git commit -q -m signer
pl="$work/payload.json"
cat > "$pl" <<JSON
{"session_id":"8c1f","cwd":"$repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin feature/login-fix && go test ./... 2>&1 | tee /tmp/test.log # push the fix"},"tool_use_id":"toolu_01XyZ"}
JSON
sed "s#$repo#$work/plain#" "$pl" > "$work/plain.json"
for i in $(seq 300); do "$work/new" hook claude --loop fix-bug-on-branch < "$pl" >/dev/null; done
for i in $(seq 300); do "$work/new" hook claude --loop fix-bug-on-branch < "$work/plain.json" >/dev/null; done
echo "sanity: $("$work/new" hook claude --loop fix-bug-on-branch --no-record < "$pl")" >&2
(cd "$here" && go build -o "$work/interleave" ./bench/interleave)
"$work/interleave" -runs "$runs" -warmup 5 -stdin "$pl" -floor floor -ref base -json "$work/m.json" \
  "floor=:" \
  "base=$work/old hook claude --loop fix-bug-on-branch --no-record" \
  "unsigned=$work/new hook claude --loop fix-bug-on-branch --no-record < $work/plain.json" \
  "vouched=$work/new hook claude --loop fix-bug-on-branch --no-record" \
  "first=rm -rf .git/gitwarrant/vouch .git/gitwarrant/parse; $work/new hook claude --loop fix-bug-on-branch --no-record"
echo
interleave_aims "$work/m.json" floor "vouched|base|1.1" "vouched|unsigned|1.1" "first|base|3"
