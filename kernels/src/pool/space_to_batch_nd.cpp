// SPACE_TO_BATCH_ND, as TFLM's reference (reference/space_to_batch_nd.h): the padded image
// is cut into block_h x block_w phases, each phase becoming its own batches. Positions in
// the padding are filled by memset with the output zero point's byte, exactly as the
// reference fills them. Any element size; a 3-D [N, H, C] tensor is [N, H, 1, C] with
// block_w 1.
//
// space_to_batch_nd takes:
//   0 in X [N, H, W, C] or [N, H, C], 1 out Y [N * block_h * block_w, OH, OW, C] (same rank
//     and dtype)
//   2 Int block_h, 3 Int block_w (>= 1; block_w 1 for 3-D)
//   4 Int pad_top, 5 Int pad_left (>= 0)
//   6 Int pad_byte (0..255)
#include <string.h>

#include "../elementwise/tensor_layout.h"
#include "../kernel_args.h"

namespace grt::kernels::pool {
namespace {

// [N, H, W, C] of a 3-D or 4-D tensor, a 3-D one read as [N, H, 1, C].
struct Nhwc {
  int64_t n, h, w, c;
};

Nhwc nhwc_of(const DLTensor* t) {
  return {t->shape[0], t->shape[1], t->ndim == 4 ? t->shape[2] : 1, t->shape[t->ndim - 1]};
}

}  // namespace
}  // namespace grt::kernels::pool

GRT_KERNEL_FUNCTION(space_to_batch_nd) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  const DLTensor* x = tensor_at(args, 0);
  DLTensor* y = tensor_at(args, 1);
  const pool::Nhwc in = pool::nhwc_of(x);
  const pool::Nhwc out = pool::nhwc_of(y);
  const int64_t block_w = int_at(args, 3);
  const int64_t block_h = int_at(args, 2);
  const int64_t pad_top = int_at(args, 4);
  const int64_t pad_left = int_at(args, 5);
  const int pad_byte = static_cast<int>(int_at(args, 6));
  const size_t pixel = static_cast<size_t>(in.c * elementwise::element_bytes(x));
  const uint8_t* input = data_of<const uint8_t>(x);
  uint8_t* output = data_of<uint8_t>(y);
  for (int64_t out_b = 0; out_b < out.n; ++out_b) {
    const int64_t batch = out_b % in.n;
    const int64_t shift_w = (out_b / in.n) % block_w;
    const int64_t shift_h = (out_b / in.n) / block_w;
    for (int64_t out_h = 0; out_h < out.h; ++out_h) {
      const int64_t in_h = out_h * block_h + shift_h - pad_top;
      for (int64_t out_w = 0; out_w < out.w; ++out_w) {
        const int64_t in_w = out_w * block_w + shift_w - pad_left;
        if (in_h < 0 || in_h >= in.h || in_w < 0 || in_w >= in.w) {
          memset(output, pad_byte, pixel);
        } else {
          memcpy(output, input + ((batch * in.h + in_h) * in.w + in_w) * pixel, pixel);
        }
        output += pixel;
      }
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(space_to_batch_nd) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  ArgCheck check("space_to_batch_nd", args, type_codes, num_args);
  check.count(7).any_tensor(0).any_tensor(1);
  check.integer(2, 1, 1 << 16)
      .integer(3, 1, 1 << 16)
      .integer(4, 0, INT32_MAX)
      .integer(5, 0, INT32_MAX)
      .integer(6, 0, 255);
  if (!check.ok()) return check.result();
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* y = tensor_at(args, 1);
  check.expect(elementwise::same_dtype(x, y), "input and output dtypes differ")
      .expect(elementwise::element_bytes(x) >= 1, "elements must be whole bytes")
      .expect((x->ndim == 3 || x->ndim == 4) && y->ndim == x->ndim, "input and output must both be 3-D or 4-D");
  if (!check.ok()) return check.result();
  const pool::Nhwc in = pool::nhwc_of(x);
  const pool::Nhwc out = pool::nhwc_of(y);
  check.expect(x->ndim == 4 || int_at(args, 3) == 1, "a 3-D tensor has no width to split")
      .expect(in.c == out.c, "input and output differ in channels")
      .expect(out.n == in.n * int_at(args, 2) * int_at(args, 3),
              "output batches are not input batches times the block");
  return check.result();
}
