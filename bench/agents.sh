#!/bin/sh
# bench/agents.sh — whole-process cost of the other clients' command hooks
# (docs/agents.md#cost): `gitwarrant hook codex`, `hook gemini` and `hook
# cursor` against `hook claude` on the same call — a Bash `git push`
# routed over 50 loops, in each client's own payload — with recording off
# and on; then the commands install writes, run through sh as the clients
# run them: Codex's with its kill timer (as installed), with the shell's
# watchdog alone (as off Linux, and as install wrote it before the timer),
# and with neither (the command before the watchdog), against Claude
# Code's. Aim: each within 1.1x of `hook
# claude` (medians, same run).
#
# Usage: bench/agents.sh [runs]   (default 60).
set -eu
runs=${1:-60}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building gitwarrant…" >&2
(cd "$here" && CGO_ENABLED=0 go build -o "$work/gitwarrant" ./cmd/gitwarrant &&
  go build -o "$work/interleave" ./bench/interleave && go build -o "$work/hookcmd" ./bench/hookcmd)
gw="$work/gitwarrant"
repo="$work/repo"
routed_repo "$repo"
cmd='"tool_input":{"command":"git push origin feature/login-fix","description":"Push the login fix branch for review"}'
cat > "$work/claude.json" <<JSON
{"session_id":"8c1f","cwd":"$repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash",$cmd,"tool_use_id":"toolu_01XyZ"}
JSON
cat > "$work/codex.json" <<JSON
{"session_id":"01a2","turn_id":"01a3","cwd":"$repo","hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"default","tool_name":"Bash",$cmd,"tool_use_id":"call_1"}
JSON
cat > "$work/gemini.json" <<JSON
{"session_id":"3e43","transcript_path":"","cwd":"$repo","hook_event_name":"BeforeTool","timestamp":"2026-12-04T07:27:42.385Z","tool_name":"run_shell_command",$cmd}
JSON
cat > "$work/cursor.json" <<JSON
{"conversation_id":"c1","generation_id":"g1","hook_event_name":"beforeShellExecution","workspace_roots":["$repo"],"cwd":"$repo","command":"git push origin feature/login-fix"}
JSON
for c in claude codex gemini cursor; do
  echo "sanity $c: $("$gw" hook $c < "$work/$c.json" 2>&1 | head -c 160)" >&2
done

# Timed with bench/interleave (round-robin, every command under the same
# load; medians of wall and CPU time, net of the shell), recording off and
# on in separate rounds so each compares with `hook claude` in its mode.
for rec in --no-record ""; do
  set -- "floor=: < $work/claude.json" "git=git rev-parse HEAD < $work/claude.json"
  for c in claude codex gemini cursor; do
    # `|| :` on every hook alike: a block exits 2, which interleave
    # would take for a failure.
    set -- "$@" "$c=$gw hook $c $rec < $work/$c.json 2>/dev/null || :"
  done
  echo "## gitwarrant hook <client> ${rec:-(recorded)}, 50 loops, routed ($runs interleaved rounds)"
  "$work/interleave" -runs "$runs" -warmup 3 -floor floor -ref claude "$@"
  echo
done

# The installed commands, through sh (recorded, as a session runs them).
for c in claude codex codex-watchdog codex-legacy; do
  "$work/hookcmd" $c > "$work/$c.sh"
done
echo "## the installed command through sh, 50 loops, routed, recorded ($runs interleaved rounds)"
PATH="$work:$PATH" "$work/interleave" -runs "$runs" -warmup 3 -floor floor -ref claude \
  "floor=sh -c : < $work/claude.json" \
  "claude=sh $work/claude.sh < $work/claude.json 2>/dev/null || :" \
  "codex=sh $work/codex.sh < $work/codex.json 2>/dev/null || :" \
  "codex-watchdog=sh $work/codex-watchdog.sh < $work/codex.json 2>/dev/null || :" \
  "codex-legacy=sh $work/codex-legacy.sh < $work/codex.json 2>/dev/null || :"
