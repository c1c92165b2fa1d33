#!/usr/bin/env bash
# Builds the `fuzz` preset (clang + libFuzzer + ASan + UBSan) and runs every fuzz target for
# a bounded time, seeded from builder models and the model zoo (made now, not committed)
# plus the committed corpus. Fails on any crash, leak, timeout or sanitizer report.
#   tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 60)
# The mutations start from a fixed seed (GRT_FUZZ_SEED, default 1), so CI explores the same
# path on every run and a finding there reproduces here; GRT_FUZZ_SEED=0 picks a random
# seed for longer exploratory runs.
set -euo pipefail
seconds="${1:-60}"
seed="${GRT_FUZZ_SEED:-1}"
cd "$(dirname "$0")/../.."
root="$PWD"
build="${GRT_FUZZ_BUILD_DIR:-$root/build/fuzz}"
zoo="${GRT_MODEL_ZOO:-$root/../shared}"

cmake --preset fuzz -B "$build" >/dev/null
IFS=";" read -r -a targets < "$build/fuzz_targets.txt" || true  # no trailing newline
cmake --build "$build" -j2 --target fuzz_seed_corpus "${targets[@]}"

"$build/tests/fuzz/fuzz_seed_corpus" "$build/fuzz-seeds" "$zoo"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
status=0
for target in "${targets[@]}"; do
  work="$build/fuzz-corpus/$target"
  artifacts="$build/fuzz-artifacts/$target/"
  mkdir -p "$work" "$artifacts"
  inputs=("$work" "$build/fuzz-seeds/$target")
  [ -d "tests/fuzz/corpus/$target" ] && inputs+=("tests/fuzz/corpus/$target")
  echo "== $target: ${seconds}s"
  if ! "$build/tests/fuzz/$target" -max_total_time="$seconds" -seed="$seed" -timeout=20 -rss_limit_mb=2560 -max_len=131072 \
        -artifact_prefix="$artifacts" -print_final_stats=1 "${inputs[@]}"; then
    echo "== $target FAILED: reproducer in $artifacts" >&2
    status=1
  fi
done
exit $status
