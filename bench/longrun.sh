#!/bin/sh
# bench/longrun.sh — a long run of the record (docs/record.md): W writers
# (two clones × four branches), EVENTS events in all (bulk-generated into
# each writer's ref by bench/mkchain, plus CHECKS real checks through the
# binary), COMMITS commits with merges, rebases and cherry-picks, `git gc`
# at the end. Per stage it prints the time of one check, one `git commit`
# with hooks, `record verify`, `record log -n 20`, their peak memory, and
# the repository's size (branch objects and refs/gitwarrant objects apart),
# and whether `git gc --auto` ran inside any user command.
#
# Usage: bench/longrun.sh [events] [checks] [commits] [stages]
#        (defaults 1000000 10000 2000 4; the issue's scale).
set -eu
events=${1:-1000000}
checks=${2:-10000}
commits=${3:-2000}
stages=${4:-4}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$here" && go build -o "$work/gitwarrant" ./cmd/gitwarrant && go build -o "$work/mkchain" ./bench/mkchain)
export PATH="$work:$PATH"
export GIT_AUTHOR_NAME=sim GIT_AUTHOR_EMAIL=sim@example.com GIT_COMMITTER_NAME=sim GIT_COMMITTER_EMAIL=sim@example.com
# chk: one real check; exit 1 (not recorded) stops the run, a verdict does not
chk() { rc=0; gitwarrant check -q appeal draft "appeal letter $1" >/dev/null || rc=$?; [ $rc -ne 1 ] || { echo "a check was not recorded" >&2; exit 1; }; }
ms() { echo "$(( ($(date +%s%N) - $1) / 1000000 ))"; }
hooks() {
  for h in pre-commit commit-msg; do # what `gitwarrant install` writes
    sed "s|'@GITWARRANT@'|'$work/gitwarrant'|" "$here/hooks/$h" > "$1/.git/hooks/$h"
  done
  printf '#!/bin/sh\necho "gc --auto ran in $(pwd)" >> %s/gc.log\n' "$work" > "$1/.git/hooks/pre-auto-gc"
  chmod +x "$1"/.git/hooks/*
}
git init -q --bare "$work/origin.git"
git -C "$work/origin.git" symbolic-ref HEAD refs/heads/main
a="$work/a"
git init -q -b main "$a" && cd "$a"
gitwarrant init >/dev/null && gitwarrant new appeal --template insurance-appeal >/dev/null
hooks "$a"
git add -A && git commit -q -m loop && git remote add origin "$work/origin.git" && git push -q origin main
git clone -q "$work/origin.git" "$work/b"
hooks "$work/b"
branches="main f1 f2 f3"
for c in "$a" "$work/b"; do
  cd "$c"
  for br in $branches; do
    git switch -q -C "$br" origin/main 2>/dev/null || git switch -q "$br"
    chk 0
  done
  git switch -q main
done
blob="git:$(git -C "$a" hash-object .gitwarrant/loops/appeal.loop.md)"
per=$((events / 8))
for c in "$a" "$work/b"; do
  for w in $(git -C "$c" for-each-ref --format='%(refname:lstrip=2)' refs/gitwarrant/); do
    mkchain -ref "$c" "$w" "$per" "$blob"
  done
done
echo "| stage | events | check ms | commit ms | verify ms | log -n 20 ms | verify peak MB | branch objects MB | refs/gitwarrant MB | bytes/event |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
cps=$((checks / stages)); kps=$((commits / stages)); n=0
for s in $(seq 1 "$stages"); do
  i=0
  while [ $i -lt "$kps" ]; do
    c="$a"; [ $((i % 2)) -eq 1 ] && c="$work/b"
    cd "$c"
    br=$(echo $branches | cut -d' ' -f$((i % 4 + 1)))
    git switch -q "$br"
    j=0
    while [ $j -lt $((cps / kps + 1)) ]; do chk "$n"; j=$((j + 1)); n=$((n + 1)); done
    echo "$n" > "work-$br.txt" && git add "work-$br.txt" && git commit -q -m "work $n"
    case $((i % 10)) in
      3) git switch -q main && git merge -q --no-edit "$br" 2>/dev/null || git merge --abort ;;
      5) git switch -q "$br" && git rebase -q main 2>/dev/null || git rebase --abort ;;
      7) other=$(echo $branches | cut -d' ' -f$(((i + 1) % 4 + 1))); git switch -q "$other" && git cherry-pick "$br" >/dev/null 2>&1 || git cherry-pick --abort ;;
    esac
    i=$((i + 1))
  done
  cd "$a"
  git switch -q main
  t=$(date +%s%N); chk stage; tc=$(ms $t)
  echo x >> stage.txt; git add stage.txt
  t=$(date +%s%N); git commit -q -m "stage $s"; tk=$(ms $t)
  t=$(date +%s%N); vm=$( { /usr/bin/time -f %M gitwarrant record verify >/dev/null; } 2>&1 | tail -1); tv=$(ms $t)
  t=$(date +%s%N); gitwarrant record log -n 20 >/dev/null; tl=$(ms $t)
  total=$(gitwarrant record verify | awk '/ entries /{for(i=1;i<=NF;i++) if($i=="entries") s+=$(i-1)} END{print s+0}')
  refsz=$(git rev-list --objects --glob='refs/gitwarrant/*' | cut -d' ' -f1 | git cat-file --batch-check='%(objectsize:disk)' | awk '$1 ~ /^[0-9]+$/ {s+=$1} END {printf "%d\n", s}')
  brsz=$(git rev-list --objects --branches | cut -d' ' -f1 | git cat-file --batch-check='%(objectsize:disk)' | awk '$1 ~ /^[0-9]+$/ {s+=$1} END {printf "%d\n", s}')
  echo "| $s | $total | $tc | $tk | $tv | $tl | $((vm / 1024)) | $((brsz / 1048576)) | $((refsz / 1048576)) | $(( (brsz + refsz) / (total > 0 ? total : 1) )) |"
done
cd "$a" && git gc -q
refsz=$(git rev-list --objects --glob='refs/gitwarrant/*' | cut -d' ' -f1 | git cat-file --batch-check='%(objectsize:disk)' | awk '$1 ~ /^[0-9]+$/ {s+=$1} END {printf "%d\n", s}')
brsz=$(git rev-list --objects --branches | cut -d' ' -f1 | git cat-file --batch-check='%(objectsize:disk)' | awk '$1 ~ /^[0-9]+$/ {s+=$1} END {printf "%d\n", s}')
echo "after git gc: branch objects $((brsz / 1048576)) MB, refs/gitwarrant objects $((refsz / 1048576)) MB, .git $(du -sm .git | cut -f1) MB"
if [ -s "$work/gc.log" ]; then echo "git gc --auto ran inside user commands: $(wc -l < "$work/gc.log") times"; else echo "git gc --auto never ran inside a user command"; fi
gitwarrant record verify >/dev/null && echo "record verify: ok"
