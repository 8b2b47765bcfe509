#!/usr/bin/env bash
# Repo-wide occurrence counts of Effect 3 APIs that change in Effect 4.
# Usage: docs/effect4-migration/count.sh [git-ref]   (default: HEAD's parent state via `git grep` on the given ref, else working tree)
# Counts over packages/*/src and packages/*/test (+ test-support, bench, examples as a separate column).
set -uo pipefail
cd "$(dirname "$0")/../.."
REF="${1:-}"
count() { # pattern, pathspecs...
  local pat="$1"; shift
  if [ -n "$REF" ]; then git grep -P -o -e "$pat" "$REF" -- "$@" 2>/dev/null | wc -l || true
  else git grep -P -o -e "$pat" -- "$@" 2>/dev/null | wc -l || true; fi
}
row() { # label, pattern
  local s t o
  s=$(count "$2" 'packages/*/src/**')
  t=$(count "$2" 'packages/*/test/**')
  o=$(count "$2" 'test-support/**' 'bench/**' 'examples/**')
  printf '%-48s %6s %6s %6s\n' "$1" "$s" "$t" "$o"
}
printf '%-48s %6s %6s %6s\n' "pattern" "src" "test" "other"
while IFS='|' read -r label pat; do
  [ -z "$label" ] && continue
  case "$label" in \#*) continue;; esac
  row "$label" "$pat"
done < docs/effect4-migration/patterns.txt
