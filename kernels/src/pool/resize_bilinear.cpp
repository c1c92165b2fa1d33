// RESIZE_BILINEAR over NHWC, as TFLM's reference (reference/resize_bilinear.h). The importer
// computes, per output row and per output column, the two input neighbours and the
// interpolation weight exactly as the reference does (its float scale for float32, its
// 10-bit fixed-point scale for int8), so the kernels only blend.
//
// resize_bilinear_s8 takes:
//   0 in X int8 [N, H, W, C], 1 out Y int8 [N, OH, OW, C]
//   2 IntArray rows[3 * OH]: y0, y1, wy per output row (input rows; wy = the row position
//     in 1/1024ths of a row minus 1024 * y0)
//   3 IntArray cols[3 * OW]: x0, x1, wx per output column, likewise
// Each output is the 20-bit fixed-point blend of the four neighbours, rounded half away
// from zero.
//
// resize_bilinear_f32 takes:
//   0 in X float32 [N, H, W, C], 1 out Y float32 [N, OH, OW, C]
//   2 IntArray rows[2 * OH]: y0, y1; 3 IntArray cols[2 * OW]: x0, x1
//   4 float32 [OH] row fractions (the reference's input_y - y0)
//   5 float32 [OW] column fractions (input_x - x0)
// The blend is the reference's expression, term for term, in float.
#include <stdint.h>

#include "../kernel_args.h"
#include "pool_window.h"

namespace grt::kernels::pool {
namespace {

struct Resize {
  int batches, in_h, in_w, channels, out_h, out_w;
};

Resize read_resize(TVMValue* args) {
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* y = tensor_at(args, 1);
  return {static_cast<int>(x->shape[0]), static_cast<int>(x->shape[1]), static_cast<int>(x->shape[2]),
          static_cast<int>(x->shape[3]), static_cast<int>(y->shape[1]), static_cast<int>(y->shape[2])};
}

// Neighbour pairs of `count` positions, `stride` ints each, all inside [0, size).
bool neighbours_inside(const DLTensor* table, int64_t count, int stride, int64_t size) {
  const int32_t* v = data_of<const int32_t>(table);
  for (int64_t i = 0; i < count; ++i) {
    for (int j = 0; j < 2; ++j) {
      const int32_t n = v[i * stride + j];
      if (n < 0 || n >= size) return false;
    }
  }
  return true;
}

void check_tables(ArgCheck& check, TVMValue* args, int stride) {
  if (!check.ok()) return;
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* y = tensor_at(args, 1);
  const DLTensor* rows = tensor_at(args, 2);
  const DLTensor* cols = tensor_at(args, 3);
  check.expect(rows->shape[0] == stride * y->shape[1], "rows must hold one entry per output row")
      .expect(cols->shape[0] == stride * y->shape[2], "cols must hold one entry per output column")
      .expect(rows->data != nullptr && cols->data != nullptr, "tables must be constants");
  if (!check.ok()) return;
  check.expect(neighbours_inside(rows, y->shape[1], stride, x->shape[1]), "a row neighbour lies outside the input")
      .expect(neighbours_inside(cols, y->shape[2], stride, x->shape[2]), "a column neighbour lies outside the input");
}

// Weights in 1/1024ths; |weight| <= 2^20 keeps every product of the blend inside int64.
bool weights_bounded(const DLTensor* table, int64_t count) {
  const int32_t* v = data_of<const int32_t>(table);
  for (int64_t i = 0; i < count; ++i) {
    if (v[i * 3 + 2] < -(1 << 20) || v[i * 3 + 2] > (1 << 20)) return false;
  }
  return true;
}

}  // namespace
}  // namespace grt::kernels::pool

GRT_KERNEL_FUNCTION(resize_bilinear_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  const pool::Resize r = pool::read_resize(args);
  const int8_t* input = data_of<const int8_t>(tensor_at(args, 0));
  int8_t* out = data_of<int8_t>(tensor_at(args, 1));
  const int32_t* rows = data_of<const int32_t>(tensor_at(args, 2));
  const int32_t* cols = data_of<const int32_t>(tensor_at(args, 3));
  constexpr int32_t kOne = 1 << 10;
  for (int b = 0; b < r.batches; ++b) {
    const int8_t* image = input + b * r.in_h * r.in_w * r.channels;
    for (int oy = 0; oy < r.out_h; ++oy) {
      const int8_t* row0 = image + rows[3 * oy] * r.in_w * r.channels;
      const int8_t* row1 = image + rows[3 * oy + 1] * r.in_w * r.channels;
      const int32_t wy = rows[3 * oy + 2];
      for (int ox = 0; ox < r.out_w; ++ox) {
        const int x0 = cols[3 * ox] * r.channels;
        const int x1 = cols[3 * ox + 1] * r.channels;
        const int32_t wx = cols[3 * ox + 2];
        for (int c = 0; c < r.channels; ++c) {
          const int64_t blend = static_cast<int64_t>(row0[x0 + c]) * (kOne - wy) * (kOne - wx) +
                                static_cast<int64_t>(row1[x0 + c]) * wy * (kOne - wx) +
                                static_cast<int64_t>(row0[x1 + c]) * (kOne - wy) * wx +
                                static_cast<int64_t>(row1[x1 + c]) * wy * wx;
          const int64_t half = blend > 0 ? (int64_t{1} << 19) : -(int64_t{1} << 19);
          *out++ = static_cast<int8_t>((blend + half) / (int64_t{1} << 20));
        }
      }
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(resize_bilinear_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  ArgCheck check("resize_bilinear_s8", args, type_codes, num_args);
  check.count(4)
      .tensor(0, ElementType::kInt8, 4)
      .tensor(1, ElementType::kInt8, 4)
      .tensor(2, ElementType::kInt32, 1)
      .tensor(3, ElementType::kInt32, 1);
  pool::check_nhwc_pair(check, args);  // the blends index with int
  pool::check_tables(check, args, 3);
  if (check.ok()) {
    const DLTensor* y = tensor_at(args, 1);
    check.expect(pool::weights_bounded(tensor_at(args, 2), y->shape[1]) &&
                     pool::weights_bounded(tensor_at(args, 3), y->shape[2]),
                 "an interpolation weight is out of range");
  }
  return check.result();
}

GRT_KERNEL_FUNCTION(resize_bilinear_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  const pool::Resize r = pool::read_resize(args);
  const float* input = data_of<const float>(tensor_at(args, 0));
  float* out = data_of<float>(tensor_at(args, 1));
  const int32_t* rows = data_of<const int32_t>(tensor_at(args, 2));
  const int32_t* cols = data_of<const int32_t>(tensor_at(args, 3));
  const float* row_fractions = data_of<const float>(tensor_at(args, 4));
  const float* col_fractions = data_of<const float>(tensor_at(args, 5));
  for (int b = 0; b < r.batches; ++b) {
    const float* image = input + b * r.in_h * r.in_w * r.channels;
    for (int oy = 0; oy < r.out_h; ++oy) {
      const float* row0 = image + rows[2 * oy] * r.in_w * r.channels;
      const float* row1 = image + rows[2 * oy + 1] * r.in_w * r.channels;
      const float dy = row_fractions[oy];
      for (int ox = 0; ox < r.out_w; ++ox) {
        const int x0 = cols[2 * ox] * r.channels;
        const int x1 = cols[2 * ox + 1] * r.channels;
        const float dx = col_fractions[ox];
        for (int c = 0; c < r.channels; ++c) {
          // The reference adds a rounding offset of 0 for float; + 0.0f keeps its -0.0 -> +0.0.
          *out++ = row0[x0 + c] * (1 - dy) * (1 - dx) + row1[x0 + c] * dy * (1 - dx) + row0[x1 + c] * (1 - dy) * dx +
                   row1[x1 + c] * dy * dx + 0.0f;
        }
      }
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(resize_bilinear_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  ArgCheck check("resize_bilinear_f32", args, type_codes, num_args);
  check.count(6)
      .tensor(0, ElementType::kFloat32, 4)
      .tensor(1, ElementType::kFloat32, 4)
      .tensor(2, ElementType::kInt32, 1)
      .tensor(3, ElementType::kInt32, 1)
      .tensor(4, ElementType::kFloat32, 1)
      .tensor(5, ElementType::kFloat32, 1);
  pool::check_nhwc_pair(check, args);  // the blends index with int
  pool::check_tables(check, args, 2);
  if (check.ok()) {
    const DLTensor* y = tensor_at(args, 1);
    check.expect(tensor_at(args, 4)->shape[0] == y->shape[1] && tensor_at(args, 5)->shape[0] == y->shape[2],
                 "fractions must hold one entry per output row and column");
  }
  return check.result();
}
