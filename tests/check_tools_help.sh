#!/bin/sh
# check_tools_help.sh TOOL... — every tool answers --help with its usage on stdout and exit 0, and an unknown
# flag with exit 2 (strata-font and strata-sounds once exited 2 on --help).
fail=0
for tool in "$@"; do
    out=$("$tool" --help 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || [ -z "$out" ]; then
        echo "FAIL: $(basename "$tool") --help exited $rc (expected 0 with its usage)"; fail=1
    fi
    "$tool" --no-such-flag >/dev/null 2>&1; rc=$?
    if [ "$rc" -ne 2 ]; then echo "FAIL: $(basename "$tool") --no-such-flag exited $rc (expected 2)"; fail=1; fi
done
[ "$fail" -eq 0 ] && echo "ok: $# tools"
exit $fail
