#!/bin/bash
# Switching between `make html` and `make watch` (issue 44): each step saves one edit of a
# msgstr in locale/ko/LC_MESSAGES/CATALOG.po (none before the first `html`), then runs
#   html  -> jaxko site build                         (executes the Korean notebooks)
#   watch -> jaxko site watch --no-execute --builds 1 (make watch's first build)
# into the default _build/html, and prints its wall time and Sphinx's line (documents
# read, pages written, Sphinx's seconds).
#
# Usage: benchmarks/mode_switch.sh ROOT CATALOG STEP...   e.g.
#   benchmarks/mode_switch.sh /tmp/copy faq html0 watch1 html2 watch3
# ROOT: a copy of the checkout (its catalog is edited) with _build/upstream staged and
# `jaxko` of that copy first on PATH (PYTHONPATH=ROOT/tools). Logs: ROOT/_build/switch-STEP.log.
set -u
cd "$1"
export JAXKO_PROGRESS_INTERVAL=1000
PO=locale/ko/LC_MESSAGES/$2.po
step() {
  local name=$1; shift
  local log=_build/switch-$name.log t0 t1 rc
  t0=$(date +%s.%N)
  "$@" > "$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  echo "$name: $* -> exit $rc, $(echo "$t1 - $t0" | bc) s wall; $(grep -h '^Sphinx:' "$log" | tail -1)"
}
edit() { python - "$PO" "$1" <<'PY'
import sys, polib
po = polib.pofile(sys.argv[1])
e = next(e for e in po if e.msgstr and not e.fuzzy and len(e.msgstr) > 40 and "`" not in e.msgstr)
e.msgstr = e.msgstr.rstrip() + sys.argv[2]
po.save(sys.argv[1])
PY
}
shift 2
for s in "$@"; do
  case $s in
    html0) step "$s" jaxko site build ;;
    html*) edit " $s"; step "$s" jaxko site build ;;
    watch*) edit " $s"; step "$s" jaxko site watch --no-execute --builds 1 ;;
  esac
done
