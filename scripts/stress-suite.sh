#!/usr/bin/env bash
# Is the test suite steady under load?  Runs N fresh clones of the current commit at once, each
# `CI=true make test` from nothing (its own .venv, compiled modules, PostgreSQL cluster, Chromium
# pages), as CI runs it, and reports for each copy: passed or failed, the pass counts, the failed
# tests and the wall time.  Exits non-zero if any copy failed.
#
#   scripts/stress-suite.sh N            # e.g. 2: two copies side by side on this machine
#   scripts/stress-suite.sh N --keep     # keep the clones (else only their logs are kept)
#
# The clones and logs go to a new folder under ${STRESS_DIR:-/tmp} (printed at the start); the
# summary is also written to its summary.txt.  Only committed work is tested: the clones check out
# HEAD (uncommitted changes are named and left out).
set -uo pipefail

usage() { echo "usage: $0 N [--keep]   (N: how many copies run at once, 1 or more)" >&2; exit 2; }
[ $# -ge 1 ] || usage
n="$1"
[[ "$n" =~ ^[1-9][0-9]*$ ]] || usage
keep=0
[ "${2:-}" = "--keep" ] && keep=1
[ $# -le 2 ] || usage

top="$(git rev-parse --show-toplevel)" || exit 2
commit="$(git -C "$top" rev-parse HEAD)"
if [ -n "$(git -C "$top" status --porcelain --untracked-files=no)" ]; then
  echo "stress-suite: uncommitted changes are not tested (the clones check out $commit):" >&2
  git -C "$top" status --short --untracked-files=no >&2
fi
root="$(mktemp -d "${STRESS_DIR:-/tmp}/stress-suite.XXXXXX")" || exit 2
mkdir -p "$root/logs"
echo "stress-suite: $n fresh clone(s) of $(git -C "$top" log -1 --format='%h %s' "$commit" | cut -c1-80)"
echo "stress-suite: in $root; started $(date '+%F %T'), load average $(cut -d' ' -f1-3 /proc/loadavg)"

for i in $(seq 1 "$n"); do
  dir="$root/copy-$i"
  git clone --quiet --no-checkout "$top" "$dir" && git -C "$dir" checkout --quiet --detach "$commit" || {
    echo "stress-suite: could not clone copy $i" >&2; exit 2; }
done

for i in $(seq 1 "$n"); do
  (
    cd "$root/copy-$i" || exit 2
    start=$(date +%s)
    CI=true make test > "$root/logs/copy-$i.log" 2>&1
    rc=$?
    echo "$rc $(( $(date +%s) - start ))" > "$root/logs/copy-$i.result"
  ) &
done
wait

failed=0
for i in $(seq 1 "$n"); do
  read -r rc _ < "$root/logs/copy-$i.result" 2>/dev/null || rc=99
  [ "$rc" -eq 0 ] || failed=1
done
{
  echo "stress-suite: $n copies of $commit, finished $(date '+%F %T'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  for i in $(seq 1 "$n"); do
    log="$root/logs/copy-$i.log"
    read -r rc secs < "$root/logs/copy-$i.result" || { rc=99; secs=0; }
    # pytest's last line: "1 failed, 1670 passed, 2 skipped, 2 warnings in 613.10s (0:10:13)"
    counts="$(grep -E '^(=+ )?[0-9]+ (passed|failed|error)' "$log" | tail -1 | sed -E 's/^=+ //; s/ =+$//')"
    verdict=passed
    [ "$rc" -eq 0 ] || verdict="FAILED (make exit $rc)"
    printf 'copy %d: %s; %s; wall %dm%02ds (set-up and tests)\n' "$i" "$verdict" "${counts:-no pytest summary}" \
      $((secs / 60)) $((secs % 60))
    grep -E '^(FAILED|ERROR) ' "$log" | sed 's/^/    /'
    [ "$rc" -ne 0 ] && [ -z "$counts" ] && tail -5 "$log" | sed 's/^/    | /'
  done
  echo "logs: $root/logs"
} | tee "$root/summary.txt"

if [ "$keep" -eq 0 ]; then
  for i in $(seq 1 "$n"); do rm -rf "$root/copy-$i"; done
fi
exit "$failed"
