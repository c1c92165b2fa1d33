// A structure-aware libFuzzer mutator for graphrt blobs: a blob that FlatBuffers' verifier
// accepts is parsed into a ModelDef (the builder's object form), one field or vector of it
// is changed (a shape, a pool size, an alias target, a node's kernel or argument, a list
// grown or shrunk...) and it is serialised again. Byte flips almost never survive the
// verifier; these edits keep the blob well formed, so the loader's semantic checks, the
// allocators and the kernels' argument checks behind it are what the fuzzer explores.
// Other inputs (envelopes, broken blobs) and one mutation in four get libFuzzer's own.
#ifndef GRAPHRT_TESTS_FUZZ_BLOB_MUTATOR_H_
#define GRAPHRT_TESTS_FUZZ_BLOB_MUTATOR_H_

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "graphrt/kernels.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace grt::fuzz {

// A WHILE may loop for ever (TFLM's semantics; cancelling is the bound): for a blob with
// subgraphs the targets run with this hook, which stops a run after 2^16 nodes. Blobs
// without subgraphs keep the hook-free path (run_static) under the fuzzer.
inline int stop_after_many_nodes(void* user, uint32_t) { return ++*static_cast<uint32_t*>(user) > (1u << 16) ? 1 : 0; }

// The hooks for `blob` (already accepted by the loader), or NULL when it has no subgraphs.
inline const grt_hooks* loop_bound_hooks(const void* blob, uint32_t* counter, grt_hooks* storage) {
  const auto* subgraphs = fb::GetModel(blob)->subgraphs();
  if (subgraphs == nullptr || subgraphs->size() == 0) return nullptr;
  *counter = 0;
  *storage = grt_hooks{};
  storage->before_node = stop_after_many_nodes;
  storage->user = counter;
  return storage;
}

class BlobMutator {
 public:
  explicit BlobMutator(unsigned seed) : random_(seed) {}

  // Mutates m in place; false when it has nothing to mutate.
  bool mutate(tools::ModelDef* m) {
    switch (below(13)) {
      case 12: return mutate_subgraph(m);
      case 0: return mutate_tensor(m);
      case 1: return mutate_shape(m);
      case 2: return mutate_node(m);
      case 3: return mutate_argument(m);
      case 4: return mutate_pool(m);
      case 5: return mutate_io(m);
      case 6: return mutate_kernel_name(m);
      case 7: return resize_vector(m);
      case 8: return mutate_buffer(m);
      case 9: return mutate_quantization(m);
      case 10:
        m->version_major = static_cast<uint16_t>(below(3));
        m->version_minor = static_cast<uint16_t>(below(3));
        return true;
      default: return mutate_workspace(m);
    }
  }

 private:
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(random_() % n); }

  // Values that sit on the checks' edges: zero, one, powers of two, limits of 32 and 64 bits.
  uint64_t interesting() {
    static constexpr uint64_t kValues[] = {0,       1,          2,          3,          15,         16,
                                           17,      255,        256,        4096,       65535,      65536,
                                           1u << 20, 0x7fffffffu, 0x80000000u, 0xffffffffu, uint64_t{1} << 32,
                                           uint64_t{1} << 40, (uint64_t{1} << 40) + 16, uint64_t{1} << 62, uint64_t{1} << 63,
                                           UINT64_MAX - 15, UINT64_MAX};
    if (below(3) == 0) return below(64);
    return kValues[below(sizeof kValues / sizeof kValues[0])];
  }
  // An index: usually in range (so the edit goes deep), sometimes just past or far out.
  uint32_t index(size_t count) {
    switch (below(8)) {
      case 0: return static_cast<uint32_t>(count);
      case 1: return static_cast<uint32_t>(interesting());
      default: return static_cast<uint32_t>(below(count == 0 ? 1 : count));
    }
  }

  bool mutate_tensor(tools::ModelDef* m) {
    if (m->tensors.empty()) return false;
    tools::TensorDef& t = m->tensors[below(m->tensors.size())];
    switch (below(6)) {
      case 0: t.dtype = static_cast<tools::DType>(below(16)); break;
      case 1: t.kind = static_cast<tools::TensorKind>(below(4)); break;
      case 2: t.pool = index(m->pools.size()); break;
      case 3: t.offset = below(2) == 0 ? interesting() : t.offset + 16 * below(8); break;
      case 4: t.alias_of = index(m->tensors.size()); break;
      default: t.buffer = index(m->buffers.size()); break;
    }
    return true;
  }

  bool mutate_shape(tools::ModelDef* m) {
    if (m->tensors.empty()) return false;
    std::vector<int64_t>& shape = m->tensors[below(m->tensors.size())].shape;
    switch (below(4)) {
      case 0: shape.push_back(static_cast<int64_t>(below(4) + 1)); break;
      case 1:
        if (!shape.empty()) shape.pop_back();
        break;
      case 2:
        if (!shape.empty()) shape[below(shape.size())] = below(2) == 0 ? -1 : static_cast<int64_t>(interesting());
        break;
      default:
        if (!shape.empty()) shape[below(shape.size())] = static_cast<int64_t>(below(8));
        break;
    }
    return true;
  }

  // Subgraph tables (schema 1.2): ranges moved, lists edited, a node made to invoke one.
  bool mutate_subgraph(tools::ModelDef* m) {
    if (m->subgraphs.empty() || below(4) == 0) {
      if (m->nodes.empty()) return false;
      m->nodes[below(m->nodes.size())].args.push_back(tools::ArgDef::subgraph(index(m->subgraphs.size() + 1)));
      return true;
    }
    tools::SubgraphDef& g = m->subgraphs[below(m->subgraphs.size())];
    switch (below(6)) {
      case 0: g.first_node = index(m->nodes.size() + 1); break;
      case 1: g.node_count = index(m->nodes.size() + 1); break;
      case 2: g.first_tensor = index(m->tensors.size() + 1); break;
      case 3: g.tensor_count = index(m->tensors.size() + 1); break;
      case 4: (below(2) == 0 ? g.inputs : g.outputs).push_back(index(m->tensors.size())); break;
      default: m->subgraphs.erase(m->subgraphs.begin() + static_cast<std::ptrdiff_t>(below(m->subgraphs.size()))); break;
    }
    return true;
  }

  bool mutate_node(tools::ModelDef* m) {
    if (m->nodes.empty()) return false;
    switch (below(4)) {
      case 0: m->nodes[below(m->nodes.size())].kernel = index(m->kernels.size()); break;
      case 1: m->nodes.push_back(m->nodes[below(m->nodes.size())]); break;  // a second writer, a later reader
      case 2: std::swap(m->nodes[below(m->nodes.size())], m->nodes[below(m->nodes.size())]); break;
      default: m->nodes.erase(m->nodes.begin() + static_cast<std::ptrdiff_t>(below(m->nodes.size()))); break;
    }
    return true;
  }

  bool mutate_argument(tools::ModelDef* m) {
    if (m->nodes.empty()) return false;
    std::vector<tools::ArgDef>& args = m->nodes[below(m->nodes.size())].args;
    if (args.empty() || below(6) == 0) {
      args.push_back(tools::ArgDef::input(index(m->tensors.size())));
      return true;
    }
    tools::ArgDef& a = args[below(args.size())];
    switch (below(5)) {
      case 0: a.kind = static_cast<tools::ArgKind>(below(7)); break;
      case 1: a.value = index(m->tensors.size()); break;
      case 2: {
        const uint64_t v = interesting();
        a.value = static_cast<int64_t>(below(2) == 0 ? v : 0 - v);  // two's complement, no signed overflow
        break;
      }
      case 3: a = tools::ArgDef::real(below(2) == 0 ? 0.0 : 1e30); break;
      default: args.erase(args.begin() + static_cast<std::ptrdiff_t>(below(args.size()))); break;
    }
    return true;
  }

  bool mutate_workspace(tools::ModelDef* m) {
    if (m->nodes.empty()) return false;
    tools::NodeDef& n = m->nodes[below(m->nodes.size())];
    switch (below(3)) {
      case 0: n.workspace_bytes = interesting(); break;
      case 1: n.workspace_pool = index(m->pools.size()); break;
      default: n.workspace_offset = interesting(); break;
    }
    return true;
  }

  bool mutate_pool(tools::ModelDef* m) {
    if (m->pools.empty() || below(8) == 0) {
      m->pools.push_back(tools::PoolDef{"p" + std::to_string(m->pools.size()), below(4096), 16, {}});
      return true;
    }
    tools::PoolDef& p = m->pools[below(m->pools.size())];
    switch (below(4)) {
      case 0: p.size = interesting(); break;
      case 1: p.size = p.size + 16 * below(4) - 16 * below(4); break;
      case 2: p.alignment = static_cast<uint32_t>(below(2) == 0 ? interesting() : uint64_t{1} << below(14)); break;
      default: m->pools.erase(m->pools.begin() + static_cast<std::ptrdiff_t>(below(m->pools.size()))); break;
    }
    return true;
  }

  bool mutate_io(tools::ModelDef* m) {
    std::vector<uint32_t>& list = below(2) == 0 ? m->inputs : m->outputs;
    switch (below(3)) {
      case 0: list.push_back(index(m->tensors.size())); break;
      case 1:
        if (!list.empty()) list.erase(list.begin() + static_cast<std::ptrdiff_t>(below(list.size())));
        break;
      default:
        if (!list.empty()) list[below(list.size())] = index(m->tensors.size());
        break;
    }
    return true;
  }

  // Another built-in kernel's name, so a node reaches a different argument check.
  bool mutate_kernel_name(tools::ModelDef* m) {
    const grt_kernel_table* table = grt_builtin_kernels();
    if (table->count == 0) return false;
    const std::string name = table->entries[below(table->count)].name;
    if (m->kernels.empty() || below(4) == 0) {
      m->kernels.push_back(name);
    } else {
      m->kernels[below(m->kernels.size())] = below(16) == 0 ? std::string() : name;
    }
    return true;
  }

  // Copies or drops a whole tensor, pool or buffer.
  bool resize_vector(tools::ModelDef* m) {
    switch (below(3)) {
      case 0:
        if (m->tensors.empty()) return false;
        if (below(2) == 0) {
          m->tensors.push_back(m->tensors[below(m->tensors.size())]);
        } else {
          m->tensors.pop_back();
        }
        return true;
      case 1:
        if (!m->buffers.empty() && below(2) == 0) {
          m->buffers.pop_back();
        } else {
          m->buffers.emplace_back(below(64), static_cast<uint8_t>(below(256)));
        }
        return true;
      default:
        if (m->nodes.empty()) return false;
        m->nodes.back().args.clear();
        return true;
    }
  }

  bool mutate_buffer(tools::ModelDef* m) {
    if (m->buffers.empty()) return false;
    std::vector<uint8_t>& b = m->buffers[below(m->buffers.size())];
    if (below(3) == 0 || b.empty()) {
      b.resize(below(2) == 0 ? b.size() + below(32) : b.size() / 2);
    } else {
      b[below(b.size())] = static_cast<uint8_t>(interesting());
    }
    return true;
  }

  bool mutate_quantization(tools::ModelDef* m) {
    if (m->tensors.empty()) return false;
    tools::TensorDef& t = m->tensors[below(m->tensors.size())];
    if (!t.quantization || below(6) == 0) {
      t.quantization = tools::QuantDef{{0.5f}, {0}, 0};
      return true;
    }
    tools::QuantDef& q = *t.quantization;
    switch (below(4)) {
      case 0: q.scale.push_back(below(2) == 0 ? 0.0f : 1e-30f); break;
      case 1: q.zero_point.push_back(static_cast<int64_t>(interesting() - 128)); break;
      case 2: q.axis = static_cast<int32_t>(below(8)) - 2; break;
      default:
        if (!q.scale.empty()) q.scale[0] = below(2) == 0 ? -1.0f : 3e38f;
        break;
    }
    return true;
  }

  std::minstd_rand random_;
};

// libFuzzer's bytes in 16-byte aligned memory, where blobs are read in place.
inline tools::AlignedBytes aligned_copy(const uint8_t* data, size_t size) {
  tools::AlignedBytes bytes(size);
  if (size != 0) std::memcpy(bytes.data(), data, size);
  return bytes;
}

// tools::parse reads 64-bit vectors in place; FlatBuffers' verifier checks their
// alignment only to 4 bytes (the runtime's loader refuses the rest). Blobs with one off an
// 8-byte boundary are left to byte mutations.
inline bool int64_vectors_aligned(const uint8_t* blob) {
  const auto aligned = [](const void* p) { return reinterpret_cast<uintptr_t>(p) % 8 == 0; };
  const fb::Model* model = fb::GetModel(blob);
  if (model->tensors() != nullptr) {
    for (const fb::Tensor* t : *model->tensors()) {
      if (t->shape() != nullptr && !aligned(t->shape()->data())) return false;
      if (t->quantization() != nullptr && t->quantization()->zero_point() != nullptr && !aligned(t->quantization()->zero_point()->data())) {
        return false;
      }
    }
  }
  if (model->nodes() != nullptr) {
    for (const fb::Node* n : *model->nodes()) {
      if (n->args() != nullptr && !aligned(n->args()->data())) return false;
    }
  }
  return true;
}

// What LLVMFuzzerCustomMutator does (blob_mutator.cpp) in the targets that link it.
inline size_t mutate_blob(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  BlobMutator mutator(seed);
  tools::ModelDef model;
  std::string error;
  const tools::AlignedBytes aligned = aligned_copy(data, size);
  if (seed % 4 != 0 && tools::verify_blob(aligned.data(), size, &error) && int64_vectors_aligned(aligned.data()) &&
      tools::parse(aligned.data(), size, &model, &error)) {
    for (unsigned edits = 1 + seed % 3; edits != 0; --edits) mutator.mutate(&model);
    const std::vector<uint8_t> blob = tools::serialize(model);
    if (blob.size() <= max_size) {
      std::memcpy(data, blob.data(), blob.size());
      return blob.size();
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

}  // namespace grt::fuzz

#endif  // GRAPHRT_TESTS_FUZZ_BLOB_MUTATOR_H_
