#!/bin/sh
# bench/session.sh — the cost of session warrants (docs/sessions.md): the
# prompt hook (`hook claude --event prompt`, which routes the prompt over
# every loop and writes the session's pin) and a PreToolUse decision under
# a session's pin (`--default-loop`, the pin read from .git/gitwarrant/
# sessions/), each against today's pinned decision (`--loop`), in the same
# interleaved rounds, with `git rev-parse HEAD` for scale. The project holds
# every template (the baseline included, every job loop extending it). The
# aim: each within 1.1× of the pinned decision. Every command but `cold`
# finds its loops' parses kept in .git/gitwarrant/parse/
# (docs/performance.md#the-parse-cache); `cold` is the pinned decision
# with that folder emptied first (rm's own cost included), the first
# decision after a loop edit at worst.
#
# Usage: bench/session.sh [runs]   (default 30).
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
{"session_id":"8c1f","transcript_path":"/home/dev/.claude/projects/x/8c1f.jsonl","cwd":"$repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin fix/login && go test ./... 2>&1 | tee /tmp/test.log # push the fix","description":"Push the login fix branch for review","timeout":120000},"tool_use_id":"toolu_01XyZ"}
JSON
prompt="$work/prompt.json"
cat > "$prompt" <<JSON
{"session_id":"8c1f","transcript_path":"/home/dev/.claude/projects/x/8c1f.jsonl","cwd":"$repo","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"The login test fails since yesterday's change: fix the bug on a branch, add a regression test and open a draft pull request."}
JSON
"$gws" hook claude --event prompt --default-loop cut-release < "$prompt" >/dev/null
echo "loops: $(ls .gitwarrant/loops | wc -l); pin: $(cat .git/gitwarrant/sessions/8c1f.json)" >&2
echo "sanity: $("$gws" hook claude --default-loop cut-release --no-record < "$pl")" >&2
# cold runs on a copy, so that emptying its parse cache leaves the other
# commands' cache as it is.
cp -r "$repo" "$work/cold"
sed "s#$repo#$work/cold#" "$pl" > "$work/cold.json"
(cd "$here" && go build -o "$work/interleave" ./bench/interleave)
"$work/interleave" -runs "$runs" -warmup 5 -stdin "$pl" -floor floor -ref pinned -json "$work/m.json" \
  "floor=:" \
  "git=git rev-parse HEAD" \
  "pinned=$gws hook claude --loop fix-bug-on-branch --no-record" \
  "session=$gws hook claude --default-loop cut-release --no-record" \
  "prompt=$gws hook claude --event prompt --default-loop cut-release < $prompt" \
  "cold=rm -rf $work/cold/.git/gitwarrant/parse; $gws hook claude --loop fix-bug-on-branch --no-record < $work/cold.json"
echo
interleave_aims "$work/m.json" floor "prompt|pinned|1.1" "session|pinned|1.1" "pinned|git|1.8"
