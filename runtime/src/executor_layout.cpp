// Where each of the executor's tables sits in the storage the caller hands to grt_init,
// computed for this build's ABI and for 32-bit Arm (host tools size firmware with it).
#include "executor_internal.h"
#include "message.h"

namespace grt {
namespace {

#if defined(__arm__)
constexpr bool same_sizes(const LayoutSizes& a, const LayoutSizes& b) {
  return a.executor == b.executor && a.dl_tensor == b.dl_tensor && a.dl_tensor_align == b.dl_tensor_align &&
         a.tvm_value == b.tvm_value && a.tvm_value_align == b.tvm_value_align && a.node_record == b.node_record &&
         a.node_record_align == b.node_record_align && a.pointer == b.pointer && a.stack_allocator == b.stack_allocator &&
         a.stack_allocator_align == b.stack_allocator_align;
}
static_assert(same_sizes(kNativeSizes, kArm32Sizes), "kArm32Sizes must describe this 32-bit Arm build: update it");
#endif

template <const LayoutSizes& z>
Layout compute_layout(const ModelCounts& c, grt_strategy strategy, grt_arguments arguments) {
  Layout l;
  // Below these counts no figure overflows a 32-bit size_t; no device holds a larger model.
  constexpr uint32_t kMaxCount = 1u << 20;
  l.fits = c.tensors <= kMaxCount && c.nodes <= kMaxCount && c.args <= kMaxCount && c.io <= kMaxCount;
  if (!l.fits) return l;
  const bool prepared = is_prepared(arguments);
  const size_t tensors = c.tensors, nodes = c.nodes, args = prepared ? c.args : c.max_args;
  size_t offset = 0;
  auto take = [&offset](size_t bytes, size_t align) {
    offset = (offset + align - 1) & ~(align - 1);
    const size_t at = offset;
    offset += bytes;
    return at;
  };
  take(z.executor, kBookkeepingAlignment);
  if (is_scheduled(strategy)) l.orders = take(4 * (2 * tensors + 2 * (nodes + 1)), 4);
  if (c.max_workspace != 0) l.workspace = take(z.stack_allocator, z.stack_allocator_align);
  // The lifetimes overlap every table after this point: they are dead before any is written.
  l.lifetimes = take(0, z.node_record_align);
  l.nodes = take(nodes * (prepared ? z.node_record : z.pointer), z.node_record_align);
  l.tensors = take((prepared ? tensors : c.max_scratch) * z.dl_tensor, z.dl_tensor_align);
  l.io = take(prepared ? 0 : c.io * z.dl_tensor, z.dl_tensor_align);
  l.values = take(args * z.tvm_value, z.tvm_value_align);
  l.codes = take(args * sizeof(int), alignof(int));
  if (is_dynamic(strategy)) {
    l.owned = take(tensors * z.pointer, z.pointer);
  } else {
    l.pool_base = take(c.pools * z.pointer, z.pointer);
  }
  const size_t lifetimes_end = l.lifetimes + tensors * sizeof(Lifetime);
  if (offset < lifetimes_end) offset = lifetimes_end;
  l.total = take(0, kBookkeepingAlignment);
  return l;
}

}  // namespace

// Every public entry point that takes a blob comes through here, so each refuses what
// grt_init refuses: the modes known, the blob opened, its local checks, the layout, then the
// graph checks. Those run in `storage` when it holds the layout (grt_init, which keeps the
// live ranges there for the dynamic schedule), otherwise over windows of tensors in a small
// array on the stack (the sizing calls have no memory of the caller's).
template <const LayoutSizes& kSizes>
grt_status lay_out(const void* blob, size_t blob_size, grt_strategy strategy, grt_arguments arguments, void* storage,
                   size_t storage_size, const fb::Model** model, ModelCounts* counts, Layout* layout, grt_error* error) {
  grt_status s = validate_modes(strategy, arguments, error);
  if (s == GRT_OK) s = open_model(blob, blob_size, model, error);
  if (s == GRT_OK) s = check_model_local(*model, counts, error);
  if (s != GRT_OK) return s;
  *layout = compute_layout<kSizes>(*counts, strategy, arguments);
  if (!layout->fits) return fail(error, GRT_ERR_STORAGE_TOO_SMALL, nullptr, "model needs more bookkeeping than this machine can address");
  Lifetime window[32];
  Lifetime* lifetimes = window;
  uint32_t room = 32;
  if (storage != nullptr && storage_size >= layout->total && reinterpret_cast<uintptr_t>(storage) % kBookkeepingAlignment == 0) {
    lifetimes = reinterpret_cast<Lifetime*>(static_cast<uint8_t*>(storage) + layout->lifetimes);
    room = counts->tensors;
  }
  return check_model_graph(*model, lifetimes, room, error);
}

template grt_status lay_out<kNativeSizes>(const void*, size_t, grt_strategy, grt_arguments, void*, size_t, const fb::Model**,
                                          ModelCounts*, Layout*, grt_error*);
template grt_status lay_out<kArm32Sizes>(const void*, size_t, grt_strategy, grt_arguments, void*, size_t, const fb::Model**,
                                         ModelCounts*, Layout*, grt_error*);

}  // namespace grt
