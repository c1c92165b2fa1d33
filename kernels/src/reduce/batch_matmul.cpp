// BATCH_MATMUL, bit-exact with TFLM's reference (reference/batch_matmul.h): out = X * Y per
// batch, X and Y read through strides so that adj_x / adj_y (transposed operands) and
// broadcast batch dimensions (stride 0) cost no copies. int8 accumulates
// (y - y_zp) * (x - x_zp) in int32 and requantizes once; int16 (zero points 0) accumulates
// in int64 and requantizes with TFLM's 64-bit multiplier path; float32 sums products in
// depth order.
//
// batch_matmul_s8, batch_matmul_s16 arguments:
//   0 in X (lhs), 1 in Y (rhs), 2 out Z, all one dtype; Z is [batches..., rows, cols]
//   3 IntArray matrix: rows, cols, depth, X row stride, X depth stride, Y depth stride,
//     Y column stride (elements)
//   4 IntArray batches: (extent, X stride, Y stride) per output batch dimension, row-major
//   5 Int lhs_offset (-X zero point), 6 Int rhs_offset (-Y zero point)
//   7 Int multiplier (Q31 >= 0), 8 Int shift ([-31, 30] for s8, [-31, 7] for s16)
//   9 Int output_zero_point
// batch_matmul_f32 arguments: 0 X, 1 Y, 2 Z (float32), 3 matrix, 4 batches.
#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"

namespace grt::kernels::reduce {
namespace {

constexpr int kMaxBatchRank = 8;

struct MatMulLayout {
  int64_t rows, cols, depth;
  int64_t x_row, x_depth, y_depth, y_col;
  int batch_rank;
  int64_t batch_extent[kMaxBatchRank];
  int64_t x_batch[kMaxBatchRank];
  int64_t y_batch[kMaxBatchRank];
};

MatMulLayout read_layout(TVMValue* args) {
  MatMulLayout l{};
  const int32_t* m = data_of<const int32_t>(tensor_at(args, 3));
  l.rows = m[0];
  l.cols = m[1];
  l.depth = m[2];
  l.x_row = m[3];
  l.x_depth = m[4];
  l.y_depth = m[5];
  l.y_col = m[6];
  const DLTensor* batches = tensor_at(args, 4);
  const int32_t* b = data_of<const int32_t>(batches);
  l.batch_rank = static_cast<int>(element_count(batches) / 3);
  for (int d = 0; d < l.batch_rank; ++d) {
    l.batch_extent[d] = b[3 * d];
    l.x_batch[d] = b[3 * d + 1];
    l.y_batch[d] = b[3 * d + 2];
  }
  return l;
}

// Calls product(x_base, y_base, z_base) for each batch, in output order.
template <typename Product>
void for_each_batch(const MatMulLayout& l, Product&& product) {
  int64_t batches = 1;
  for (int d = 0; d < l.batch_rank; ++d) batches *= l.batch_extent[d];
  int64_t index[kMaxBatchRank] = {};
  const int64_t matrix = l.rows * l.cols;
  for (int64_t b = 0; b < batches; ++b) {
    int64_t x_base = 0;
    int64_t y_base = 0;
    for (int d = 0; d < l.batch_rank; ++d) {
      x_base += index[d] * l.x_batch[d];
      y_base += index[d] * l.y_batch[d];
    }
    product(x_base, y_base, b * matrix);
    for (int d = l.batch_rank - 1; d >= 0; --d) {
      if (++index[d] < l.batch_extent[d]) break;
      index[d] = 0;
    }
  }
}

template <typename T, typename Accumulator>
int run_quantized_matmul(TVMValue* args) {
  const T* x = data_of<const T>(tensor_at(args, 0));
  const T* y = data_of<const T>(tensor_at(args, 1));
  T* z = data_of<T>(tensor_at(args, 2));
  const MatMulLayout l = read_layout(args);
  const Accumulator lhs_offset = static_cast<Accumulator>(int_at(args, 5));
  const Accumulator rhs_offset = static_cast<Accumulator>(int_at(args, 6));
  const int32_t multiplier = static_cast<int32_t>(int_at(args, 7));
  const int shift = static_cast<int>(int_at(args, 8));
  const int32_t output_zero_point = static_cast<int32_t>(int_at(args, 9));
  constexpr int32_t kMin = sizeof(T) == 1 ? INT8_MIN : INT16_MIN;
  constexpr int32_t kMax = sizeof(T) == 1 ? INT8_MAX : INT16_MAX;
  for_each_batch(l, [&](int64_t x_base, int64_t y_base, int64_t z_base) {
    for (int64_t i = 0; i < l.rows; ++i) {
      for (int64_t j = 0; j < l.cols; ++j) {
        const T* xi = x + x_base + i * l.x_row;
        const T* yj = y + y_base + j * l.y_col;
        Accumulator total = 0;
        // int32 wraps as the reference's does on its targets; int64 cannot overflow here.
        for (int64_t k = 0; k < l.depth; ++k) {
          const Accumulator term = (static_cast<Accumulator>(yj[k * l.y_depth]) + rhs_offset) *
                                   (static_cast<Accumulator>(xi[k * l.x_depth]) + lhs_offset);
          total = static_cast<Accumulator>(static_cast<uint64_t>(total) + static_cast<uint64_t>(term));
        }
        int32_t value = wrapping_add(multiply_by_quantized_multiplier(total, multiplier, shift), output_zero_point);
        value = value < kMin ? kMin : (value > kMax ? kMax : value);
        z[z_base + i * l.cols + j] = static_cast<T>(value);
      }
    }
  });
  return 0;
}

int run_float_matmul(TVMValue* args) {
  const float* x = data_of<const float>(tensor_at(args, 0));
  const float* y = data_of<const float>(tensor_at(args, 1));
  float* z = data_of<float>(tensor_at(args, 2));
  const MatMulLayout l = read_layout(args);
  for_each_batch(l, [&](int64_t x_base, int64_t y_base, int64_t z_base) {
    for (int64_t i = 0; i < l.rows; ++i) {
      for (int64_t j = 0; j < l.cols; ++j) {
        const float* xi = x + x_base + i * l.x_row;
        const float* yj = y + y_base + j * l.y_col;
        float total = 0.0f;
        for (int64_t k = 0; k < l.depth; ++k) total += xi[k * l.x_depth] * yj[k * l.y_depth];
        z[z_base + i * l.cols + j] = total;
      }
    }
  });
  return 0;
}

// The largest offset into X and Y a layout reads, capped above INT32_MAX; -1 when it reads
// nothing. Arguments were checked to be non-negative int32, so no step overflows.
void layout_reach(const MatMulLayout& l, int64_t* x_reach, int64_t* y_reach) {
  constexpr int64_t kCap = int64_t{INT32_MAX} + 1;
  const auto add = [](int64_t reach, int64_t extent, int64_t stride) {
    reach += extent > 0 ? (extent - 1) * stride : 0;
    return reach > kCap ? kCap : reach;
  };
  bool reads = l.rows > 0 && l.cols > 0 && l.depth > 0;
  *x_reach = add(add(0, l.rows, l.x_row), l.depth, l.x_depth);
  *y_reach = add(add(0, l.cols, l.y_col), l.depth, l.y_depth);
  for (int d = 0; d < l.batch_rank; ++d) {
    reads = reads && l.batch_extent[d] > 0;
    *x_reach = add(*x_reach, l.batch_extent[d], l.x_batch[d]);
    *y_reach = add(*y_reach, l.batch_extent[d], l.y_batch[d]);
  }
  if (!reads) *x_reach = *y_reach = -1;
}

bool non_negative_ints(const DLTensor* t) {
  const int32_t* v = data_of<const int32_t>(t);
  for (int64_t i = 0; i < element_count(t); ++i) {
    if (v[i] < 0) return false;
  }
  return true;
}

void check_layout(ArgCheck& check, TVMValue* args) {
  check.tensor(3, ElementType::kInt32, 1).tensor(4, ElementType::kInt32, 1);
  if (!check.ok()) return;
  const DLTensor* matrix = tensor_at(args, 3);
  const DLTensor* batches = tensor_at(args, 4);
  check.expect(element_count(matrix) == 7 && matrix->data != nullptr, "the matrix layout must hold 7 constants")
      .expect(element_count(batches) % 3 == 0 && element_count(batches) / 3 <= kMaxBatchRank &&
                  (element_count(batches) == 0 || batches->data != nullptr),
              "the batch layout must hold at most 8 constant (extent, X stride, Y stride) triples");
  if (!check.ok()) return;
  check.expect(non_negative_ints(matrix) && non_negative_ints(batches), "layouts must not be negative");
  if (!check.ok()) return;
  const MatMulLayout l = read_layout(args);
  const int64_t x_count = element_count(tensor_at(args, 0));
  const int64_t y_count = element_count(tensor_at(args, 1));
  const int64_t z_count = element_count(tensor_at(args, 2));
  check.expect(x_count <= INT32_MAX && y_count <= INT32_MAX && z_count <= INT32_MAX, "operands are too large");
  int64_t outputs = l.rows * l.cols;
  for (int d = 0; d < l.batch_rank && outputs <= INT32_MAX; ++d) outputs *= l.batch_extent[d];
  check.expect(outputs == z_count, "output must hold batches * rows * cols values");
  int64_t x_reach = 0;
  int64_t y_reach = 0;
  layout_reach(l, &x_reach, &y_reach);
  check.expect(x_reach < x_count && y_reach < y_count, "the layout reaches past an operand");
}

template <typename T>
int check_quantized_matmul(const char* name, ElementType type, int max_shift, TVMValue* args, int* codes, int count) {
  constexpr int32_t kMin = sizeof(T) == 1 ? INT8_MIN : INT16_MIN;
  constexpr int32_t kMax = sizeof(T) == 1 ? INT8_MAX : INT16_MAX;
  ArgCheck check(name, args, codes, count);
  check.count(10)
      .tensor(0, type)
      .tensor(1, type)
      .tensor(2, type)
      .integer(5, -kMax, -kMin)
      .integer(6, -kMax, -kMin)
      .integer(7, 0, INT32_MAX)
      .integer(8, -31, max_shift)
      .integer(9, kMin, kMax);
  check_layout(check, args);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::reduce

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace reduce = grt::kernels::reduce;

GRT_KERNEL_FUNCTION(batch_matmul_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::run_quantized_matmul<int8_t, int32_t>(args);
}

GRT_CHECK_FUNCTION(batch_matmul_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::check_quantized_matmul<int8_t>("batch_matmul_s8", ElementType::kInt8, 30, args, type_codes,
                                                num_args);
}

GRT_KERNEL_FUNCTION(batch_matmul_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::run_quantized_matmul<int16_t, int64_t>(args);
}

GRT_CHECK_FUNCTION(batch_matmul_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::check_quantized_matmul<int16_t>("batch_matmul_s16", ElementType::kInt16, 7, args, type_codes,
                                                 num_args);
}

GRT_KERNEL_FUNCTION(batch_matmul_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::run_float_matmul(args);
}

GRT_CHECK_FUNCTION(batch_matmul_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("batch_matmul_f32", args, type_codes, num_args);
  check.count(5).tensor(0, ElementType::kFloat32).tensor(1, ElementType::kFloat32).tensor(2, ElementType::kFloat32);
  reduce::check_layout(check, args);
  return check.result();
}
