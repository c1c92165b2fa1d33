// TVM graph-executor artifacts (graph JSON + params, Kenning's .graph_data container, or a
// Model Library Format tarball) into a graphrt model: params become constants, every
// graph entry a tensor, every tvm_op a node calling its generated function.
#ifndef GRAPHRT_TOOLS_TVM_TVM_IMPORT_H_
#define GRAPHRT_TOOLS_TVM_TVM_IMPORT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "graphrt/graphrt.h"
#include "graphrt/tools/model_def.h"

namespace grt::tools::tvm {

enum class Format {
  kUnknown,
  kGraphJson,           // the graph JSON alone; params come from their own file
  kGraphData,           // Kenning: u32 JSON length, u32 params length, the JSON, the params
  kModelLibraryFormat,  // a tar with executor-config/graph/, parameters/, metadata.json
};

// From the bytes alone, never the file name.
Format detect_format(const uint8_t* data, size_t size);
const char* format_name(Format format);

struct Artifacts {
  std::string graph_json;
  std::vector<uint8_t> params;  // TVM's NDArray list; empty: the graph has no params
  std::string metadata_json;    // Model Library Format only
  std::string sources;          // Model Library Format: codegen/host/src/*.c, concatenated
};

// Splits a container into its parts. For kGraphJson the bytes are the JSON and `params`
// (may be empty) is the params file.
bool read_artifacts(const uint8_t* data, size_t size, const std::vector<uint8_t>& params, Artifacts* out, std::string* error);

// The generated function called `name`, or null.
using KernelLookup = std::function<TVMBackendPackedCFunc(const std::string& name)>;

struct ImportOptions {
  // Needed unless metadata.json gives every function's workspace: each node is run once on
  // the host to measure the workspace it takes.
  KernelLookup kernels;
  // Bounds on the measurement: the most workspace a node may take, and the most pool memory
  // the host may give the probe runs (a model needing more is refused, not measured).
  uint64_t max_workspace_bytes = uint64_t{16} << 20;
  uint64_t max_probe_bytes = uint64_t{1} << 30;
};

struct ImportReport {
  std::vector<std::string> functions;  // generated functions the model calls, sorted
  // What TVM's own storage ids imply: one buffer per storage id, as large as its largest
  // entry, for the graph's activations (inputs and outputs included) and for its params.
  uint64_t tvm_storage_bytes = 0;
  uint64_t tvm_param_bytes = 0;
  std::string workspace_source;  // "measured" or "metadata.json"
};

// The model is unplanned (plan_model places activations and workspaces). Refuses, naming
// the node or param: a param missing or of another dtype or shape than the graph says, an
// unsupported dtype, one function called with different signatures, an output that is a
// param or an input.
bool import_graph(const Artifacts& artifacts, const ImportOptions& options, ModelDef* out, ImportReport* report,
                  std::string* error);

// The producer string of an imported model (the tool's name and version go before it), and
// whether a model's producer says it was imported from TVM.
std::string producer_for(Format format, const std::string& tool);
bool imported_from_tvm(const ModelDef& model);

// Registry entries for the kernels of `model` that `lookup` finds (the others are left to
// the built-in table): `writes` has the bits of the arguments the nodes pass as outputs.
// Names point into `model`.
std::vector<grt_kernel_entry> kernel_entries(const ModelDef& model, const KernelLookup& lookup);

}  // namespace grt::tools::tvm

#endif  // GRAPHRT_TOOLS_TVM_TVM_IMPORT_H_
