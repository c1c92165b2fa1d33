// Rearrangements where every output element is one input element, found by adding one
// precomputed offset per output dimension: RESIZE_NEAREST_NEIGHBOR, MIRROR_PAD,
// DEPTH_TO_SPACE, SPACE_TO_DEPTH and BATCH_TO_SPACE_ND. The importer works out the offset
// tables (TFLM's index arithmetic, float rounding included, happens once on the host), so
// these kernels only add and copy, for any element size.
//
// resize_nearest_neighbor, mirror_pad, depth_to_space, space_to_depth, batch_to_space_nd
// all take:
//   0 in X, 1 out Y          (same dtype; elements of 1, 2, 4 or 8 bytes)
//   2 IntArray extents[k]    (Y seen as k row-major dimensions, 1 <= k <= 8; their product
//                             is Y's element count)
//   3 IntArray offsets       (for each dimension d < k - 1, extents[d] element offsets into
//                             X, the tables one after the other)
// The last of the k dimensions is a contiguous run of X:
//   Y[i_0, ..., i_{k-1}] = X[offsets_0[i_0] + ... + offsets_{k-2}[i_{k-2}] + i_{k-1}].
#include <string.h>

#include "../elementwise/tensor_layout.h"
#include "../kernel_args.h"

namespace grt::kernels::pool {
namespace {

using elementwise::kMaxRank;

struct Gather {
  const DLTensor* in;
  DLTensor* out;
  const DLTensor* extents;
  const DLTensor* offsets;

  template <typename Storage>
  void run() {
    if (element_count(out) == 0) return;
    const int rank = static_cast<int>(extents->shape[0]);
    const int outer = rank - 1;
    int64_t outer_extents[kMaxRank];
    const int32_t* tables[kMaxRank];
    const int32_t* table = data_of<const int32_t>(offsets);
    for (int d = 0; d < outer; ++d) {
      outer_extents[d] = elementwise::int_array_at(extents, d);
      tables[d] = table;
      table += outer_extents[d];
    }
    const size_t run_bytes = static_cast<size_t>(elementwise::int_array_at(extents, outer)) * sizeof(Storage);
    const Storage* x = data_of<const Storage>(in);
    uint8_t* y = data_of<uint8_t>(out);
    int64_t index[kMaxRank] = {};
    do {
      int64_t offset = 0;
      for (int d = 0; d < outer; ++d) offset += tables[d][index[d]];
      memcpy(y, x + offset, run_bytes);
      y += run_bytes;
    } while (elementwise::next_index(outer, outer_extents, index));
  }
};

int gather(TVMValue* args) {
  Gather body{tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), tensor_at(args, 3)};
  elementwise::with_element_storage(elementwise::element_bytes(body.in), body);
  return 0;
}

// Every offset sum must land a whole run inside X: the smallest sum is the sum of each
// table's minimum and the largest the sum of the maxima, since the tables are independent.
void check_offsets_stay_inside(ArgCheck& check, const DLTensor* in, const DLTensor* extents, const DLTensor* offsets,
                               int64_t out_count) {
  const int rank = static_cast<int>(extents->shape[0]);
  int64_t expected = 0;
  for (int d = 0; d + 1 < rank; ++d) expected += elementwise::int_array_at(extents, d);
  check.expect(offsets->shape[0] == expected, "offsets do not hold one entry per index of each dimension");
  if (!check.ok() || out_count == 0) return;
  const int32_t* table = data_of<const int32_t>(offsets);
  int64_t lowest = 0;
  int64_t highest = 0;
  for (int d = 0; d + 1 < rank; ++d) {
    const int32_t n = elementwise::int_array_at(extents, d);
    int32_t low = table[0];
    int32_t high = table[0];
    for (int32_t i = 1; i < n; ++i) {
      low = table[i] < low ? table[i] : low;
      high = table[i] > high ? table[i] : high;
    }
    lowest += low;
    highest += high;
    table += n;
  }
  check.expect(lowest >= 0, "an offset reads before the input")
      .expect(highest + elementwise::int_array_at(extents, rank - 1) <= element_count(in),
              "an offset reads past the input");
}

int check_gather(const char* name, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(4);
  if (check.ok()) check.any_tensor(0).any_tensor(1).tensor(2, ElementType::kInt32, 1).tensor(3, ElementType::kInt32, 1);
  if (!check.ok()) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 1);
  const DLTensor* extents = tensor_at(args, 2);
  const DLTensor* offsets = tensor_at(args, 3);
  check.expect(elementwise::same_dtype(in, out), "input and output dtypes differ")
      .expect(elementwise::movable_element(in), "element size is not 1, 2, 4 or 8 bytes")
      .expect(extents->shape[0] >= 1 && extents->shape[0] <= kMaxRank, "extents must have 1 to 8 entries")
      .expect(extents->data != nullptr && (offsets->shape[0] == 0 || offsets->data != nullptr),
              "tables must be constants");
  if (!check.ok()) return check.result();
  int64_t product = 1;
  for (int d = 0; check.ok() && d < extents->shape[0]; ++d) {
    const int32_t extent = elementwise::int_array_at(extents, d);
    check.expect(extent >= 0, "negative extent");
    product *= extent;
    check.expect(product <= element_count(out), "extents do not multiply to the output's element count");
  }
  check.expect(product == element_count(out), "extents do not multiply to the output's element count");
  if (check.ok()) check_offsets_stay_inside(check, in, extents, offsets, product);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::pool

// One implementation, one name per operator: profiles and `graphrt inspect` name the operator.
#define GRT_POOL_GATHER_KERNEL(name)                                                               \
  GRT_KERNEL_FUNCTION(name) {                                                                      \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle; \
    return grt::kernels::pool::gather(args);                                                       \
  }                                                                                                \
  GRT_CHECK_FUNCTION(name) {                                                                       \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                                   \
    return grt::kernels::pool::check_gather(#name, args, type_codes, num_args);                    \
  }

GRT_POOL_GATHER_KERNEL(resize_nearest_neighbor)
GRT_POOL_GATHER_KERNEL(mirror_pad)
GRT_POOL_GATHER_KERNEL(depth_to_space)
GRT_POOL_GATHER_KERNEL(space_to_depth)
GRT_POOL_GATHER_KERNEL(batch_to_space_nd)
