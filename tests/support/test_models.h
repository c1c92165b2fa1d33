// Small models the tests build with the graph builder, and helpers to load and run them.
#ifndef GRAPHRT_TESTS_TEST_MODELS_H_
#define GRAPHRT_TESTS_TEST_MODELS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/graphrt.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"

namespace grt::test {

// x (int8 [1, n]) -> copy -> t1 -> copy -> ... -> y, planned in one pool.
tools::ModelDef copy_chain(int copies, int64_t n = 16);

// y = clamp(x + b, low, high) on float32 [1, 4], b = {1, 2, 3, 4} a constant: add_f32 with
// two Float arguments, planned in one pool.
tools::ModelDef add_constant_f32(double low, double high);

// cond (bool [1]), x (int8 [1, n]) -> if_else: x copied once (then) or twice (else) -> y;
// two subgraphs (schema 1.2), planned in one pool.
tools::ModelDef if_else_copy(int64_t n = 4);

// x (int8 [1, 4]) -> y: y is what State tensor `last` (starting 1, 2, 3, 4) held when the
// run began, then x is kept there. Runs from the initial state give 1, 2, 3, 4 every time.
tools::ModelDef remembers_last_input();

// Serializes into 16-byte aligned memory.
tools::AlignedBytes to_blob(const tools::ModelDef& model);

// A registry over the built-in kernels, plus room for user kernels.
struct Registry {
  Registry();
  grt_kernel_entry storage[8];
  grt_registry registry;
};

// An executor under the static strategy with its bookkeeping and pools, sized exactly
// from grt_model_requirements.
struct StaticRun {
  explicit StaticRun(const tools::AlignedBytes& blob, const grt_registry* registry = nullptr,
                     const grt_hooks* hooks = nullptr);
  grt_status status = GRT_ERR_ARGUMENT;
  grt_error error{};
  grt_requirements requirements{};
  Registry own_registry;
  tools::AlignedBytes storage;
  std::vector<tools::AlignedBytes> pools;
  std::vector<void*> pool_pointers;
  std::vector<size_t> pool_sizes;
  grt_executor* executor = nullptr;
};

// Loads a blob and returns the status init gives, with the message in *error.
grt_status init_status(const tools::AlignedBytes& blob, grt_error* error);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_TEST_MODELS_H_
