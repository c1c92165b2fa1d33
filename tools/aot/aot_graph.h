// A model as the interpreter calls its kernels: for each node, the kernel and the exact
// arguments the executor marshalled, with every data pointer turned back into where it
// points (a pool offset or a constant buffer offset). The C writer prints this.
#ifndef GRAPHRT_TOOLS_AOT_AOT_GRAPH_H_
#define GRAPHRT_TOOLS_AOT_AOT_GRAPH_H_

#include <cstdint>
#include <string>
#include <vector>

#include <dlpack/dlpack.h>

namespace grt::tools::aot {

struct Place {
  enum Kind { kNull, kPool, kConstant } kind = kNull;
  uint32_t index = 0;   // pool or constant buffer
  uint64_t offset = 0;  // bytes into it
  bool operator==(const Place&) const = default;
};

struct TensorArg {
  Place place;
  DLDataType dtype{};
  std::vector<int64_t> shape;
  uint64_t byte_offset = 0;
  bool operator==(const TensorArg& o) const {
    return place == o.place && dtype.code == o.dtype.code && dtype.bits == o.dtype.bits && dtype.lanes == o.dtype.lanes &&
           shape == o.shape && byte_offset == o.byte_offset;
  }
};

struct Arg {
  int type_code = 0;     // kTVMDLTensorHandle, kTVMArgInt, kTVMArgFloat or kTVMNullptr
  int64_t bits = 0;      // Int: the value; Float: the double's bits
  uint32_t tensor = 0;   // DLTensor handle: index into Graph::tensors
};

struct Node {
  std::string kernel;  // a built-in kernel's name (C function grt_kernel_<kernel>) or a generated one's
  bool generated = false;  // a TVM-generated function, called by its own symbol `kernel`
  std::vector<Arg> args;
  uint64_t workspace_bytes = 0;
  uint32_t workspace_pool = 0;
  uint64_t workspace_offset = 0;
};

// A State tensor (LSTM/SVDF memory, resource variables): where it lives and what it starts
// from, so the generated reset function can do what grt_init and grt_reset_state do.
struct StateTensor {
  uint32_t pool = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  bool has_initial = false;  // false: it starts from zeros
  uint32_t initial = 0;      // the constant buffer holding its initial bytes
};

struct Pool {
  uint64_t bytes = 0;
  uint32_t alignment = 16;
};

struct Graph {
  std::vector<Pool> pools;
  std::vector<std::vector<uint8_t>> constants;  // the constant buffers arguments point into
  std::vector<TensorArg> tensors;               // every distinct DLTensor handed to a kernel or the caller
  std::vector<Node> nodes;
  std::vector<StateTensor> states;
  std::vector<uint32_t> inputs;   // into tensors
  std::vector<uint32_t> outputs;  // into tensors
};

// Loads the blob into the interpreter with the built-in kernels' checks and recording
// stand-ins for their functions, runs it once, and keeps what each kernel was given. With
// `generated`, a kernel that is not built in is a TVM-generated function called by its
// own name (which must be a C identifier); otherwise it is refused.
bool record_graph(const uint8_t* blob, size_t size, bool generated, Graph* out, std::string* error);

}  // namespace grt::tools::aot

#endif  // GRAPHRT_TOOLS_AOT_AOT_GRAPH_H_
