#!/bin/sh
# bench/ci.sh — `gitwarrant ci` (docs/ci.md) on a repository with
# <commits> commits, 100 loops and a record of <entries> entries kept as
# sealed segments, for a pull request of 50 commits adding 2,000 entries,
# against `git log --format=%B <merge-base>..pr` plus `git diff <merge-base>
# pr -- .gitwarrant` (what any gate must at least read), in one run.
#
# Aim: ci < 2× the git pair.
#
# Timed with bench/interleave (round-robin: every command sees the same
# load), static build, each net of `sh -c`.
#
# Usage: bench/ci.sh [runs] [commits] [entries]   (defaults 30, 5000,
# 1000000). BEFORE=<another gitwarrant binary> adds its run of the same
# gate to the same measurement (e.g. main's build).
set -eu
runs=${1:-30}
commits=${2:-5000}
entries=${3:-1000000}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "keeping $work" >&2 || trap 'rm -rf "$work"' EXIT

echo "building gitwarrant and mkgate…" >&2
(cd "$here" && CGO_ENABLED=0 go build -o "$work/gitwarrant" ./cmd/gitwarrant && go build -o "$work/mkgate" ./bench/mkgate &&
  go build -o "$work/interleave" ./bench/interleave)
echo "writing $commits commits, 100 loops, $entries entries, a 50-commit pull request adding 2000…" >&2
"$work/mkgate" "$work/repo" "$commits" 100 "$entries" 50 2000
cd "$work/repo"
git gc -q
mb=$(git merge-base main pr)
echo "repository: $(git rev-list --count main) commits on main, $(git count-objects -vH | awk '/size-pack/ {print $2 $3}') packed" >&2
"$work/gitwarrant" ci --base main --head pr | tail -4 >&2

set -- "floor=:" "git=git log --format=%B $mb..pr >/dev/null && git diff $mb pr -- .gitwarrant >/dev/null" \
  "ci=$work/gitwarrant ci --base main --head pr >/dev/null"
[ -n "${BEFORE:-}" ] && set -- "$@" "ci-before=$BEFORE ci --base main --head pr >/dev/null"
echo "## gitwarrant ci vs git log + git diff ($commits commits, $entries-entry record, $runs interleaved rounds)"
"$work/interleave" -runs "$runs" -warmup 3 -floor floor -ref git "$@"
