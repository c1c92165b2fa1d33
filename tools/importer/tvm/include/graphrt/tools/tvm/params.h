// TVM's params file: the NDArray list `relay.save_param_dict` writes and the graph
// executor's load_params reads (names, then arrays with DLTensor headers).
#ifndef GRAPHRT_TOOLS_TVM_PARAMS_H_
#define GRAPHRT_TOOLS_TVM_PARAMS_H_

#include <cstdint>
#include <string>
#include <vector>

#include <dlpack/dlpack.h>

namespace grt::tools::tvm {

struct Param {
  std::string name;
  DLDataType dtype{};
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

// Every array of the list, in file order. Refuses a wrong magic, a count of names that
// differs from the count of arrays, arrays whose byte size disagrees with dtype x shape, and
// anything truncated, with a message naming the param.
bool read_params(const uint8_t* data, size_t size, std::vector<Param>* out, std::string* error);

// The file's bytes for `params` (what TVM writes): for tests and tools.
std::vector<uint8_t> write_params(const std::vector<Param>& params);

}  // namespace grt::tools::tvm

#endif  // GRAPHRT_TOOLS_TVM_PARAMS_H_
