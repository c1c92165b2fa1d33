// SELECT_V2: out = condition ? x : y elementwise, the three operands broadcast together, as
// TFLM's reference (which accepts int8, int16 and float32 values).
//
// select_v2_s8, select_v2_s16, select_v2_f32 take:
//   0 in Condition (bool), 1 in X, 2 in Y, 3 out Out (X, Y and Out of the kernel's type)
// Out's shape is the broadcast of the three shapes; as in TFLM, operands that each hold a
// single element are also accepted whatever their ranks.
#include <stdint.h>

#include "../elementwise/tensor_layout.h"
#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

using elementwise::broadcast_strides;
using elementwise::kMaxRank;
using elementwise::next_index;
using elementwise::same_shape;

// True when out's shape is the broadcast of the three operand shapes.
bool select_shapes_match(const DLTensor* condition, const DLTensor* x, const DLTensor* y, const DLTensor* out) {
  const DLTensor* operands[] = {condition, x, y};
  if (out->ndim > kMaxRank) return false;
  for (const DLTensor* t : operands) {
    if (t->ndim > out->ndim) return false;
  }
  for (int d = 0; d < out->ndim; ++d) {
    int64_t widest = 1;
    bool any_zero = false;
    for (const DLTensor* t : operands) {
      const int axis = d - (out->ndim - t->ndim);
      const int64_t extent = axis >= 0 ? t->shape[axis] : 1;
      if (extent == 0) any_zero = true;
      if (extent > widest) widest = extent;
    }
    if (any_zero) widest = 0;  // one empty extent empties the output; the others must be 1 or 0
    for (const DLTensor* t : operands) {
      const int axis = d - (out->ndim - t->ndim);
      const int64_t extent = axis >= 0 ? t->shape[axis] : 1;
      if (extent != 1 && extent != widest) return false;
    }
    if (out->shape[d] != widest) return false;
  }
  return true;
}

bool single_elements(const DLTensor* condition, const DLTensor* x, const DLTensor* y, const DLTensor* out) {
  return element_count(condition) == 1 && element_count(x) == 1 && element_count(y) == 1 && element_count(out) == 1;
}

template <typename T>
int run_select(TVMValue* args) {
  const DLTensor* condition = tensor_at(args, 0);
  const DLTensor* x = tensor_at(args, 1);
  const DLTensor* y = tensor_at(args, 2);
  DLTensor* out = tensor_at(args, 3);
  const BoolStorage* c_data = data_of<const BoolStorage>(condition);
  const T* x_data = data_of<const T>(x);
  const T* y_data = data_of<const T>(y);
  T* out_data = data_of<T>(out);
  const int64_t count = element_count(out);
  if (count == 0) return 0;
  if (single_elements(condition, x, y, out)) {
    out_data[0] = c_data[0] != 0 ? x_data[0] : y_data[0];
    return 0;
  }
  if (same_shape(condition, out) && same_shape(x, out) && same_shape(y, out)) {
    for (int64_t i = 0; i < count; ++i) out_data[i] = c_data[i] != 0 ? x_data[i] : y_data[i];
    return 0;
  }
  int64_t c_strides[kMaxRank];
  int64_t x_strides[kMaxRank];
  int64_t y_strides[kMaxRank];
  broadcast_strides(condition, out, c_strides);
  broadcast_strides(x, out, x_strides);
  broadcast_strides(y, out, y_strides);
  const int outer_rank = out->ndim - 1;
  const int64_t inner = out->shape[outer_rank];
  int64_t index[kMaxRank] = {};
  do {
    int64_t c_offset = 0;
    int64_t x_offset = 0;
    int64_t y_offset = 0;
    for (int d = 0; d < outer_rank; ++d) {
      c_offset += index[d] * c_strides[d];
      x_offset += index[d] * x_strides[d];
      y_offset += index[d] * y_strides[d];
    }
    for (int64_t i = 0; i < inner; ++i) {
      const bool take_x = c_data[c_offset + i * c_strides[outer_rank]] != 0;
      out_data[i] = take_x ? x_data[x_offset + i * x_strides[outer_rank]] : y_data[y_offset + i * y_strides[outer_rank]];
    }
    out_data += inner;
  } while (next_index(outer_rank, out->shape, index));
  return 0;
}

int check_select(ElementType type, TVMValue* args, int* codes, int count) {
  ArgCheck check("select_v2", args, codes, count);
  check.count(4).tensor(0, ElementType::kBool).tensor(1, type).tensor(2, type).tensor(3, type);
  if (check.ok()) {
    const DLTensor* condition = tensor_at(args, 0);
    const DLTensor* x = tensor_at(args, 1);
    const DLTensor* y = tensor_at(args, 2);
    const DLTensor* out = tensor_at(args, 3);
    check.expect(single_elements(condition, x, y, out) || select_shapes_match(condition, x, y, out),
                 "output shape is not the broadcast of the condition, x and y shapes");
  }
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::binary

using grt::kernels::ElementType;
using namespace grt::kernels::binary;

GRT_BINARY_KERNEL(select_v2_s8, run_select<int8_t>(args), check_select(ElementType::kInt8, args, type_codes, num_args))
GRT_BINARY_KERNEL(select_v2_s16, run_select<int16_t>(args), check_select(ElementType::kInt16, args, type_codes, num_args))
GRT_BINARY_KERNEL(select_v2_f32, run_select<float>(args), check_select(ElementType::kFloat32, args, type_codes, num_args))
