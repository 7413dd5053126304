#!/bin/sh
# bench/gate.sh — the gate's decision cost (docs/threat-model.md): the
# static build's `gitwarrant hook claude --loop L --no-record` on a Bash
# PreToolUse payload, pinned to a template loop in a project that holds
# every template (baseline included), against `git rev-parse HEAD`, both
# under `sh -c` with the same stdin redirect. Reports medians (and the
# median net of the shell) of N runs; the aim is ≤ 1.8× git (issue 26's
# row "command hook decision vs `git rev-parse HEAD`"). The loops' parses
# are kept in .git/gitwarrant/parse/ after the first call
# (docs/performance.md#the-parse-cache); `cold` empties that folder first.
#
# Usage: bench/gate.sh [runs]   (default 30). Times with bench/interleave
# (round-robin, medians of wall and CPU time); bench/lib.sh builds.
set -eu
runs=${1:-30}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_both "$here" "$work"
gws="$work/gitwarrant-static"
repo="$work/repo"
templates_repo "$gws" "$repo"
pl="$work/payload.json"
cat > "$pl" <<JSON
{"session_id":"8c1f","transcript_path":"/home/dev/.claude/projects/x/8c1f.jsonl","cwd":"$repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin feature/login-fix && go test ./... 2>&1 | tee /tmp/test.log # push the fix","description":"Push the login fix branch for review","timeout":120000},"tool_use_id":"toolu_01XyZ"}
JSON
echo "loops: $(ls .gitwarrant/loops | wc -l); sanity: $("$gws" hook claude --loop fix-bug-on-branch --no-record < "$pl")" >&2
# cold runs on a copy, so that emptying its parse cache leaves the other
# commands' cache as it is.
cp -r "$repo" "$work/cold"
sed "s#$repo#$work/cold#" "$pl" > "$work/cold.json"
(cd "$here" && go build -o "$work/interleave" ./bench/interleave)
# Interleaved rounds (bench/interleave): every command sees the same load.
"$work/interleave" -runs "$runs" -warmup 5 -stdin "$pl" -floor floor -ref git -json "$work/m.json" \
  "floor=:" \
  "git=git rev-parse HEAD" \
  "pinned=$gws hook claude --loop fix-bug-on-branch --no-record" \
  "unpinned=$gws hook claude --no-record" \
  "cold=rm -rf $work/cold/.git/gitwarrant/parse; $gws hook claude --loop fix-bug-on-branch --no-record < $work/cold.json"
echo "(pinned: hook claude --loop fix-bug-on-branch --no-record, static; unpinned: without --loop; cold: pinned, the parse cache emptied first)"
echo
interleave_aims "$work/m.json" floor "pinned|git|1.8" "unpinned|git|1.8"
