// libFuzzer target: the TensorFlow Lite importer on arbitrary bytes, then the planner,
// serialization, the loader's checks and init (with every kernel's argument check) on
// whatever it produced. Any outcome but a crash or a sanitizer report is fine here; that
// `graphrt import` never writes a blob the runtime refuses is the CLI's own check.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "graphrt/graphrt.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  grt::tools::ModelDef model;
  const grt::tools::ImportResult result = grt::tools::import_tflite(data, size, &model);
  if (!result.ok || !result.unsupported.empty()) return 0;
  grt::tools::plan_default(&model);
  const grt::tools::AlignedBytes blob(grt::tools::serialize(model));
  grt_requirements requirements{};
  grt_error error{};
  if (grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &requirements, &error) != GRT_OK) return 0;
  constexpr size_t kMemoryCap = size_t{64} << 20;
  size_t pool_total = 0;
  for (uint32_t p = 0; p < requirements.pool_count; ++p) pool_total += requirements.pool_bytes[p];
  if (requirements.bookkeeping_bytes > kMemoryCap || pool_total > kMemoryCap) return 0;
  grt::tools::AlignedBytes storage(requirements.bookkeeping_bytes);
  std::vector<grt::tools::AlignedBytes> pools;
  std::vector<void*> pointers;
  std::vector<size_t> sizes;
  for (uint32_t p = 0; p < requirements.pool_count; ++p) {
    pools.emplace_back(requirements.pool_bytes[p]);
    pointers.push_back(pools.back().data());
    sizes.push_back(requirements.pool_bytes[p]);
  }
  grt_registry registry;
  grt_registry_init(&registry, nullptr, 0, grt_builtin_kernels());
  grt_options options{};
  options.registry = &registry;
  options.memory.pool_buffers = pointers.data();
  options.memory.pool_sizes = sizes.data();
  options.memory.pool_count = requirements.pool_count;
  grt_executor* executor = nullptr;
  (void)grt_init(&executor, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error);
  return 0;
}
