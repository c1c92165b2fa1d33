// TVM's Model Library Format tarball (tvm.micro.export_model_library_format) with the graph
// executor: the graph, the params and metadata.json out of the tar.
#ifndef GRAPHRT_TOOLS_TVM_MODEL_LIBRARY_FORMAT_H_
#define GRAPHRT_TOOLS_TVM_MODEL_LIBRARY_FORMAT_H_

#include <string>

#include "graphrt/tools/model_def.h"
#include "graphrt/tools/tvm/tvm_import.h"

namespace grt::tools::tvm {

// Reads executor-config/graph/*.graph, parameters/*.params and metadata.json. Refuses an
// archive without a graph executor, or with several modules, naming what is missing.
bool read_model_library_format(const uint8_t* data, size_t size, Artifacts* out, std::string* error);

// Each node's workspace from metadata.json's operator_functions: TVM's workspace_size_bytes
// plus graphrt's stack cost per allocation (a 16-byte header), with the allocations
// counted in the function's generated C (codegen/host/src). False with a message when a
// function the model calls is not listed.
bool workspaces_from_metadata(const Artifacts& artifacts, ModelDef* model, std::string* error);

}  // namespace grt::tools::tvm

#endif  // GRAPHRT_TOOLS_TVM_MODEL_LIBRARY_FORMAT_H_
