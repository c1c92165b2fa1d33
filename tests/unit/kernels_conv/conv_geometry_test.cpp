// Window geometry (kernels/src/conv/conv_geometry.h): the output positions whose whole window
// lies inside the image, against taps_inside asked position by position.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "conv/conv_geometry.h"

namespace grt::kernels::conv {
namespace {

// Every output position of a window is whole exactly when whole_windows says so.
void expect_whole_windows_match_taps_inside(int32_t outputs, int32_t stride, int32_t dilation, int32_t pad, int32_t taps,
                                            int32_t size) {
  const TapRange whole = whole_windows(outputs, stride, dilation, pad, taps, size);
  ASSERT_LE(whole.begin, whole.end);
  for (int32_t o = 0; o < outputs; ++o) {
    const TapRange inside = taps_inside(int64_t{o} * stride - pad, dilation, taps, size);
    const bool is_whole = inside.begin == 0 && inside.end == taps;
    EXPECT_EQ(is_whole, o >= whole.begin && o < whole.end)
        << "output " << o << " of " << outputs << ", stride " << stride << ", dilation " << dilation << ", pad " << pad
        << ", taps " << taps << ", size " << size;
  }
}

TEST(ConvGeometry, WholeWindowsAreTheOutputsWhoseEveryTapIsInside) {
  std::mt19937 engine(17);
  for (int i = 0; i < 4000; ++i) {
    const int32_t size = 1 + int32_t(engine() % 20), taps = 1 + int32_t(engine() % 6);
    const int32_t stride = 1 + int32_t(engine() % 3), dilation = 1 + int32_t(engine() % 3);
    const int32_t pad = int32_t(engine() % 5);
    const int32_t outputs = int32_t(engine() % 24);  // also more than the image gives
    expect_whole_windows_match_taps_inside(outputs, stride, dilation, pad, taps, size);
  }
}

TEST(ConvGeometry, WholeWindowsOfTheModelsLayersAndEdges) {
  expect_whole_windows_match_taps_inside(5, 1, 1, 1, 3, 5);    // KWS's depthwise: SAME
  expect_whole_windows_match_taps_inside(24, 2, 1, 0, 3, 48);  // VWW's stride 2 (padding on the far side)
  expect_whole_windows_match_taps_inside(1, 1, 1, 1, 3, 1);    // one pixel: no whole window
  expect_whole_windows_match_taps_inside(2, 1, 1, 0, 5, 2);    // a window wider than the image
  const TapRange none = whole_windows(0, 1, 1, 0, 3, 5);
  EXPECT_EQ(none.begin, none.end);
  // The largest coordinates the checks allow: reach near 2^31 + 2^16, still 32-bit unsigned.
  const TapRange far = whole_windows(INT32_MAX, 1 << 16, 1, 1 << 16, 3, INT32_MAX);
  EXPECT_EQ(far.begin, 1);
  EXPECT_EQ(far.end, int32_t((int64_t{INT32_MAX} - 3 + (1 << 16)) / (1 << 16) + 1));
}

}  // namespace
}  // namespace grt::kernels::conv
