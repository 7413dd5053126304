# bench/lib.sh — shared by the bench/ scripts (sourced,
# not run). Builds gitwarrant twice — the default build (dynamically linked
# when cgo is available, because pflag imports `net`) and a static one
# (CGO_ENABLED=0) — and prints each script's final ratio table from
# hyperfine's CSV export. These machines are noisy: compare ratios measured
# in the same run, never milliseconds across runs.

# build_both <module root> <out dir>: writes <out>/gitwarrant (default)
# and <out>/gitwarrant-static.
build_both() {
  (cd "$1" && go build -o "$2/gitwarrant" ./cmd/gitwarrant &&
    CGO_ENABLED=0 go build -o "$2/gitwarrant-static" ./cmd/gitwarrant)
}

# templates_repo <gitwarrant> <dir>: a committed Git repository at <dir>
# whose project holds every template as `new` writes it (the baseline
# included, every job loop extending it); the shell is left in <dir>.
templates_repo() {
  mkdir -p "$2"
  cd "$2"
  export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
  export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
  git init -q -b main
  "$1" init >/dev/null
  for t in $("$1" templates | awk '$1 ~ /^[a-z0-9-]+$/ {print $1}'); do
    "$1" new "$t" --template "$t" >/dev/null 2>&1 || true
  done
  echo hello > README.md
  git add -A && git commit -q -m init
}

# ratio_table <csv> <baseline name> <aim>…: a Markdown table of every
# command's mean, σ, median and CPU time (user + system) and their ratios
# to the baseline, then one line per aim. An aim is "name|reference|limit":
# name / reference must be under limit (e.g. "check --no-record|git
# rev-parse HEAD|2"), judged on medians (a shared machine's outliers move
# means); the mean ratio is shown beside it.
ratio_table() {
  csv=$1 base=$2
  shift 2
  awk -F, -v base="$base" -v aims="$(printf '%s\n' "$@")" '
    NR == 1 { next }
    { name[NR] = $1; mean[$1] = $2 * 1000; sd[$1] = $3 * 1000; med[$1] = $4 * 1000; cpu[$1] = ($5 + $6) * 1000; order[++n] = $1 }
    END {
      printf "\n| command | mean ms | σ ms | median ms | CPU ms | × %s (median) | × (CPU) |\n|---|---:|---:|---:|---:|---:|---:|\n", base
      for (i = 1; i <= n; i++) {
        c = order[i]
        printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f× | %.2f× |\n", c, mean[c], sd[c], med[c], cpu[c], (med[base] > 0 ? med[c] / med[base] : 0), (cpu[base] > 0 ? cpu[c] / cpu[base] : 0)
      }
      printf "\n"
      k = split(aims, lines, "\n")
      for (i = 1; i <= k; i++) {
        if (lines[i] == "") continue
        split(lines[i], a, "|")
        if (!(a[1] in med) || !(a[2] in med)) continue
        r = med[a[1]] / med[a[2]]
        printf "aim: %-34s / %-26s = %.2f median, %.2f mean (limit %s) %s\n", a[1], a[2], r, mean[a[1]] / mean[a[2]], a[3], (r < a[3] ? "MET" : "MISSED")
      }
    }' "$csv"
}

# merge_csv <out> <in>…: concatenates hyperfine CSV exports (one header).
merge_csv() {
  out=$1
  shift
  head -n 1 "$1" > "$out"
  for f in "$@"; do tail -n +2 "$f" >> "$out"; done
}

# net_csv <in> <floor name> <out>: the same rows with the floor's mean,
# median and CPU times subtracted (for commands that must run under `sh
# -c` to get a stdin redirect: the shell's own start-up is not the
# command's cost). The floor row itself is dropped.
net_csv() {
  awk -F, -v OFS=, -v floor="$2" '
    NR == 1 { print; next }
    { row[NR] = $0; name[NR] = $1; if ($1 == floor) { f[2] = $2; f[4] = $4; f[5] = $5; f[6] = $6 } }
    END { for (i = 2; i <= NR; i++) if (name[i] != floor) { n = split(row[i], c, ","); c[2] -= f[2]; c[4] -= f[4]; c[5] -= f[5]; c[6] -= f[6]; line = c[1]; for (j = 2; j <= n; j++) line = line OFS c[j]; print line } }' "$1" > "$3"
}

# record_repo <module root> <work dir>: builds gitwarrant and mkchain into
# <work dir> (first on PATH), sets a fixed git identity, and makes
# <work dir>/repo a Git repository with the insurance-appeal loop as
# `appeal`, the current directory. Shared by the record-scale benchmarks.
record_repo() {
  (cd "$1" && go build -o "$2/gitwarrant" ./cmd/gitwarrant && go build -o "$2/mkchain" ./bench/mkchain)
  export PATH="$2:$PATH"
  export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
  mkdir -p "$2/repo" && cd "$2/repo"
  git init -q -b main
  gitwarrant init >/dev/null
  gitwarrant new appeal --template insurance-appeal >/dev/null
}

# interleave_aims <json> <floor> <aim>…: one line per aim from bench/
# interleave's -json medians, net of the floor command (the shell's own
# start-up). An aim is "name|reference|limit": name / reference, in wall
# time (judged) and in CPU time (shown: waiting for a CPU on a shared
# machine does not inflate it).
interleave_aims() {
  json=$1 floor=$2
  shift 2
  awk -v floor="$floor" -v aims="$(printf '%s\n' "$@")" '
    /"Name":/ { v = $0; sub(/.*"Name": *"/, "", v); sub(/".*/, "", v); name = v }
    /"wall_ms":/ { v = $0; sub(/.*: */, "", v); sub(/,.*/, "", v); wall[name] = v }
    /"cpu_ms":/ { v = $0; sub(/.*: */, "", v); sub(/,.*/, "", v); cpu[name] = v }
    END {
      k = split(aims, lines, "\n")
      for (i = 1; i <= k; i++) {
        if (lines[i] == "") continue
        split(lines[i], a, "|")
        if (!(a[1] in wall) || !(a[2] in wall)) continue
        r = (wall[a[1]] - wall[floor]) / (wall[a[2]] - wall[floor])
        rc = (cpu[a[1]] - cpu[floor]) / (cpu[a[2]] - cpu[floor])
        printf "aim: %-10s / %-10s = %.2f× wall, %.2f× CPU (limit %s) %s\n", a[1], a[2], r, rc, a[3], (r <= a[3] ? "MET" : "MISSED")
      }
    }' "$json"
}

# routed_repo <dir>: a committed Git repository at <dir> holding 50 chore
# loops and ship-feature, so a `git push` routes over every loop; the shell
# is left in <dir>. bench/hook.sh and bench/agents.sh decide in it.
routed_repo() {
mkdir -p "$1/.gitwarrant/loops"
cd "$1"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
git init -q -b main
i=1
while [ $i -le 50 ]; do
  n=$(printf '%02d' $i)
  cat > ".gitwarrant/loops/task-$n.loop.md" <<LOOP
---
name: task-$n
description: Recurring chore number $n for the widget$n service.
version: 1
triggers: [widget$n maintenance, chore $n]
warrant:
  read: [source code, logs of widget$n]
  draft: [release notes for widget$n]
  change: [widget$n source files, widget$n tests]
  send: [status update about widget$n]
  ask: [deploying widget$n, changing widget$n dependencies]
  never: [deleting widget$n data, secrets]
---
# Brief

Chore $n.
LOOP
  i=$((i + 1))
done
cat > .gitwarrant/loops/ship-feature.loop.md <<'LOOP'
---
name: ship-feature
description: Finish a feature branch and push it for review.
version: 1
triggers: [git push, feature branch]
warrant:
  read: [source code, git history]
  draft: [pull request description]
  change: [source files, test files]
  send: [git push origin feature]
  ask: [merging a pull request]
  never: [force push, pushing to main]
---
# Brief

Ship it.
LOOP
echo hello > README.md
git add -A && git commit -q -m init
}
