#!/bin/sh
# bench/gate.sh — the gate's decision cost (docs/threat-model.md): the
# static build's `gitwarrant hook claude --loop L --no-record` on a Bash
# PreToolUse payload, pinned to a template loop in a project that holds
# every template (baseline included), against `git rev-parse HEAD`, both
# under `sh -c` with the same stdin redirect. Reports medians (and the
# median net of the shell) of N runs; the aim is ≤ 1.5× git.
#
# Usage: bench/gate.sh [runs]   (default 30). Needs hyperfine; see
# bench/lib.sh for the static build.
set -eu
runs=${1:-30}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/lib.sh"
command -v hyperfine >/dev/null 2>&1 || { echo "bench/gate.sh needs hyperfine: apt-get install -y hyperfine" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_both "$here" "$work"
gws="$work/gitwarrant-static"
repo="$work/repo"
mkdir -p "$repo"
cd "$repo"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
git init -q -b main
"$gws" init >/dev/null
for t in $("$gws" templates | awk 'NR>0 && $1 ~ /^[a-z0-9-]+$/ {print $1}'); do
  "$gws" new "$t" --template "$t" >/dev/null 2>&1 || true
done
echo hello > README.md
git add -A && git commit -q -m init
pl="$work/payload.json"
cat > "$pl" <<JSON
{"session_id":"8c1f","transcript_path":"/home/dev/.claude/projects/x/8c1f.jsonl","cwd":"$repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin feature/login-fix && go test ./... 2>&1 | tee /tmp/test.log # push the fix","description":"Push the login fix branch for review","timeout":120000},"tool_use_id":"toolu_01XyZ"}
JSON
echo "loops: $(ls .gitwarrant/loops | wc -l); sanity: $("$gws" hook claude --loop fix-bug-on-branch --no-record < "$pl")" >&2
hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/h.json" \
  -n "sh -c ':' (floor)" "sh -c ': < $pl'" \
  -n "git rev-parse HEAD" "sh -c 'git rev-parse HEAD < $pl'" \
  -n "hook claude --loop fix-bug-on-branch --no-record (static)" "sh -c '$gws hook claude --loop fix-bug-on-branch --no-record < $pl'" \
  -n "hook claude --no-record, unpinned (static)" "sh -c '$gws hook claude --no-record < $pl'" >&2
# Medians from the JSON export (one "median" per command, in order).
awk -v runs="$runs" '
  /"command":/ { sub(/.*"command": *"/, ""); sub(/",?$/, ""); name[++n] = $0 }
  /"median":/ { v = $0; sub(/.*"median": */, "", v); sub(/,.*/, "", v); med[n] = v * 1000 }
  END {
    printf "\n## gate decision, static build, medians of %d runs\n\n| command | median ms | net of sh ms | × git rev-parse (net) |\n|---|---:|---:|---:|\n", runs
    floor = med[1]; git = med[2] - floor
    for (i = 1; i <= n; i++) printf "| %s | %.2f | %.2f | %.2f× |\n", name[i], med[i], med[i] - floor, (git > 0 ? (med[i] - floor) / git : 0)
    r = (git > 0 ? (med[3] - floor) / git : 999)
    printf "\naim: pinned hook / git rev-parse HEAD (net of sh) = %.2f (limit 1.5) %s\n", r, (r <= 1.5 ? "MET" : "MISSED")
    r2 = med[3] / med[2]
    printf "raw (each under sh -c): %.2f\n", r2
  }' "$work/h.json"
