// One model on the host for the Python module: the blob, its parsed picture and an executor
// on the static pool; memory figures and a profile on demand. Plain C++, no Python.
#ifndef GRAPHRT_TOOLS_PYTHON_MODEL_SESSION_H_
#define GRAPHRT_TOOLS_PYTHON_MODEL_SESSION_H_

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"
#include "host_executor.h"

namespace grt::python {

// A failure with the importer's or the runtime's message (graphrt.Error in Python).
struct RuntimeFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct MemoryFigures {
  uint64_t bookkeeping_bytes = 0;
  uint64_t pool_bytes = 0;
  uint64_t allocator_bytes = 0;  // the page or stack allocator's buffer
};

struct NodeTime {
  uint32_t node = 0;
  std::string name;
  std::string kernel;
  double seconds = 0;  // mean per run
};

class ModelSession {
 public:
  // Both throw RuntimeFailure with "PATH: reason".
  static std::unique_ptr<ModelSession> import_tflite(const std::string& path);
  static std::unique_ptr<ModelSession> load(const std::string& path);

  const tools::ModelDef& model() const { return model_; }
  const tools::AlignedBytes& blob() const { return blob_; }

  void write_input(uint32_t index, const void* data, size_t bytes);
  const void* output_data(uint32_t index) const;
  bool run(std::string* error);
  bool memory(const std::string& strategy, MemoryFigures* out, std::string* error) const;
  bool profile(int runs, std::vector<NodeTime>* out, std::string* error);

 private:
  ModelSession(tools::AlignedBytes blob, tools::ModelDef model);
  tools::AlignedBytes blob_;
  tools::ModelDef model_;
  cli::HostExecutor executor_;
};

}  // namespace grt::python

#endif  // GRAPHRT_TOOLS_PYTHON_MODEL_SESSION_H_
