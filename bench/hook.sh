#!/bin/sh
# bench/hook.sh — whole-process cost of `gitwarrant hook claude` (issue 4,
# "Performance"): a realistic Bash PreToolUse payload routed over 50 loops,
# with recording on (an entry and its commit on refs/gitwarrant/<writer>)
# and off (--no-record), against `git rev-parse HEAD`, one `git commit`, and
# `node -e ''` (the floor any Node-based hook pays).
#
# Usage: bench/hook.sh [runs]   (default 60). Needs hyperfine (apt-get
# install -y hyperfine). Every command is run through `sh -c` so each pays
# the same shell cost (the hook reads its payload from stdin, which needs a
# redirect); the final tables show the raw means and the means net of that
# shell (`sh -c ':'` with the same redirect). Both builds are measured —
# the default one and a static CGO_ENABLED=0 one (see bench/lib.sh).
set -eu
runs=${1:-60}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/lib.sh"
command -v hyperfine >/dev/null 2>&1 || { echo "bench/hook.sh needs hyperfine: apt-get install -y hyperfine" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building gitwarrant (default and CGO_ENABLED=0)…" >&2
build_both "$here" "$work"
gw="$work/gitwarrant"
gws="$work/gitwarrant-static"

repo="$work/repo"
routed_repo "$repo"
cat > "$work/payload.json" <<JSON
{"session_id":"8c1f","transcript_path":"/home/dev/.claude/projects/x/8c1f.jsonl","cwd":"$repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin feature/login-fix","description":"Push the login fix branch for review","timeout":120000},"tool_use_id":"toolu_01XyZ"}
JSON
echo "sanity: $("$gw" hook claude < "$work/payload.json")" >&2

pl="$work/payload.json"
n=0
echo hello > f.txt && git add f.txt && git commit -q -m f
# name|command|prepare — each command runs under sh -c with the same
# redirect; the commit's file change is prepared (untimed).
set -- \
  "sh -c ':' (floor)|: < $pl|true" \
  "git rev-parse HEAD|git rev-parse HEAD < $pl|true" \
  "hook --no-record|$gw hook claude --no-record < $pl|true" \
  "hook --no-record (static)|$gws hook claude --no-record < $pl|true" \
  "hook|$gw hook claude < $pl|true" \
  "hook (static)|$gws hook claude < $pl|true" \
  "git commit (1 small file)|git commit -q -m bench f.txt < $pl|sh -c 'date +%s%N > f.txt'"
if command -v node >/dev/null 2>&1; then
  set -- "$@" "node -e 0|node -e 0 < $pl|true"
fi
for c in "$@"; do
  name=${c%%|*}; rest=${c#*|}; cmd=${rest%%|*}; prep=${rest#*|}
  n=$((n + 1))
  hyperfine -N --warmup 5 --runs "$runs" --export-csv "$work/$n.csv" \
    --prepare "$prep" -n "$name" "sh -c '$cmd'" >&2
done
i=1; set --
while [ $i -le $n ]; do set -- "$@" "$work/$i.csv"; i=$((i + 1)); done
merge_csv "$work/all.csv" "$@"
net_csv "$work/all.csv" "sh -c ':' (floor)" "$work/net.csv"
aims() {
  ratio_table "$1" "git rev-parse HEAD" \
    "hook --no-record|git rev-parse HEAD|2" \
    "hook --no-record (static)|git rev-parse HEAD|2" \
    "hook|git commit (1 small file)|1" \
    "hook (static)|git commit (1 small file)|1"
}
echo "## gitwarrant hook claude, 50 loops, routed ($runs runs)"
echo "### raw (each under sh -c)"
aims "$work/all.csv"
echo "### net of the shell"
aims "$work/net.csv"
