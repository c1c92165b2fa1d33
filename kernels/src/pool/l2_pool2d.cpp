// L2_POOL_2D over NHWC, float32 only as in TFLM (reference/pooling.h L2Pool): per window
// clipped to the input, sqrt(sum of squares / count), summed row by row as the reference
// sums, then the fused activation's clamp.
//
// l2_pool2d_f32 takes the arguments of max_pool2d_f32 (see pool_window.h):
//   0 in X float32 [N, H, W, C], 1 out Y float32 [N, OH, OW, C]
//   2 Int stride_h, 3 Int stride_w, 4 Int filter_h, 5 Int filter_w, 6 Int pad_top,
//   7 Int pad_left, 8 Float act_min, 9 Float act_max
#include <math.h>
#include <stdint.h>

#include "pool_window.h"

GRT_KERNEL_FUNCTION(l2_pool2d_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  const pool::Pool2d p = pool::read_pool2d(args);
  const float act_min = static_cast<float>(real_at(args, 8));
  const float act_max = static_cast<float>(real_at(args, 9));
  const float* input = data_of<const float>(tensor_at(args, 0));
  float* output = data_of<float>(tensor_at(args, 1));
  const int row_stride = p.in_w * p.channels;
  for (int batch = 0; batch < p.batches; ++batch) {
    const float* image = input + batch * p.in_h * row_stride;
    for (int out_y = 0; out_y < p.out_h; ++out_y) {
      for (int out_x = 0; out_x < p.out_w; ++out_x) {
        const pool::Window w = pool::window_at(p, out_y, out_x);
        const float count = static_cast<float>(w.count());
        float* out = output + ((batch * p.out_h + out_y) * p.out_w + out_x) * p.channels;
        for (int c = 0; c < p.channels; ++c) {
          float sum_squares = 0.0f;
          for (int in_y = w.y0; in_y < w.y1; ++in_y) {
            for (int in_x = w.x0; in_x < w.x1; ++in_x) {
              const float v = image[in_y * row_stride + in_x * p.channels + c];
              sum_squares += v * v;
            }
          }
          const float l2 = sqrtf(sum_squares / count);
          const float raised = l2 < act_min ? act_min : l2;
          out[c] = act_max < raised ? act_max : raised;
        }
      }
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(l2_pool2d_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::pool::check_float_pool2d("l2_pool2d_f32", args, type_codes, num_args);
}
