#include "blob_runner.h"

#include <cstring>

#include "graphrt/tools/aligned_bytes.h"

namespace grt::test::tvm {

BlobRun run_blob(const uint8_t* blob, size_t size, std::vector<grt_kernel_entry> kernels, const grt_kernel_table* table,
                 const std::vector<std::vector<uint8_t>>& inputs) {
  BlobRun r;
  std::vector<grt_kernel_entry> storage(kernels.size());
  grt_registry registry;
  grt_registry_init(&registry, storage.data(), storage.size(), table);
  for (const grt_kernel_entry& k : kernels) grt_registry_add_entry(&registry, &k);
  grt_options options{};
  options.registry = &registry;
  grt_requirements needs{};
  grt_error status{};
  if (grt_model_requirements(blob, size, GRT_STRATEGY_STATIC, &needs, &status) != GRT_OK) {
    r.status = status.status;
    r.message = status.message;
    return r;
  }
  tools::AlignedBytes bookkeeping(needs.bookkeeping_bytes);
  std::vector<tools::AlignedBytes> pools;
  std::vector<void*> buffers;
  for (uint32_t p = 0; p < needs.pool_count; ++p) {
    pools.emplace_back(needs.pool_bytes[p]);
    buffers.push_back(pools.back().data());
    r.pool_bytes += needs.pool_bytes[p];
  }
  r.bookkeeping_bytes = needs.bookkeeping_bytes;
  options.memory.pool_buffers = buffers.data();
  options.memory.pool_sizes = needs.pool_bytes;
  options.memory.pool_count = needs.pool_count;
  grt_executor* executor = nullptr;
  if (grt_init(&executor, bookkeeping.data(), bookkeeping.size(), blob, size, &options, &status) != GRT_OK) {
    r.status = status.status;
    r.message = status.message;
    return r;
  }
  for (uint32_t i = 0; i < inputs.size() && i < grt_input_count(executor); ++i) {
    if (inputs[i].size() == grt_tensor_bytes(grt_input(executor, i))) std::memcpy(grt_input(executor, i)->data, inputs[i].data(), inputs[i].size());
  }
  r.status = grt_run(executor);
  if (r.status != GRT_OK) r.message = grt_last_error(executor)->message;
  for (uint32_t o = 0; r.status == GRT_OK && o < grt_output_count(executor); ++o) {
    const DLTensor* t = grt_output(executor, o);
    const auto* data = static_cast<const uint8_t*>(t->data);
    r.outputs.emplace_back(data, data + grt_tensor_bytes(t));
  }
  grt_release(executor);
  return r;
}

}  // namespace grt::test::tvm
