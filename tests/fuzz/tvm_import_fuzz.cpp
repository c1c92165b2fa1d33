// libFuzzer target: the TVM graph + params importer on arbitrary bytes (a .graph_data
// container, graph JSON or a Model Library Format tar: the bytes say which), with every
// generated function standing in as an operator that succeeds, so the workspace
// measurement runs too; then planning, serialization and the loader's checks. Any outcome
// but a crash or a sanitizer report is fine.
#include <cstdint>
#include <string>

#include "graphrt/graphrt.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/planner.h"
#include "graphrt/tools/tvm/tvm_import.h"

namespace {

int succeeds(TVMValue*, int*, int, TVMValue*, int*, void*) { return 0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace tvm = grt::tools::tvm;
  tvm::Artifacts artifacts;
  std::string error;
  if (!tvm::read_artifacts(data, size, {}, &artifacts, &error)) return 0;
  tvm::ImportOptions options;
  options.kernels = [](const std::string&) -> TVMBackendPackedCFunc { return succeeds; };
  options.max_workspace_bytes = 4096;
  options.max_probe_bytes = size_t{64} << 20;
  grt::tools::ModelDef model;
  if (!tvm::import_graph(artifacts, options, &model, nullptr, &error)) return 0;
  grt::tools::plan_default(&model);
  const grt::tools::AlignedBytes blob(grt::tools::serialize(model));
  grt_requirements requirements{};
  grt_error status{};
  (void)grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &requirements, &status);
  return 0;
}
