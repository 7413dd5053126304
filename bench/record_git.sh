#!/bin/sh
# bench/record_git.sh — whole-process cost of `gitwarrant check` with its
# per-event commit on refs/gitwarrant/<writer> (issue 3 "Performance"),
# against `git rev-parse HEAD` and a `git commit` of one small file, in one
# repository with 5,000 commits and a 100,000-entry chain.
#
# Aims: check with its commit < one git commit; check --no-record < 2× git
# rev-parse HEAD.
#
# Usage: bench/record_git.sh [runs] [entries] [commits]
#        (defaults 30, 100000, 5000). Uses hyperfine when installed
#        (apt-get install -y hyperfine), else a loop timed with date +%s%N.
set -eu
runs=${1:-30}
entries=${2:-100000}
commits=${3:-5000}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building gitwarrant and mkchain…" >&2
(cd "$here" && go build -o "$work/gitwarrant" ./cmd/gitwarrant && go build -o "$work/mkchain" ./bench/mkchain)
gw="$work/gitwarrant"

repo="$work/repo"
mkdir -p "$repo"
cd "$repo"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
git init -q -b main

echo "making $commits commits with git fast-import…" >&2
i=1
{
  while [ $i -le "$commits" ]; do
    printf 'commit refs/heads/main\ncommitter bench <bench@example.com> %d +0000\ndata 9\ncommit %02d\nM 644 inline file%d.txt\ndata 6\nline%d\n' \
      $((1700000000 + i)) $((i % 100)) $((i % 500)) $((i % 10))
    i=$((i + 1))
  done
} | git fast-import --quiet
git reset -q --hard main
git gc -q

"$gw" init >/dev/null
"$gw" new appeal --template insurance-appeal >/dev/null
git add -A && git commit -q -m 'add the appeal loop'

echo "writing a $entries-entry chain…" >&2
"$gw" check appeal draft 'appeal letter' >/dev/null # picks the writer
chainfile=$(ls .gitwarrant/record/*.jsonl)
writer=$(basename "$chainfile" .jsonl)
blob=$(printf 'git:%s' "$(git hash-object .gitwarrant/loops/appeal.loop.md)")
"$work/mkchain" "$chainfile" "$entries" "$blob"
git update-ref -d "refs/gitwarrant/$writer"
"$gw" check appeal draft 'appeal letter' >/dev/null # rebuilds the ref from the file, once
"$gw" record verify >&2

echo small > small.txt && git add small.txt && git commit -q -m small
i=0
commit_small() { i=$((i + 1)); echo "$i" > small.txt; git commit -q -m "small $i" small.txt; }

if command -v hyperfine >/dev/null 2>&1; then
  hyperfine -N --warmup 3 --runs "$runs" --export-markdown "$work/bench.md" \
    "git rev-parse HEAD" \
    "$gw check --no-record appeal draft 'appeal letter'" \
    "$gw check appeal draft 'appeal letter'" \
    --prepare 'sh -c "date +%s%N > small.txt"' "git commit -q -m small small.txt" >&2 || true
  cat "$work/bench.md"
else
  t() { # t <label> <cmd…>: mean milliseconds over $runs runs
    label=$1; shift
    s=$(date +%s%N); n=0
    while [ $n -lt "$runs" ]; do "$@" >/dev/null 2>&1 || true; n=$((n + 1)); done
    e=$(date +%s%N)
    printf '%-40s %8.2f ms\n' "$label" "$(echo "($e - $s) / $runs / 1000000" | bc -l)"
  }
  t "git rev-parse HEAD" git rev-parse HEAD
  t "gitwarrant check --no-record" "$gw" check --no-record appeal draft 'appeal letter'
  t "gitwarrant check (with commit)" "$gw" check appeal draft 'appeal letter'
  t "git commit (one small file)" commit_small
fi
echo "ref: $(git rev-list --count "refs/gitwarrant/$writer") commits on refs/gitwarrant/$writer; branch: $(git rev-list --count HEAD) commits" >&2
