#!/bin/sh
# bench/record_file.sh — a record kept as one file outside Git (docket's
# record.jsonl, docs/record.md#reading-the-record) at a million lines:
#
#   record log -n 20               (aim: under 50 ms), beside `gitwarrant
#                                  version`: the process's start-up alone
#   record verify                  vs  sha256sum of the file
#   metrics                        (streams the whole file, as verify does)
#   peak memory of each            (aim: under 100 MB)
#
# Usage: bench/record_file.sh [entries] [runs]   (defaults 1000000, 10).
# RECORD_FILE_DIR=<dir> keeps the project there and reuses it (writing a
# million entries takes a minute): only the binaries are rebuilt. Figures
# are medians; every ratio is against a baseline timed in the same run.
# Needs hyperfine.
set -eu
entries=${1:-1000000}
runs=${2:-10}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/lib.sh"
command -v hyperfine >/dev/null 2>&1 || { echo "needs hyperfine: apt-get install -y hyperfine" >&2; exit 1; }
if [ -n "${RECORD_FILE_DIR:-}" ]; then
  work=$RECORD_FILE_DIR
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
(cd "$here" && go build -o "$work/gitwarrant" ./cmd/gitwarrant && go build -o "$work/mkchain" ./bench/mkchain)
export PATH="$work:$PATH"
mkdir -p "$work/project" && cd "$work/project"
if git rev-parse --git-dir >/dev/null 2>&1; then
  echo "$work/project is inside a Git repository: give RECORD_FILE_DIR outside one" >&2
  exit 1
fi
file=.gitwarrant/record.jsonl
if [ ! -e "$work/project/.bench-ready" ]; then
  rm -rf .gitwarrant
  gitwarrant init >/dev/null
  gitwarrant new appeal --template insurance-appeal >/dev/null
  echo "writing $entries entries to $file…" >&2
  mkchain "$file" "$entries" "sha256:$(sha256sum .gitwarrant/loops/appeal.loop.md | cut -d' ' -f1)"
  touch .bench-ready
fi
echo "$file: $(wc -c < "$file") bytes" >&2
hyperfine -N --warmup 1 --runs "$runs" --export-csv "$work/f.csv" --output=null \
  -n "sha256sum of the file" "sha256sum $file" \
  -n "record verify" "gitwarrant record verify" \
  -n "metrics" "gitwarrant metrics" \
  -n "record log -n 20" "gitwarrant record log -n 20" \
  -n "gitwarrant version (start-up)" "gitwarrant version" >&2
echo "## one chain file of $entries entries outside Git ($runs runs)"
ratio_table "$work/f.csv" "sha256sum of the file" \
  "record verify|sha256sum of the file|1.5"
awk -F, 'NR > 1 { m[$1] = $4 * 1000; cpu[$1] = ($5 + $6) * 1000 } END {
  printf "aim: record log -n 20 %.1f ms < 50 ms %s\n", m["record log -n 20"], (m["record log -n 20"] < 50 ? "MET" : "MISSED")
  printf "cpu: record log -n 20 %.1f ms, of which start-up (gitwarrant version) %.1f ms\n", cpu["record log -n 20"], cpu["gitwarrant version (start-up)"]
}' "$work/f.csv"
for c in "record verify" "metrics" "record log -n 20"; do
  kb=$( { /usr/bin/time -f %M gitwarrant $c >/dev/null; } 2>&1 | tail -1)
  echo "peak memory: gitwarrant $c: $((kb / 1024)) MB $( [ "$kb" -lt 102400 ] && echo MET || echo MISSED)"
done
