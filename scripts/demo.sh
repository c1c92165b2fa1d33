#!/usr/bin/env bash
# The main demo: MLPerf Tiny's keyword-spotting network (DS-CNN, int8), imported from
# TensorFlow Lite, planned on the host, run on the default static-pool allocator. Prints
# the outputs, the time per inference and the memory, and checks the outputs against
# TensorFlow Lite Micro's reference outputs (integers byte for byte, floats within the
# tolerance the golden meta.json gives).
#   demo.sh [MODEL]   MODEL: a name from ../shared/models (e.g. person_detect) or a path to
#                     a .tflite file; its reference cases come from ../shared/golden/<name>.
set -euo pipefail
cd "$(dirname "$0")/.."
zoo="${GRT_MODEL_ZOO:-../shared}"
model="${1:-mlperf_kws_dscnn_int8}"

if [[ "$model" == */* || "$model" == *.tflite ]]; then
  tflite="$model"
  name="$(basename "$model" .tflite)"
else
  name="$model"
  tflite="$zoo/models/$name.tflite"
fi
if [ ! -f "$tflite" ]; then
  echo "demo: no model at $tflite (give a name from $zoo/models or a path to a .tflite file)" >&2
  exit 1
fi

# Only what the demo needs: the host tools and the runtime (no tests, benchmarks or Python).
bash scripts/install-deps.sh demo
# The Release preset's build (the one that gets installed), the graphrt tool only. A warning
# stops CI's build, never a user's demo.
werror=OFF
if [ "${CI:-}" = true ]; then werror=ON; fi
cmake --preset release -DGRT_BUILD_PYTHON=OFF -DGRT_WARNINGS_AS_ERRORS="$werror" >/dev/null
cmake --build --preset release --target graphrt

graphrt=build/release/tools/cli/graphrt
out=build/release/demo
mkdir -p "$out"
"$graphrt" import "$tflite" -o "$out/$name.grt"
"$graphrt" inspect "$out/$name.grt" | sed -n '1,/^$/p'

golden="$zoo/golden/$name"
if [ ! -f "$golden/case1.in0.bin" ]; then
  echo "demo: $golden has no reference cases; imported and inspected only"
  exit 0
fi
inputs=()
for f in "$golden"/case1.in*.bin; do inputs+=(--input "$f"); done
# Outputs, median time of 50 runs and memory (pools + the executor's bookkeeping).
"$graphrt" run "$out/$name.grt" "${inputs[@]}" --strategy static --repeat 50
"$graphrt" run "$out/$name.grt" "${inputs[@]}" --output-dir "$out" >/dev/null
python3 scripts/compare_golden.py "$golden" 1 "$out"
