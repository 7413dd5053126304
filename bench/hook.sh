#!/bin/sh
# bench/hook.sh — whole-process cost of `gitwarrant hook claude` (issue 4,
# "Performance"): a realistic Bash PreToolUse payload routed over 50 loops,
# with recording on (an entry and its commit on refs/gitwarrant/<writer>)
# and off (--no-record), against `git rev-parse HEAD`, one `git commit`, and
# `node -e ''` (the floor any Node-based hook pays).
#
# Usage: bench/hook.sh [runs]   (default 30). Uses hyperfine when installed
# (apt-get install -y hyperfine), else a loop timed with date +%s%N.
# Every command is run through `sh -c` so each pays the same shell cost
# (the hook reads its payload from stdin, which needs a redirect).
set -eu
runs=${1:-30}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building gitwarrant…" >&2
(cd "$here" && go build -o "$work/gitwarrant" ./cmd/gitwarrant)
gw="$work/gitwarrant"

repo="$work/repo"
mkdir -p "$repo/.gitwarrant/loops"
cd "$repo"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
git init -q -b main
i=1
while [ $i -le 50 ]; do
  n=$(printf '%02d' $i)
  cat > ".gitwarrant/loops/task-$n.loop.md" <<LOOP
---
name: task-$n
description: Recurring chore number $n for the widget$n service.
version: 1
triggers: [widget$n maintenance, chore $n]
warrant:
  read: [source code, logs of widget$n]
  draft: [release notes for widget$n]
  change: [widget$n source files, widget$n tests]
  send: [status update about widget$n]
  ask: [deploying widget$n, changing widget$n dependencies]
  never: [deleting widget$n data, secrets]
---
# Brief

Chore $n.
LOOP
  i=$((i + 1))
done
cat > .gitwarrant/loops/ship-feature.loop.md <<'LOOP'
---
name: ship-feature
description: Finish a feature branch and push it for review.
version: 1
triggers: [git push, feature branch]
warrant:
  read: [source code, git history]
  draft: [pull request description]
  change: [source files, test files]
  send: [git push origin feature]
  ask: [merging a pull request]
  never: [force push, pushing to main]
---
# Brief

Ship it.
LOOP
echo hello > README.md
git add -A && git commit -q -m init
cat > "$work/payload.json" <<JSON
{"session_id":"8c1f","transcript_path":"/home/dev/.claude/projects/x/8c1f.jsonl","cwd":"$repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin feature/login-fix","description":"Push the login fix branch for review","timeout":120000},"tool_use_id":"toolu_01XyZ"}
JSON
echo "sanity: $("$gw" hook claude < "$work/payload.json")" >&2

# A commit of one small file, for the "under one git commit" aim.
cat > "$work/commit.sh" <<'SH'
date +%s%N > f.txt && git add f.txt && git commit -q -m bench
SH

set -- \
  "hook (record on)=$gw hook claude < $work/payload.json" \
  "hook (--no-record)=$gw hook claude --no-record < $work/payload.json" \
  "git rev-parse HEAD=git rev-parse HEAD" \
  "git commit (1 file)=sh $work/commit.sh"
if command -v node >/dev/null 2>&1; then
  set -- "$@" "node (empty script)=node -e 0"
fi

if command -v hyperfine >/dev/null 2>&1; then
  # hyperfine takes each command as an argument, named with -n.
  for c in "$@"; do
    printf ' -n %s %s' "'${c%%=*}'" "'${c#*=}'"
  done > "$work/argv"
  eval "hyperfine --warmup 3 --runs $runs --export-markdown $work/result.md $(cat "$work/argv")" >&2
  cat "$work/result.md"
  exit 0
fi

# Fallback: mean wall time per command over $runs runs, in milliseconds.
printf '| command | mean ms | vs git rev-parse |\n|---|---:|---:|\n'
base=""
for c in "$@"; do
  name=${c%%=*}; cmd=${c#*=}
  sh -c "$cmd" >/dev/null 2>&1 || true
  start=$(date +%s%N); k=0
  while [ $k -lt "$runs" ]; do sh -c "$cmd" >/dev/null 2>&1 || true; k=$((k + 1)); done
  end=$(date +%s%N)
  mean=$(( (end - start) / runs / 1000 ))
  echo "$name $mean" >> "$work/means"
done
base=$(grep '^git rev-parse' "$work/means" | awk '{print $NF}')
while read -r line; do
  mean=${line##* }; name=${line% *}
  printf '| %s | %d.%03d | %s× |\n' "$name" $((mean / 1000)) $((mean % 1000)) "$(awk "BEGIN{printf \"%.2f\", $mean/$base}")"
done < "$work/means"
