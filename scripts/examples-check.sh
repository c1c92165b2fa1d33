#!/usr/bin/env bash
# Installs graphrt as a package and builds the examples against the install, not the source
# tree: the host package from a Release build (build/release), the Cortex-M4 package from
# the cortex-m4 preset's build; then runs the host example and the Make example, and the
# firmware example under qemu, on keyword spotting's first golden case.
set -euo pipefail
cd "$(dirname "$0")/.."
zoo="$(cd "${GRT_MODEL_ZOO:-../shared}" && pwd)"
model="${1:-mlperf_kws_dscnn_int8}"
golden="$zoo/golden/$model"
prefix="$(pwd)/build/prefix"

cmake --preset release >/dev/null
cmake --build --preset release
if [ ! -f build/cortex-m4/build.ninja ]; then cmake --preset cortex-m4 >/dev/null; fi
cmake --build build/cortex-m4 --target grt_runtime grt_runtime_minimal grt_kernels grt_allocators grt_platform_cortex_m
rm -rf "$prefix" build/examples
cmake --install build/release --prefix "$prefix/host" >/dev/null
cmake --install build/cortex-m4 --prefix "$prefix/cortex-m4" >/dev/null

echo "examples: host program (find_package + graphrt_add_model)"
cmake -S examples/host -B build/examples/host -G Ninja -DCMAKE_PREFIX_PATH="$prefix/host" \
  -DMODEL="$zoo/models/$model.tflite" >/dev/null
cmake --build build/examples/host
mkdir -p build/examples/host/out
inputs=("$golden"/case1.in*.bin)
build/examples/host/run_model "${inputs[@]}" build/examples/host/out
cmp build/examples/host/out/out0.bin "$golden/case1.out0.bin"
echo "examples: host output matches TFLM's reference"

echo "examples: Make program (pkg-config)"
PKG_CONFIG_PATH="$prefix/host/lib/pkgconfig" make -s -C examples/make >/dev/null
examples/make/list_kernels >/dev/null
make -s -C examples/make clean

echo "examples: the installed Python module on the same case"
PYTHONPATH="$prefix/host/lib/python3/dist-packages" /usr/bin/python3 - "$zoo/models/$model.tflite" "$golden" <<'PY'
import pathlib, sys
import numpy as np
import graphrt
model = graphrt.import_tflite(sys.argv[1])
golden = pathlib.Path(sys.argv[2])
inputs = [np.fromfile(golden / f"case1.in{i}.bin", dtype=t["dtype"]).reshape(t["shape"]) for i, t in enumerate(model.inputs)]
got = list(model.run(inputs).values())[0]
assert got.tobytes() == (golden / "case1.out0.bin").read_bytes(), "output differs from TFLM's"
print("examples: installed Python module matches TFLM's reference")
PY

echo "examples: Cortex-M4 firmware under qemu (mps2-an386)"
cmake -S examples/cortex-m4 -B build/examples/cortex-m4 -G Ninja -DCMAKE_BUILD_TYPE=MinSizeRel \
  --toolchain "$prefix/cortex-m4/share/graphrt/toolchains/arm-none-eabi-cortex-m4.cmake" \
  -Dgraphrt_DIR="$prefix/cortex-m4/lib/cmake/graphrt" -DGRAPHRT_EXECUTABLE="$prefix/host/bin/graphrt" \
  -DMODEL="$zoo/models/$model.tflite" -DINPUT="$golden/case1.in0.bin" -DEXPECTED="$golden/case1.out0.bin" >/dev/null
cmake --build build/examples/cortex-m4
timeout 300 qemu-system-arm -M mps2-an386 -nographic -semihosting-config enable=on,target=native \
  -kernel build/examples/cortex-m4/example_firmware.elf
echo "examples: all passed against the installed packages"
