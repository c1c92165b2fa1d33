// The interpreter marshals the arguments; AoT prints what it marshalled. The blob is
// loaded with the built-in kernels' own checks (so every node's arguments are proved
// exactly as on a device) and stand-ins for the kernel functions that keep their
// arguments, on pools allocated here; one run records every node.
#include <algorithm>
#include <cstring>
#include <vector>

#include "aot_graph.h"
#include "graphrt/graphrt.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"
#include "graphrt_generated.h"

namespace grt::tools::aot {
namespace {

struct Recorder {
  const fb::Model* model = nullptr;
  std::vector<const uint8_t*> pool_bases;
  std::vector<uint64_t> pool_sizes;
  Graph* graph = nullptr;
  std::string failure;  // set when an argument cannot be expressed as C
};

// The stand-in kernels have no context argument; the recorder of this thread is theirs.
thread_local Recorder* t_recorder = nullptr;

Place place_of(const Recorder& r, const void* data) {
  Place place;
  if (data == nullptr) return place;
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < r.pool_bases.size(); ++i) {
    if (p >= r.pool_bases[i] && p <= r.pool_bases[i] + r.pool_sizes[i]) {
      place.kind = Place::kPool;
      place.index = static_cast<uint32_t>(i);
      place.offset = static_cast<uint64_t>(p - r.pool_bases[i]);
      return place;
    }
  }
  const auto* buffers = r.model->buffers();
  for (uint32_t i = 0; buffers != nullptr && i < buffers->size(); ++i) {
    const auto* bytes = buffers->Get(i)->data();
    if (bytes == nullptr || p < bytes->data() || p > bytes->data() + bytes->size()) continue;
    place.kind = Place::kConstant;
    place.index = i;
    place.offset = static_cast<uint64_t>(p - bytes->data());
    return place;
  }
  return place;
}

uint32_t tensor_index(Recorder& r, const DLTensor& d) {
  TensorArg t;
  t.place = place_of(r, d.data);
  if (d.data != nullptr && t.place.kind == Place::kNull) r.failure = "a tensor's data is neither in a pool nor in the blob";
  if (d.strides != nullptr) r.failure = "a tensor has strides";
  t.dtype = d.dtype;
  t.shape.assign(d.shape, d.shape + d.ndim);
  t.byte_offset = d.byte_offset;
  auto& tensors = r.graph->tensors;
  const auto found = std::find(tensors.begin(), tensors.end(), t);
  if (found != tensors.end()) return static_cast<uint32_t>(found - tensors.begin());
  tensors.push_back(std::move(t));
  return static_cast<uint32_t>(tensors.size() - 1);
}

bool is_c_identifier(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

// What a generated function writes: its nodes' Output arguments, as `graphrt run --kernels`
// and the firmware's kernel table declare it.
uint32_t generated_writes(const fb::Model* model, uint32_t kernel) {
  uint32_t writes = 0;
  for (const auto* node : *model->nodes()) {
    if (node->kernel() != kernel || node->args() == nullptr) continue;
    for (uint32_t a = 0; a < node->args()->size() && a < 32; ++a) {
      if (node->args()->Get(a)->kind() == fb::ArgKind::Output) writes |= GRT_WRITES_ARG(a);
    }
  }
  return writes;
}

int record_kernel(TVMValue* values, int* codes, int count, TVMValue*, int*, void*) {
  Recorder& r = *t_recorder;
  const uint32_t n = static_cast<uint32_t>(r.graph->nodes.size());
  const auto* def = r.model->nodes()->Get(n);
  Node node;
  node.kernel = r.model->kernels()->Get(def->kernel())->str();
  node.generated = grt_builtin_kernel_find(node.kernel.c_str()) == nullptr;
  node.workspace_bytes = def->workspace_bytes();
  node.workspace_pool = def->workspace_pool();
  node.workspace_offset = def->workspace_offset();
  for (int a = 0; a < count; ++a) {
    Arg arg;
    arg.type_code = codes[a];
    switch (codes[a]) {
      case kTVMDLTensorHandle:
        arg.tensor = tensor_index(r, *static_cast<const DLTensor*>(values[a].v_handle));
        break;
      case kTVMArgInt:
        arg.bits = values[a].v_int64;
        break;
      case kTVMArgFloat:
        std::memcpy(&arg.bits, &values[a].v_float64, sizeof arg.bits);
        break;
      case kTVMNullptr:
        break;
      default:
        r.failure = "node " + std::to_string(n) + " has an argument of type code " + std::to_string(codes[a]);
    }
    node.args.push_back(arg);
  }
  r.graph->nodes.push_back(std::move(node));
  return 0;
}

// The loader has checked every State tensor (in a pool, within it, its initial buffer the
// tensor's size or empty), so these are read as they are.
void record_states(const fb::Model* model, Graph* out) {
  const auto* tensors = model->tensors();
  for (uint32_t t = 0; tensors != nullptr && t < tensors->size(); ++t) {
    const auto* tensor = tensors->Get(t);
    if (tensor->kind() != fb::TensorKind::State) continue;
    StateTensor s;
    s.pool = tensor->pool();
    s.offset = tensor->offset();
    uint64_t bytes = dtype_bytes(tensor->dtype());
    for (uint32_t d = 0; tensor->shape() != nullptr && d < tensor->shape()->size(); ++d) bytes *= static_cast<uint64_t>(tensor->shape()->Get(d));
    s.bytes = bytes;
    const auto* initial = model->buffers()->Get(tensor->buffer())->data();
    s.has_initial = initial != nullptr && initial->size() != 0;
    s.initial = tensor->buffer();
    out->states.push_back(s);
  }
}

}  // namespace

bool record_graph(const uint8_t* blob, size_t size, bool generated, Graph* out, std::string* error) {
  grt_requirements requirements{};
  grt_error runtime_error{};
  if (grt_model_requirements(blob, size, GRT_STRATEGY_STATIC, &requirements, &runtime_error) != GRT_OK) {
    *error = runtime_error.message;
    return false;
  }
  if (const auto* subgraphs = fb::GetModel(blob)->subgraphs(); subgraphs != nullptr && subgraphs->size() != 0) {
    // AoT C is one straight line of calls; control flow needs the interpreter's subgraphs.
    *error = "the model has " + std::to_string(subgraphs->size()) + " subgraphs (IF, WHILE, CALL_ONCE): AoT C has no control flow; run it with the interpreter";
    return false;
  }
  Recorder recorder;
  recorder.model = fb::GetModel(blob);
  recorder.graph = out;
  *out = Graph{};

  // Each kernel the nodes name: its built-in check and writes, a recording function.
  std::vector<grt_kernel_entry> entries;
  const auto* kernels = recorder.model->kernels();
  for (const auto* node : *recorder.model->nodes()) {
    const char* name = kernels->Get(node->kernel())->c_str();
    const bool listed = std::any_of(entries.begin(), entries.end(), [&](const grt_kernel_entry& e) { return std::strcmp(e.name, name) == 0; });
    if (listed) continue;
    const grt_kernel_entry* builtin = grt_builtin_kernel_find(name);
    if (builtin != nullptr) {
      entries.push_back({builtin->name, record_kernel, builtin->check, builtin->writes, builtin->overwrites});
    } else if (generated && is_c_identifier(name)) {
      // Generated code checks nothing; what it was compiled for is checked by the caller
      // (graphrt aot: the checks `graphrt kernels` compiles into firmware tables).
      entries.push_back({name, record_kernel, nullptr, generated_writes(recorder.model, node->kernel()), 0});
    } else if (generated) {
      *error = std::string("generated function '") + name + "' is not a C identifier: AoT C calls it by its name";
      return false;
    } else {
      *error = std::string("kernel '") + name + "' is not built in: AoT C calls built-in kernels by their C names";
      return false;
    }
  }
  std::vector<grt_kernel_entry> registry_storage(entries.size());
  grt_registry registry;
  grt_registry_init(&registry, registry_storage.data(), registry_storage.size(), nullptr);
  for (const grt_kernel_entry& e : entries) grt_registry_add_entry(&registry, &e);

  std::vector<AlignedBytes> pool_storage;
  std::vector<void*> buffers;
  std::vector<size_t> sizes;
  for (uint32_t p = 0; p < requirements.pool_count; ++p) {
    const size_t alignment = std::max<size_t>(requirements.pool_alignment[p], 1);
    pool_storage.emplace_back(requirements.pool_bytes[p] + alignment);
    uint8_t* raw = pool_storage.back().data();
    uint8_t* aligned = raw + (alignment - reinterpret_cast<uintptr_t>(raw) % alignment) % alignment;
    buffers.push_back(aligned);
    sizes.push_back(requirements.pool_bytes[p]);
    recorder.pool_bases.push_back(aligned);
    recorder.pool_sizes.push_back(requirements.pool_bytes[p]);
    out->pools.push_back({requirements.pool_bytes[p], static_cast<uint32_t>(alignment)});
  }
  grt_options options{};
  options.registry = &registry;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.memory.pool_buffers = buffers.data();
  options.memory.pool_sizes = sizes.data();
  options.memory.pool_count = requirements.pool_count;
  AlignedBytes bookkeeping(requirements.bookkeeping_bytes);
  grt_executor* executor = nullptr;
  if (grt_init(&executor, bookkeeping.data(), requirements.bookkeeping_bytes, blob, size, &options, &runtime_error) != GRT_OK) {
    *error = runtime_error.message;
    return false;
  }
  t_recorder = &recorder;
  const grt_status status = grt_run(executor);
  t_recorder = nullptr;
  if (status != GRT_OK) {
    *error = grt_last_error(executor)->message;
    return false;
  }
  for (uint32_t i = 0; i < grt_input_count(executor); ++i) out->inputs.push_back(tensor_index(recorder, *grt_input(executor, i)));
  for (uint32_t i = 0; i < grt_output_count(executor); ++i) out->outputs.push_back(tensor_index(recorder, *grt_output(executor, i)));
  if (!recorder.failure.empty()) {
    *error = recorder.failure;
    return false;
  }
  // Only the constant buffers some argument or state points into are kept; the others stay empty.
  const auto* model_buffers = recorder.model->buffers();
  out->constants.resize(model_buffers == nullptr ? 0 : model_buffers->size());
  const auto keep = [&](uint32_t buffer) {
    if (!out->constants[buffer].empty()) return;
    const auto* bytes = model_buffers->Get(buffer)->data();
    if (bytes != nullptr) out->constants[buffer].assign(bytes->begin(), bytes->end());
  };
  for (const TensorArg& t : out->tensors) {
    if (t.place.kind == Place::kConstant) keep(t.place.index);
  }
  record_states(recorder.model, out);
  for (const StateTensor& s : out->states) {
    if (s.has_initial) keep(s.initial);
  }
  return true;
}

}  // namespace grt::tools::aot
