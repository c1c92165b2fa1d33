#!/usr/bin/env bash
# The main demo: MLPerf Tiny's keyword-spotting network (DS-CNN, int8), imported from
# TensorFlow Lite, planned on the host, run on the default static-pool allocator. Prints
# the outputs, the time per inference and the memory, and checks the outputs against
# TensorFlow Lite Micro's reference bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
zoo="${GRT_MODEL_ZOO:-../shared}"
model="${1:-mlperf_kws_dscnn_int8}"

bash scripts/install-deps.sh
cmake --preset host >/dev/null
cmake --build --preset host --target graphrt

graphrt=build/host/tools/cli/graphrt
out=build/demo
mkdir -p "$out"
"$graphrt" import "$zoo/models/$model.tflite" -o "$out/$model.grt"
"$graphrt" inspect "$out/$model.grt" | sed -n '1,/^$/p'
# Outputs, median time of 50 runs and memory (pools + the executor's bookkeeping).
"$graphrt" run "$out/$model.grt" --input "$zoo/golden/$model/case1.in0.bin" --strategy static --repeat 50
"$graphrt" run "$out/$model.grt" --input "$zoo/golden/$model/case1.in0.bin" --output-dir "$out" >/dev/null
if cmp -s "$out/out0.bin" "$zoo/golden/$model/case1.out0.bin"; then
  echo "demo: output matches TensorFlow Lite Micro's reference byte for byte"
else
  echo "demo: output differs from TensorFlow Lite Micro's reference" >&2
  exit 1
fi
