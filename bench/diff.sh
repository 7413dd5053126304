#!/bin/sh
# bench/diff.sh — `gitwarrant diff <base> <head>` (docs/signing.md#the-warrant-diff)
# between two revisions of a repository with 100 loops and a large record,
# against `git diff --stat <base> <head> -- .gitwarrant/loops`, in one run.
# head changes 10 loops: 5 by signed amends (so the diff verifies 5 new
# amend entries) and 5 by hand (unsigned widenings and narrowings); `one`,
# the first amend's commit, changes one loop by one signed amend (a
# typical pull request; diff-1 against git-1, in the same rounds). Each is
# timed twice: as built (the loops and the
# head commit loose), then after `git gc` (everything packed, as in a
# repository in use or a clone).
#
# Aim: diff < 2× git diff --stat + the time to verify the 5 new amends.
# That time is the Go verification inside the diff (ssh-keygen's would be
# mostly process start-up): `go test ./internal/warrantdiff -bench
# VerifyAmends` with GITWARRANT_DIFF_BENCH=<repo> (KEEP=1 keeps it) gives
# it warm; a profile of the cold process gives its share there.
#
# Timed with bench/interleave (round-robin: every command sees the same
# load), static build, net of `sh -c`. The diff keeps parses and each
# loops tree's parents under the git dir (docs/signing.md#cost): the
# warm-up rounds fill them, so the tables time a diff that has run
# before; a last table times the first diff, the store emptied before
# every run (`rm -rf` of it, against an `rm -rf` of nothing as its floor).
#
# Usage: bench/diff.sh [runs] [entries]   (defaults 40, 1000000). Needs
# ssh-keygen. BEFORE=<another gitwarrant binary> adds its runs of the same
# diffs to the same measurement (e.g. main's build).
set -eu
runs=${1:-40}
entries=${2:-1000000}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "keeping $work" >&2 || trap 'rm -rf "$work"' EXIT

echo "building gitwarrant and mkchain…" >&2
(cd "$here" && CGO_ENABLED=0 go build -o "$work/gitwarrant" ./cmd/gitwarrant && go build -o "$work/mkchain" ./bench/mkchain &&
  go build -o "$work/interleave" ./bench/interleave)
gw="$work/gitwarrant"

repo="$work/repo"
mkdir -p "$repo"
cd "$repo"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
git init -q -b main
git config user.email bench@example.com
"$gw" init >/dev/null
i=1
while [ $i -le 100 ]; do
  n=$(printf '%03d' $i)
  cat > ".gitwarrant/loops/task-$n.loop.md" <<LOOP
---
name: task-$n
description: Recurring chore number $n for the widget$n service.
version: 1
warrant:
  read: [source code, logs of widget$n]
  draft: [release notes for widget$n]
  change:
    - widget$n source files
    - widget$n tests
  send: [status update about widget$n]
  ask: [deploying widget$n, changing widget$n dependencies]
  never: [deleting widget$n data, secrets]
reserved: [signing widget$n releases]
---
# Brief
Keep widget$n healthy.
LOOP
  i=$((i + 1))
done
ssh-keygen -q -t ed25519 -N '' -C bench -f "$work/key"
"$gw" signers add bench@example.com "$work/key.pub" >/dev/null 2>&1

echo "writing a $entries-entry chain…" >&2
# the hooks carry the record into the branch as a writer's folder of
# segment files (docs/record.md#the-branch-copy)
printf '#!/bin/sh\nexec "%s" hook pre-commit\n' "$gw" > .git/hooks/pre-commit
printf '#!/bin/sh\nexec "%s" hook commit-msg "$1"\n' "$gw" > .git/hooks/commit-msg
chmod +x .git/hooks/pre-commit .git/hooks/commit-msg
# picks the writer (its verdict does not matter: the loops are not
# blessed yet, and mkchain replaces the ref below)
"$gw" check task-001 read 'source code' >/dev/null 2>&1 || true
writer=$(git for-each-ref --format='%(refname:lstrip=2)' refs/gitwarrant/)
"$work/mkchain" -ref . "$writer" "$entries" "git:$(git hash-object .gitwarrant/loops/task-001.loop.md)"
git add -A && git commit -q -m base
git tag base
echo "base: $(cat .gitwarrant/record/"$writer"/*.jsonl | wc -c) bytes of record in $(ls .gitwarrant/record/"$writer" | wc -l) files" >&2

for n in 001 002 003 004 005; do
  "$gw" amend "task-$n" send "a tagged release of widget$n" --yes --key "$work/key" >/dev/null 2>&1
  [ "$n" = 001 ] && git tag one
done
for n in 006 007 008 009 010; do
  sed -e "s/ask: \[deploying widget$n, /ask: [/" -e "s/read: \[source code, /read: [source code, the wiki, /" \
    ".gitwarrant/loops/task-$n.loop.md" > x && mv x ".gitwarrant/loops/task-$n.loop.md"
done
git add -A && git commit -q -m head
git tag head
"$gw" diff base head | tail -1 >&2

set -- "floor=:" "git=git diff --stat base head -- .gitwarrant/loops" \
  "diff=$gw diff base head" "worktree=$gw diff base" "version=$gw version" \
  "git-1=git diff --stat base one -- .gitwarrant/loops" "diff-1=$gw diff base one"
[ -n "${BEFORE:-}" ] && set -- "$@" "diff-before=$BEFORE diff base head" "worktree-before=$BEFORE diff base" \
  "diff-1-before=$BEFORE diff base one"
# diff-1 (and its before) is against git-1: one loop, one amend
against=diff-1:git-1
[ -n "${BEFORE:-}" ] && against="$against,diff-1-before:git-1"
echo "## gitwarrant diff vs git diff --stat (100 loops, $entries-entry record, loose loops, $runs interleaved rounds)"
"$work/interleave" -runs "$runs" -warmup 3 -floor floor -ref git -against "$against" "$@"

# The same repository after `git gc`: the state of a repository in use
# (and of every clone), every object in a pack.
git gc -q
echo
echo "## the same, after git gc (every object packed)"
"$work/interleave" -runs "$runs" -warmup 3 -floor floor -ref git -against "$against" "$@"

# The first diff: the store emptied before each run. Its own rounds, as
# emptying it would turn the other rows' runs cold.
echo
echo "## the first diff (packed; the parse store emptied before every run)"
set -- "floor=rm -rf .git/gitwarrant/parse-none" "git=rm -rf .git/gitwarrant/parse-none && git diff --stat base head -- .gitwarrant/loops" \
  "diff-first=rm -rf .git/gitwarrant/parse && $gw diff base head" "git-1=rm -rf .git/gitwarrant/parse-none && git diff --stat base one -- .gitwarrant/loops" \
  "diff-1-first=rm -rf .git/gitwarrant/parse && $gw diff base one"
[ -n "${BEFORE:-}" ] && set -- "$@" "diff-before=rm -rf .git/gitwarrant/parse-none && $BEFORE diff base head" \
  "diff-1-before=rm -rf .git/gitwarrant/parse-none && $BEFORE diff base one"
against=diff-1-first:git-1
[ -n "${BEFORE:-}" ] && against="$against,diff-1-before:git-1"
"$work/interleave" -runs "$runs" -warmup 3 -floor floor -ref git -against "$against" "$@"
