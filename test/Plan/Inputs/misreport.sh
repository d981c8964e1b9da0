#!/bin/sh
# A layoutc whose explain misreports the chunk count of 64-chunk kernels:
# explain_matches_plan.py must catch it.
if echo "$*" | grep -q -- --emit=explain; then
  "$LAYOUTC" "$@" | sed 's/"chunks": 64/"chunks": 32/'
else
  exec "$LAYOUTC" "$@"
fi
