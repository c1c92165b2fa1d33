#!/usr/bin/env bash
# Builds the `fuzz` preset (clang + libFuzzer + ASan + UBSan) and runs every fuzz target for
# a bounded time, seeded from builder models and the model zoo (made now, not committed),
# the committed corpus and, when the zoo has it, its robustness/ reproducers (read in
# place, never copied). Fails on any crash, leak, timeout or sanitizer report.
#   tests/fuzz/run.sh [SECONDS] [SEED]
# SECONDS (default 120) is the whole run's budget, shared evenly by the targets (at least
# 10 s each). The mutations start from a fixed seed (SEED, else GRT_FUZZ_SEED, default 1),
# so CI explores the same path on every run and a finding there reproduces here; seed 0
# picks a random one, for long local runs: tests/fuzz/run.sh 3600 0.
set -euo pipefail
total_seconds="${1:-120}"
seed="${2:-${GRT_FUZZ_SEED:-1}}"
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
seconds=$(( total_seconds / ${#targets[@]} ))
[ "$seconds" -ge 10 ] || seconds=10
failed=()
for target in "${targets[@]}"; do
  work="$build/fuzz-corpus/$target"
  artifacts="$build/fuzz-artifacts/$target/"
  mkdir -p "$work" "$artifacts"
  inputs=("$work")
  # Seeds made now from builder models and the zoo, for the targets that have them.
  [ -d "$build/fuzz-seeds/$target" ] && inputs+=("$build/fuzz-seeds/$target")
  [ -d "tests/fuzz/corpus/$target" ] && inputs+=("tests/fuzz/corpus/$target")
  case "$target" in
    loader_fuzz | memory_fuzz | importer_fuzz) [ -d "$zoo/robustness" ] && inputs+=("$zoo/robustness") ;;
  esac
  # The CLI prints; only libFuzzer's own report is worth reading.
  quiet=()
  [ "$target" = cli_fuzz ] && quiet=(-close_fd_mask=3)
  echo "== $target: ${seconds}s"
  if ! "$build/tests/fuzz/$target" -max_total_time="$seconds" -seed="$seed" -timeout=20 -rss_limit_mb=2560 -max_len=131072 \
        "${quiet[@]}" -artifact_prefix="$artifacts" -print_final_stats=1 "${inputs[@]}"; then
    echo "== $target FAILED: reproducer in $artifacts" >&2
    failed+=("$target")
  fi
done
# Named again at the end, where a log's tail shows it, with each reproducer's file name, on
# both streams (not `tee /dev/stderr`: when stderr is a file, tee truncates it).
both() {
  echo "$1"
  echo "$1" >&2
}
if [ "${#failed[@]}" -gt 0 ]; then
  for target in "${failed[@]}"; do
    both "fuzz: $target FAILED; reproducer: $(ls "$build/fuzz-artifacts/$target" 2>/dev/null | tr '\n' ' ')"
    # A small reproducer is printed whole (base64), so a CI log alone is enough to replay it.
    for file in "$build/fuzz-artifacts/$target"/*; do
      [ -f "$file" ] && [ "$(stat -c %s "$file")" -le 8192 ] &&
        both "fuzz: $(basename "$file") base64: $(base64 -w0 "$file")"
    done
  done
  exit 1
fi
