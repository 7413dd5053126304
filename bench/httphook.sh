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
# Each post carries its own tool_use_id, as Claude Code's do. With
# BASE=<revision>, that revision is built too and served from its own
# repository, made the same way, and every post goes to both servers in
# turn (bench/httphook -base-url), so the two builds are compared under
# the same load.
#
# Usage: [BASE=rev] bench/httphook.sh [posts]   (default 2000)
set -eu
n=${1:-2000}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$work"' EXIT
echo "building gitwarrant, gitwarrant-mcp and the client…" >&2
(cd "$here" && go build -o "$work/" ./cmd/gitwarrant ./cmd/gitwarrant-mcp ./bench/httphook)
if [ -n "${BASE:-}" ]; then
  echo "building $BASE…" >&2
  mkdir -p "$work/basesrc" "$work/basebin"
  (cd "$here" && git archive "$BASE") | tar -x -C "$work/basesrc"
  (cd "$work/basesrc" && go build -o "$work/basebin/" ./cmd/gitwarrant ./cmd/gitwarrant-mcp)
fi
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

# setup GW REPO PORT: a repository with the fix loop and 50 more, a hook
# key (in $REPO.key) and GW's server listening on PORT.
setup() {
  s_gw=$1 s_repo=$2 s_port=$3
  mkdir -p "$s_repo"
  (
    cd "$s_repo"
    git init -q -b main
    echo hello > README.md
    "$s_gw" init >/dev/null
    "$s_gw" new fix --template fix-bug-on-branch >/dev/null
    i=1
    while [ $i -le 50 ]; do
      n2=$(printf '%02d' $i)
      "$s_gw" new "task-$n2" --template fix >/dev/null 2>&1 || true
      i=$((i + 1))
    done
    git add -A && git commit -q -m init
    "$s_gw" keys create --label bench --scope hook 2>/dev/null > "$s_repo.key"
    "$s_gw" serve --addr "127.0.0.1:$s_port" 2>"$s_repo.log" &
    echo $! > "$s_repo.pid"
  )
  pids="$pids $(cat "$s_repo.pid")"
  for _ in 1 2 3 4 5 6 7 8 9 10; do grep -q serving "$s_repo.log" 2>/dev/null && break; sleep 0.3; done
}
gw="$work/gitwarrant"
repo="$work/repo"
port=$((20000 + $$ % 10000))
setup "$gw" "$repo" "$port"
key=$(cat "$repo.key")
pid=$(cat "$repo.pid")
base=
if [ -n "${BASE:-}" ]; then
  setup "$work/basebin/gitwarrant" "$work/baserepo" $((port + 1))
  base="-base-key $(cat "$work/baserepo.key")"
fi
cd "$repo"
for r in "$repo" "$work/baserepo"; do
  [ -d "$r" ] || continue
  cat > "$r.push.json" <<JSON
{"session_id":"8c1f","transcript_path":"/home/dev/.claude/projects/x/8c1f.jsonl","cwd":"$r","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin feature/login-fix","description":"Push the login fix branch for review","timeout":120000},"tool_use_id":"toolu_01XyZ@N@"}
JSON
  cat > "$r.status.json" <<JSON
{"session_id":"8c1f","cwd":"$r","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"toolu_02@N@"}
JSON
done
url="http://127.0.0.1:$port/hooks/claude"
baseurl="http://127.0.0.1:$((port + 1))/hooks/claude"
run() {
  echo "### $1"
  if [ -n "$base" ]; then
    "$work/httphook" -url "$url$2" -key "$key" -payload "$repo.$3.json" -n "$n" -git-n 300 \
      -base-url "$baseurl$2" $base -base-payload "$work/baserepo.$3.json"
  else
    "$work/httphook" -url "$url$2" -key "$key" -payload "$repo.$3.json" -n "$n" -git-n 300
  fi
}
echo "## http hook, warm server ($n posts; load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime))"
run "git status, loop fix, recorded" "?loop=fix" status
run "git status, loop fix, not recorded" "?loop=fix&no-record=1" status
run "git push, routed over 52 loops, recorded" "" push
run "git push, routed over 52 loops, not recorded" "?no-record=1" push
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
kill "$pid" && wait "$pid" 2>/dev/null || true
"$gw" record verify >/dev/null
entries=$("$gw" record log --json | wc -l)
want=$((2 * (n + 50)))
echo "record: verified, $entries entries (recorded posts, warm-up included: $want)"
[ "$entries" -ge "$want" ]
