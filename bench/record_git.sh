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
#        (defaults 60, 100000, 5000). Needs hyperfine (apt-get install -y
#        hyperfine). Both builds are measured — the default one and a static
#        CGO_ENABLED=0 one (see bench/lib.sh) — and the script ends with a
#        ratio table and one MET/MISSED line per aim.
set -eu
runs=${1:-60}
entries=${2:-100000}
commits=${3:-5000}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/lib.sh"
command -v hyperfine >/dev/null 2>&1 || { echo "bench/record_git.sh needs hyperfine: apt-get install -y hyperfine" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building gitwarrant (default and CGO_ENABLED=0) and mkchain…" >&2
build_both "$here" "$work"
(cd "$here" && go build -o "$work/mkchain" ./bench/mkchain)
gw="$work/gitwarrant"
gws="$work/gitwarrant-static"

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
writer=$(git for-each-ref --format='%(refname:lstrip=2)' refs/gitwarrant/)
blob=$(printf 'git:%s' "$(git hash-object .gitwarrant/loops/appeal.loop.md)")
"$work/mkchain" -ref . "$writer" "$entries" "$blob" # the live record: the ref
"$gw" record verify >&2

echo small > small.txt && git add small.txt && git commit -q -m small

# -N: no shell, so every process is timed alone. The commit needs a changed
# file each run (--prepare, untimed); the others prepare nothing.
chk="appeal draft 'appeal letter'"
hyperfine -N --warmup 5 --runs "$runs" --export-csv "$work/a.csv" \
  -n "git rev-parse HEAD" "git rev-parse HEAD" \
  -n "check --no-record" "$gw check --no-record $chk" \
  -n "check --no-record (static)" "$gws check --no-record $chk" \
  -n "check" "$gw check $chk" \
  -n "check (static)" "$gws check $chk" >&2
hyperfine -N --warmup 5 --runs "$runs" --export-csv "$work/b.csv" \
  --prepare 'sh -c "date +%s%N > small.txt"' \
  -n "git commit (1 small file)" "git commit -q -m small small.txt" >&2
merge_csv "$work/all.csv" "$work/a.csv" "$work/b.csv"
echo "ref: $(git rev-list --count "refs/gitwarrant/$writer") commits on refs/gitwarrant/$writer; branch: $(git rev-list --count HEAD) commits" >&2
echo "## gitwarrant check vs git ($commits commits, $entries-entry chain, $runs runs)"
ratio_table "$work/all.csv" "git rev-parse HEAD" \
  "check --no-record|git rev-parse HEAD|2" \
  "check --no-record (static)|git rev-parse HEAD|2" \
  "check|git commit (1 small file)|1" \
  "check (static)|git commit (1 small file)|1"
