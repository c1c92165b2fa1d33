// In-place operators: the one overlap a plan may hold between two tensors live at the same
// node. A node's only output may occupy exactly the bytes of one of its inputs when that
// input dies at the node; the graph check accepts that pairing (it has no kernels), and
// init, which resolves the kernel, then requires the kernel entry to declare that input
// overwritable (grt_kernel_entry::overwrites). Every other overlap stays refused.
#include "model_check.h"

namespace grt {
namespace {

// The node's only Output argument, when it names an Activation directly; UINT32_MAX otherwise.
uint32_t sole_direct_output(const fb::Model* model, const fb::Node* node) {
  uint32_t found = UINT32_MAX;
  for (uint32_t a = 0; a < count_of(node->args()); ++a) {
    const auto* arg = node->args()->Get(a);
    if (arg->kind() != fb::ArgKind::Output) continue;
    if (found != UINT32_MAX) return UINT32_MAX;
    found = static_cast<uint32_t>(arg->value());
  }
  if (found == UINT32_MAX || model->tensors()->Get(found)->kind() != fb::TensorKind::Activation) return UINT32_MAX;
  return found;
}

bool is_model_input(const fb::Model* model, uint32_t t) {
  const int32_t position = io_position(model, t);
  return position >= 0 && static_cast<uint32_t>(position) < count_of(model->inputs());
}

// `in` dies at node `n` and `out` is born there, and node n may write `out` over `in`.
bool pairs_at(const fb::Model* model, uint32_t in, const Lifetime& in_life, uint32_t out, const Lifetime& out_life) {
  const uint32_t n = in_life.last;
  if (out_life.first != n || n >= count_of(model->nodes())) return false;
  const auto* tensors = model->tensors();
  const auto* x = tensors->Get(in);
  const auto* y = tensors->Get(out);
  // The caller's input bytes and a model output are read after the node: never overwritten.
  if (x->kind() != fb::TensorKind::Activation || io_position(model, in) >= 0 || is_model_input(model, out)) return false;
  if (x->pool() != y->pool() || x->offset() != y->offset() || tensor_bytes(x) != tensor_bytes(y)) return false;
  const auto* node = model->nodes()->Get(n);
  if (sole_direct_output(model, node) != out) return false;
  // `in` is read by exactly one argument, which names it directly: the element the kernel
  // reads is the element it then writes, at the same index.
  uint32_t readers = 0;
  for (uint32_t a = 0; a < count_of(node->args()); ++a) {
    const auto* arg = node->args()->Get(a);
    if (arg->kind() != fb::ArgKind::Input) continue;
    uint64_t offset = 0;
    const uint32_t value = static_cast<uint32_t>(arg->value());
    if (alias_root(model, value, &offset) != in) continue;
    if (value != in) return false;
    ++readers;
  }
  return readers == 1;
}

}  // namespace

bool is_in_place_pair(const fb::Model* model, uint32_t a, const Lifetime& a_life, uint32_t b, const Lifetime& b_life) {
  return pairs_at(model, a, a_life, b, b_life) || pairs_at(model, b, b_life, a, a_life);
}

int32_t in_place_input(const fb::Model* model, uint32_t n) {
  const auto* node = model->nodes()->Get(n);
  const uint32_t out = sole_direct_output(model, node);
  if (out == UINT32_MAX) return -1;
  const auto* y = model->tensors()->Get(out);
  const uint64_t y_bytes = tensor_bytes(y);
  for (uint32_t a = 0; a < count_of(node->args()); ++a) {
    const auto* arg = node->args()->Get(a);
    if (arg->kind() != fb::ArgKind::Input) continue;
    uint64_t offset = 0;
    const uint32_t root = alias_root(model, static_cast<uint32_t>(arg->value()), &offset);
    const auto* x = model->tensors()->Get(root);
    if (root == out || x->kind() != fb::TensorKind::Activation || x->pool() != y->pool()) continue;
    const uint64_t x_bytes = tensor_bytes(x);
    if (x_bytes != 0 && y_bytes != 0 && x->offset() < y->offset() + y_bytes && y->offset() < x->offset() + x_bytes) {
      return static_cast<int32_t>(a);
    }
  }
  return -1;
}

}  // namespace grt
