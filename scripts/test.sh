#!/usr/bin/env bash
# The whole test suite on the host: install dependencies, build (preset "host"), run CTest.
# Real-model tests read ../shared (or $GRT_MODEL_ZOO); they skip with a note when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset host >/dev/null
cmake --build --preset host
ctest --preset host
