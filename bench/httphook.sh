#!/bin/sh
# bench/httphook.sh — Claude Code's http hook at the client (issue 25,
# "Performance"): a warm `gitwarrant serve`, one kept-alive connection,
# the PreToolUse payload of bench/hook.sh (a git push, routed over 50
# loops) and an allowed `git status` pinned to a fix loop, each recorded
# (the entry's line in the server's journal before the answer, its commit
# on refs/gitwarrant/<writer> in batches after: docs/record.md#the-journal)
# and not (?no-record=1); `git rev-parse HEAD` is timed in the same run by
# the same client (bench/httphook/main.go), and the load is printed. Aims:
# recorded, p50 under 0.5 ms and p99 under 2 ms. At the end the server is
# stopped and `record verify` and `record log` must show every recorded
# post.
#
# Usage: bench/httphook.sh [posts]   (default 2000)
set -eu
n=${1:-2000}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
echo "building gitwarrant, gitwarrant-mcp and the client…" >&2
(cd "$here" && go build -o "$work/" ./cmd/gitwarrant ./cmd/gitwarrant-mcp ./bench/httphook)
gw="$work/gitwarrant"
repo="$work/repo"
mkdir -p "$repo"
cd "$repo"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
git init -q -b main
echo hello > README.md
"$gw" init >/dev/null
"$gw" new fix --template fix-bug-on-branch >/dev/null
i=1
while [ $i -le 50 ]; do
  n2=$(printf '%02d' $i)
  "$gw" new "task-$n2" --template fix >/dev/null 2>&1 || true
  i=$((i + 1))
done
git add -A && git commit -q -m init
key=$("$gw" keys create --label bench --scope hook 2>/dev/null)
port=$((20000 + $$ % 10000))
"$gw" serve --addr "127.0.0.1:$port" 2>"$work/serve.log" &
pid=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do grep -q serving "$work/serve.log" 2>/dev/null && break; sleep 0.3; done
cat > "$work/push.json" <<JSON
{"session_id":"8c1f","transcript_path":"/home/dev/.claude/projects/x/8c1f.jsonl","cwd":"$repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin feature/login-fix","description":"Push the login fix branch for review","timeout":120000},"tool_use_id":"toolu_01XyZ"}
JSON
cat > "$work/status.json" <<JSON
{"session_id":"8c1f","cwd":"$repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"toolu_02"}
JSON
url="http://127.0.0.1:$port/hooks/claude"
run() {
  echo "### $1"
  "$work/httphook" -url "$2" -key "$key" -payload "$3" -n "$n" -git-n 300
}
echo "## http hook, warm server ($n posts; load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime))"
run "git status, loop fix, recorded" "$url?loop=fix" "$work/status.json"
run "git status, loop fix, not recorded" "$url?loop=fix&no-record=1" "$work/status.json"
run "git push, routed over 52 loops, recorded" "$url" "$work/push.json"
run "git push, routed over 52 loops, not recorded" "$url?no-record=1" "$work/push.json"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
kill "$pid" && wait "$pid" 2>/dev/null || true
pid=
"$gw" record verify >/dev/null
entries=$("$gw" record log --json | wc -l)
want=$((2 * (n + 50)))
echo "record: verified, $entries entries (recorded posts, warm-up included: $want)"
[ "$entries" -ge "$want" ]
