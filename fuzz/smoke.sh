#!/usr/bin/env bash
# Fuzz smoke: `fuzz/smoke.sh [SECONDS [TARGET...]]` builds the fuzz targets and runs each
# TARGET (default: all) for SECONDS (default 30) from its committed seeds, in a throw-away
# corpus. Fails on the first crash or timeout, printing the fuzzer's output; the input is
# left in fuzz/artifacts/TARGET/. Needs `cargo +nightly fuzz`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo +nightly fuzz build
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
for target in "${targets[@]}"; do
  mkdir -p "$work/$target"
  if ! cargo +nightly fuzz run "$target" "$work/$target" "fuzz/seeds/$target" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 >"$work/log" 2>&1; then
    cat "$work/log"
    echo "fuzz smoke: $target failed; add the input to tests/fuzz/$target/ with the fix" >&2
    exit 1
  fi
  echo "fuzz smoke: $target: $(grep -E '^Done [0-9]+ runs' "$work/log" || echo 'ran')"
done
