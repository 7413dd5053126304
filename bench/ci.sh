#!/bin/sh
# bench/ci.sh — `gitwarrant ci` (docs/ci.md) on a repository with
# <commits> commits, 100 loops and a record of <entries> entries kept as
# sealed segments, for a pull request of 50 commits adding 2,000 entries,
# against `git log --format=%B <merge-base>..pr` plus `git diff <merge-base>
# pr -- .gitwarrant` (what any gate must at least read), in one run.
#
# Aim: ci < 2× the git pair.
#
# Usage: bench/ci.sh [runs] [commits] [entries]   (defaults 10, 5000,
# 1000000). Needs hyperfine. BEFORE=<another gitwarrant binary> adds its
# run of the same gate to the same measurement (e.g. main's build).
set -eu
runs=${1:-10}
commits=${2:-5000}
entries=${3:-1000000}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/lib.sh"
command -v hyperfine >/dev/null 2>&1 || { echo "bench/ci.sh needs hyperfine: apt-get install -y hyperfine" >&2; exit 1; }
work=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "keeping $work" >&2 || trap 'rm -rf "$work"' EXIT

echo "building gitwarrant and mkgate…" >&2
(cd "$here" && go build -o "$work/gitwarrant" ./cmd/gitwarrant && go build -o "$work/mkgate" ./bench/mkgate)
echo "writing $commits commits, 100 loops, $entries entries, a 50-commit pull request adding 2000…" >&2
"$work/mkgate" "$work/repo" "$commits" 100 "$entries" 50 2000
cd "$work/repo"
git gc -q
mb=$(git merge-base main pr)
echo "repository: $(git rev-list --count main) commits on main, $(git count-objects -vH | awk '/size-pack/ {print $2 $3}') packed" >&2
"$work/gitwarrant" ci --base main --head pr | tail -4 >&2

set -- -n "gitwarrant ci" "$work/gitwarrant ci --base main --head pr"
[ -n "${BEFORE:-}" ] && set -- "$@" -n "gitwarrant ci (before)" "$BEFORE ci --base main --head pr"
hyperfine --warmup 2 --runs "$runs" -N --export-csv "$work/ci.csv" "$@" \
  -n "git log + git diff" "sh -c 'git log --format=%B $mb..pr >/dev/null && git diff $mb pr -- .gitwarrant >/dev/null'" \
  -n "sh -c true" "sh -c true" >&2
net_csv "$work/ci.csv" "sh -c true" "$work/net.csv"
# the git pair runs under sh -c: its start-up is subtracted; ci runs
# without a shell and keeps its whole time.
awk -F, -v OFS=, 'NR == 1 || $1 !~ /^gitwarrant ci/' "$work/net.csv" > "$work/a.csv"
grep '^gitwarrant ci' "$work/ci.csv" >> "$work/a.csv"
ratio_table "$work/a.csv" "git log + git diff" "gitwarrant ci|git log + git diff|2" "gitwarrant ci (before)|git log + git diff|2"
