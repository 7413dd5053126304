#!/bin/sh
# bench/startup.sh — where the pinned decision's time goes before it
# decides (docs/performance.md#start-up), in one interleaved run against
# `git rev-parse HEAD`:
#
#   hello      a Go program that prints one line: Go's own start-up
#   floor      bench/startfloor: only the packages the hooks link (gate,
#              parse cache, record), exiting at once
#   small      bench/startfloor claude: the pinned decision from that
#              smaller binary (what a separate hook binary could reach)
#   version    `gitwarrant version`
#   pinned     `gitwarrant hook claude --loop fix-bug-on-branch --no-record`
#
# in the repository bench/session.sh decides in (every template, the
# parse cache warm). The aim of issue 26: pinned within 1.8× of git.
#
# Usage: bench/startup.sh [runs]   (default 40).
set -eu
runs=${1:-40}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$here" && CGO_ENABLED=0 go build -o "$work/gitwarrant" ./cmd/gitwarrant &&
  CGO_ENABLED=0 go build -o "$work/startfloor" ./bench/startfloor &&
  go build -o "$work/interleave" ./bench/interleave)
mkdir "$work/hello"
printf 'module hello\n\ngo 1.26\n' > "$work/hello/go.mod"
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hello\\n") }\n' > "$work/hello/main.go"
(cd "$work/hello" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -o "$work/hello-bin" .)
gw="$work/gitwarrant"
repo="$work/repo"
templates_repo "$gw" "$repo"
pl="$work/payload.json"
cat > "$pl" <<JSON
{"session_id":"8c1f","transcript_path":"/home/dev/.claude/projects/x/8c1f.jsonl","cwd":"$repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin fix/login && go test ./... 2>&1 | tee /tmp/test.log # push the fix","description":"Push the login fix branch for review","timeout":120000},"tool_use_id":"toolu_01XyZ"}
JSON
a=$("$gw" hook claude --loop fix-bug-on-branch --no-record < "$pl")
b=$("$work/startfloor" claude fix-bug-on-branch < "$pl")
[ "$a" = "$b" ] || { echo "startfloor answers differently:\n$a\n$b" >&2; exit 1; }
ls -l "$gw" "$work/startfloor" "$work/hello-bin" | awk '{print "size: " $5 " " $NF}' >&2
echo "load before: $(uptime | sed 's/.*load average: //')"
"$work/interleave" -runs "$runs" -warmup 3 -stdin "$pl" -floor sh -ref git -json "$work/m.json" \
  "sh=:" \
  "git=git rev-parse HEAD" \
  "hello=$work/hello-bin" \
  "floor=$work/startfloor" \
  "small=$work/startfloor claude fix-bug-on-branch" \
  "version=$gw version" \
  "pinned=$gw hook claude --loop fix-bug-on-branch --no-record"
echo "load after: $(uptime | sed 's/.*load average: //')"
interleave_aims "$work/m.json" sh "pinned|git|1.8" "small|git|1.8" "floor|git|1.8"
