// Loads a blob on the static plan with given kernels and runs it once: what each TVM test
// does with the models it imports.
#ifndef GRAPHRT_TESTS_TVM_BLOB_RUNNER_H_
#define GRAPHRT_TESTS_TVM_BLOB_RUNNER_H_

#include <string>
#include <vector>

#include "graphrt/graphrt.h"

namespace grt::test::tvm {

struct BlobRun {
  grt_status status = GRT_OK;  // of init, or of the run when init succeeded
  std::string message;
  std::vector<std::vector<uint8_t>> outputs;
  uint64_t pool_bytes = 0;
  uint64_t bookkeeping_bytes = 0;
};

// `kernels` are registered before `table` (either may be empty / null). Each input's bytes
// are copied in before the run.
BlobRun run_blob(const uint8_t* blob, size_t size, std::vector<grt_kernel_entry> kernels, const grt_kernel_table* table,
                 const std::vector<std::vector<uint8_t>>& inputs);

}  // namespace grt::test::tvm

#endif  // GRAPHRT_TESTS_TVM_BLOB_RUNNER_H_
