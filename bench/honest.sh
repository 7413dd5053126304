#!/bin/sh
# bench/honest.sh — hook decision time over the honest corpus (issue 24,
# "Performance": within 1.1× of the base's): every call of
# eval/corpus/honest.jsonl sent to `gitwarrant hook claude --loop fix
# --no-record` in its fixture repository, with the fix loop the build
# itself writes (`init`, `new fix --template fix-bug-on-branch`), for this
# tree's static build and the base revision's, in one interleaved run
# (bench/interleave). One run is the whole corpus, one process a call.
# Aim: new / base ≤ 1.1 (median wall and CPU time).
#
# Usage: bench/honest.sh [runs] [base-rev]   (default 5, main)
set -eu
runs=${1:-5}
base=${2:-main}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
(cd "$here" && CGO_ENABLED=0 go build -o "$work/new" ./cmd/gitwarrant &&
  go build -o "$work/mkhonest" ./bench/mkhonest && go build -o "$work/interleave" ./bench/interleave)
mkdir "$work/basesrc"
(cd "$here" && git archive "$base" | tar -x -C "$work/basesrc")
(cd "$work/basesrc" && CGO_ENABLED=0 go build -o "$work/old" ./cmd/gitwarrant)
for b in old new; do
  "$work/mkhonest" "$work/$b-corpus"
  for d in "$work/$b-corpus"/*/; do
    case $d in */payloads/ | */home/) continue ;; esac
    (cd "$d" && HOME="$work/$b-corpus/home" "$work/$b" init >/dev/null &&
      HOME="$work/$b-corpus/home" "$work/$b" new fix --template fix-bug-on-branch >/dev/null)
  done
done
# replay.sh <corpus> <binary>: every payload, in its fixture's folder.
cat > "$work/replay.sh" <<'SH'
export HOME="$1/home"
for p in "$1"/payloads/*.json; do
  f=${p%.json}; f=${f##*.}
  (cd "$1/$f" && "$2" hook claude --loop fix --no-record < "$p" >/dev/null)
done
SH
echo "sanity: $(sh "$work/replay.sh" "$work/new-corpus" "$work/new" 2>&1 | head -3)" >&2
"$work/interleave" -runs "$runs" -warmup 1 -ref base \
  "base=sh $work/replay.sh $work/old-corpus $work/old" \
  "new=sh $work/replay.sh $work/new-corpus $work/new"
