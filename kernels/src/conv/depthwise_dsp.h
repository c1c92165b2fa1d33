// depthwise_conv2d_s8 with depth multiplier 1 on the DSP extension (dsp_intrinsics.h).
// Per output pixel, four channels at a time: each tap loads four activations and four
// weights (channels c..c+3 are contiguous in both), sign-extends them into even and odd
// channel pairs (the input offset added by SXTAB16) and adds each channel's product to its
// own sum with SMLABB / SMLATT. A 3x3 window wholly inside the image is one block of
// assembly over weights sign-extended once per chunk of channels (pack_3x3), and one on
// the border reads the same packed weights for its taps inside the image, each row through
// the same block's taps; the four outputs are packed into one word store. Leftover
// channels (count not a multiple of 4) are summed one by one. Taps are visited in TFLM's
// order; sums wrap like the portable path's and are requantized as it does (or, where it is
// exact, by FastRequantizer: dsp_requantize.h).
#ifndef GRAPHRT_KERNELS_CONV_DEPTHWISE_DSP_H_
#define GRAPHRT_KERNELS_CONV_DEPTHWISE_DSP_H_

#include <stddef.h>
#include <stdint.h>

#include "conv_arithmetic.h"
#include "conv_geometry.h"
#include "dsp_intrinsics.h"
#include "dsp_requantize.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

struct Sums4 {
  uint32_t c0, c1, c2, c3;
};

// Four zero stores. `Sums4 s{0, 0, 0, 0}`, an object whose address the tap blocks take, was a
// call of memset at -Os (newlib's, about 35 instructions for 16 bytes) for every four
// channels of every pixel: 4 % of KWS's instructions on the M4.
inline void clear(Sums4& s) {
  s.c0 = 0;
  s.c1 = 0;
  s.c2 = 0;
  s.c3 = 0;
}

// Adds one tap's products for four channels.
inline void depthwise_tap4(const int8_t* x, const int8_t* w, uint32_t offset2, Sums4& s) {
  const uint32_t xv = load4(x), wv = load4(w);
  const uint32_t x_even = sxtab16(offset2, xv), x_odd = sxtab16_ror8(offset2, xv);
  const uint32_t w_even = sxtb16(wv), w_odd = sxtb16_ror8(wv);
  s.c0 = smlabb(x_even, w_even, s.c0);
  s.c1 = smlabb(x_odd, w_odd, s.c1);
  s.c2 = smlatt(x_even, w_even, s.c2);
  s.c3 = smlatt(x_odd, w_odd, s.c3);
}

// A 3x3 filter's weights for the channels of one chunk, sign-extended and repacked once per
// chunk: per group of four channels and tap, the (c, c + 2) and (c + 1, c + 3) halves in
// consecutive words, so the window's loop loads them with one LDRD and extends nothing.
inline void pack_3x3(const int8_t* filter, size_t pitch, int32_t chunk, int32_t chunk_end, uint32_t* packed) {
  for (int32_t c = chunk; c < chunk_end; c += 4) {
    for (size_t tap = 0; tap < 9; ++tap, packed += 2) {
      const uint32_t w = load4(filter + tap * pitch + static_cast<size_t>(c));
      packed[0] = sxtb16(w);
      packed[1] = sxtb16_ror8(w);
    }
  }
}

#if !defined(GRT_DSP_EMULATE)
// One tap on packed weights: the activations at `address`, the next two packed words.
#define GRT_DEPTHWISE_TAP(address)                     \
  "ldr %[a], " address "\n\t"                         \
  "ldrd %[b], %[b_odd], [%[w]], #8\n\t"               \
  "sxtab16 %[a_odd], %[offset2], %[a], ror #8\n\t"    \
  "sxtab16 %[a], %[offset2], %[a]\n\t"                \
  "smlabb %[c0], %[a], %[b], %[c0]\n\t"               \
  "smlatt %[c2], %[a], %[b], %[c2]\n\t"               \
  "smlabb %[c1], %[a_odd], %[b_odd], %[c1]\n\t"       \
  "smlatt %[c3], %[a_odd], %[b_odd], %[c3]\n\t"
// A row's first one, two or three taps, the columns addressed from the row's first.
#define GRT_DEPTHWISE_TAPS1 GRT_DEPTHWISE_TAP("[%[x]]")
#define GRT_DEPTHWISE_TAPS2 GRT_DEPTHWISE_TAPS1 GRT_DEPTHWISE_TAP("[%[x], %[pitch]]")
#define GRT_DEPTHWISE_TAPS3 GRT_DEPTHWISE_TAPS2 GRT_DEPTHWISE_TAP("[%[x], %[pitch], lsl #1]")
#define GRT_DEPTHWISE_SUMS                                                                                      \
  [w] "+r"(w), [c0] "+r"(c0), [c1] "+r"(c1), [c2] "+r"(c2), [c3] "+r"(c3), [a] "=&r"(a), [b] "=&r"(b), \
      [a_odd] "=&r"(a_odd), [b_odd] "=&r"(b_odd)

// The nine taps of a 3x3 window inside the image for four channels (weights from
// pack_3x3, w left on the next group's), by hand: GCC 12 runs out of registers on the
// unrolled loop and spills. Thirteen registers: two pointers, two pitches, the offset, four
// sums, four halves. x walks down the rows and is put back, so the caller's loop needs no
// copy of it; inlined, so the sums stay in registers.
__attribute__((always_inline)) inline void depthwise_3x3(const int8_t*& x, const uint32_t*& w, size_t pitch,
                                                         size_t row_pitch, uint32_t offset2, Sums4& s) {
  uint32_t a, b, a_odd, b_odd;
  uint32_t c0 = s.c0, c1 = s.c1, c2 = s.c2, c3 = s.c3;
  __asm__(GRT_DEPTHWISE_TAPS3 "add %[x], %[x], %[row_pitch]\n\t" GRT_DEPTHWISE_TAPS3
          "add %[x], %[x], %[row_pitch]\n\t" GRT_DEPTHWISE_TAPS3 "sub %[x], %[x], %[row_pitch], lsl #1"
          : [x] "+r"(x), GRT_DEPTHWISE_SUMS
          : [pitch] "r"(pitch), [row_pitch] "r"(row_pitch), [offset2] "r"(offset2)
          : "memory");
  s = {c0, c1, c2, c3};
}

// The taps of a 3x3 window on the image's border for four channels: `rows` x `cols` taps
// (cols in 1..3) from the activations at x and the packed weights at w (pack_3x3's, from
// the first tap inside), each row one block of the interior's taps that leaves w on the
// next row's weights.
inline void depthwise_3x3_border(const int8_t* x, const uint32_t* w, int32_t rows, int32_t cols, size_t pitch,
                                 size_t row_pitch, uint32_t offset2, Sums4& s) {
  uint32_t a, b, a_odd, b_odd;
  uint32_t c0 = s.c0, c1 = s.c1, c2 = s.c2, c3 = s.c3;
  for (int32_t fy = 0; fy < rows; ++fy, x += row_pitch) {
    if (cols == 3) {
      __asm__(GRT_DEPTHWISE_TAPS3 : GRT_DEPTHWISE_SUMS : [x] "r"(x), [pitch] "r"(pitch), [offset2] "r"(offset2) : "memory");
    } else if (cols == 2) {
      __asm__(GRT_DEPTHWISE_TAPS2 "add %[w], %[w], #8"
              : GRT_DEPTHWISE_SUMS
              : [x] "r"(x), [pitch] "r"(pitch), [offset2] "r"(offset2)
              : "memory");
    } else {
      __asm__(GRT_DEPTHWISE_TAPS1 "add %[w], %[w], #16" : GRT_DEPTHWISE_SUMS : [x] "r"(x), [offset2] "r"(offset2) : "memory");
    }
  }
  s = {c0, c1, c2, c3};
}
#undef GRT_DEPTHWISE_SUMS
#undef GRT_DEPTHWISE_TAPS3
#undef GRT_DEPTHWISE_TAPS2
#undef GRT_DEPTHWISE_TAPS1
#undef GRT_DEPTHWISE_TAP
#else
inline void depthwise_3x3(const int8_t*& x, const uint32_t*& w, size_t pitch, size_t row_pitch, uint32_t offset2,
                          Sums4& s) {
  const int8_t* row = x;
  for (int fy = 0; fy < 3; ++fy, row += row_pitch) {
    for (int fx = 0; fx < 3; ++fx, w += 2) {
      const uint32_t xv = load4(row + static_cast<size_t>(fx) * pitch);
      const uint32_t x_even = sxtab16(offset2, xv), x_odd = sxtab16_ror8(offset2, xv);
      s.c0 = smlabb(x_even, w[0], s.c0);
      s.c1 = smlabb(x_odd, w[1], s.c1);
      s.c2 = smlatt(x_even, w[0], s.c2);
      s.c3 = smlatt(x_odd, w[1], s.c3);
    }
  }
}

// The taps of a 3x3 window on the image's border for four channels: `rows` x `cols` taps
// from the activations at x and the packed weights at w (pack_3x3's, from the first tap
// inside), which the window's block would have read; the others are outside the image.
inline void depthwise_3x3_border(const int8_t* x, const uint32_t* w, int32_t rows, int32_t cols, size_t pitch,
                                 size_t row_pitch, uint32_t offset2, Sums4& s) {
  for (int32_t fy = 0; fy < rows; ++fy, x += row_pitch, w += 6) {
    const int8_t* x_tap = x;
    const uint32_t* w_tap = w;
    for (int32_t fx = 0; fx < cols; ++fx, x_tap += pitch, w_tap += 2) {
      const uint32_t xv = load4(x_tap);
      const uint32_t x_even = sxtab16(offset2, xv), x_odd = sxtab16_ror8(offset2, xv);
      s.c0 = smlabb(x_even, w_tap[0], s.c0);
      s.c1 = smlabb(x_odd, w_tap[1], s.c1);
      s.c2 = smlatt(x_even, w_tap[0], s.c2);
      s.c3 = smlatt(x_odd, w_tap[1], s.c3);
    }
  }
}
#endif

// Four channels' sums requantized, packed and stored as one word (all four before
// storing: an int8 store may alias the table).
template <class Requantizer, class Stage>
inline void store4(int8_t* out, const Requantizer* r, const Sums4& s, const Stage& stage) {
  store_word(out, bytes_of(finish(r[0], s.c0, stage), finish(r[1], s.c1, stage), finish(r[2], s.c2, stage),
                           finish(r[3], s.c3, stage)));
}
template <class Stage>
inline void store4(int8_t* out, const FastRequantizer* r, const Sums4& s, const Stage&) {
  store_word(out, fast_requantize4(r, s.c0, s.c1, s.c2, s.c3));
}

// Channels handled per pass over the image: their requantizers sit in a stack table.
constexpr int32_t kDepthwiseChunk = 16;

// Where one output pixel's taps inside the image start and how they advance.
struct TapWalk {
  const int8_t* x;  // first tap's activations (channel 0)
  const int8_t* w;  // its weights (channel 0)
  int32_t rows, cols;
  int32_t first_tap;  // of the filter window, row-major: where pack_3x3's weights start
};

// The taps of output pixel (b, oy, ox) inside the image (input pixels Cin bytes apart,
// filter taps Cout bytes apart).
inline TapWalk tap_walk(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter, int32_t b, int32_t oy,
                        int32_t ox) {
  const size_t pixel_pitch = static_cast<size_t>(g.input_c);
  const size_t row_pitch = static_cast<size_t>(g.input_w) * pixel_pitch;
  const size_t filter_row_pitch = static_cast<size_t>(g.filter_w) * g.output_c;
  const int64_t origin_y = static_cast<int64_t>(oy) * g.stride_h - g.pad_top;
  const int64_t origin_x = static_cast<int64_t>(ox) * g.stride_w - g.pad_left;
  const conv::TapRange rows = conv::taps_inside(origin_y, g.dilation_h, g.filter_h, g.input_h);
  const conv::TapRange cols = conv::taps_inside(origin_x, g.dilation_w, g.filter_w, g.input_w);
  TapWalk walk{input, filter, rows.end - rows.begin, cols.end - cols.begin, 0};
  if (walk.rows <= 0 || walk.cols <= 0) {
    walk.rows = walk.cols = 0;  // nothing is read
    return walk;
  }
  const int64_t first_y = origin_y + static_cast<int64_t>(rows.begin) * g.dilation_h;
  const int64_t first_x = origin_x + static_cast<int64_t>(cols.begin) * g.dilation_w;
  walk.x = input + (static_cast<size_t>(b) * g.input_h + static_cast<size_t>(first_y)) * row_pitch +
           static_cast<size_t>(first_x) * pixel_pitch;
  walk.w = filter + static_cast<size_t>(rows.begin) * filter_row_pitch + static_cast<size_t>(cols.begin) * g.output_c;
  walk.first_tap = rows.begin * g.filter_w + cols.begin;
  return walk;
}

// The channels [chunk, chunk_end) (multiples of 4) of one output pixel whose window `walk`
// describes, anywhere in the image: a unit 3x3 window's border on packed weights, other
// windows tap by tap.
template <class Requantizer, class Stage>
inline void depthwise_walked_pixel(const conv::ConvGeometry& g, bool unit_3x3, const TapWalk& walk, int32_t chunk,
                                   int32_t chunk_end, const uint32_t* packed, const Requantizer* table, uint32_t offset2,
                                   const Stage& stage, int8_t* out) {
  const size_t pixel_pitch = static_cast<size_t>(g.output_c);
  const size_t row_pitch = static_cast<size_t>(g.input_w) * pixel_pitch;
  if (unit_3x3) {
    const uint32_t* w = packed + 2 * walk.first_tap;
    for (int32_t c = chunk; c < chunk_end; c += 4, w += 18) {
      Sums4 s;
      clear(s);
      depthwise_3x3_border(walk.x + c, w, walk.rows, walk.cols, pixel_pitch, row_pitch, offset2, s);
      store4(out + c, table + (c - chunk), s, stage);
    }
    return;
  }
  const size_t filter_row_pitch = static_cast<size_t>(g.filter_w) * pixel_pitch;
  const size_t x_row_step = static_cast<size_t>(g.dilation_h) * row_pitch;
  const size_t x_col_step = static_cast<size_t>(g.dilation_w) * pixel_pitch;
  for (int32_t c = chunk; c < chunk_end; c += 4) {
    Sums4 s;
    clear(s);
    const int8_t* x_row = walk.x + c;
    const int8_t* w_row = walk.w + c;
    for (int32_t fy = 0; fy < walk.rows; ++fy, x_row += x_row_step, w_row += filter_row_pitch) {
      const int8_t* x = x_row;
      const int8_t* w = w_row;
      for (int32_t fx = 0; fx < walk.cols; ++fx, x += x_col_step, w += pixel_pitch) depthwise_tap4(x, w, offset2, s);
    }
    store4(out + c, table + (c - chunk), s, stage);
  }
}

// Channels in chunks of kDepthwiseChunk (multiples of 4), each chunk over the whole image
// with its requantizers worked out once; leftover channels one by one. A 3x3 filter's
// windows wholly inside the image (whole_windows: most of them) are walked by stepping one
// pointer along each row; the others are located one by one (tap_walk).
template <class Stage>
inline void depthwise_multiplier1(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter, int8_t* output,
                                  const conv::Int8Arithmetic& a) {
  const int32_t channels = g.output_c;
  const int32_t blocked = channels & ~3;
  const size_t pixel_pitch = static_cast<size_t>(channels);
  const size_t row_pitch = static_cast<size_t>(g.input_w) * pixel_pitch;
  const size_t x_row_step = static_cast<size_t>(g.dilation_h) * row_pitch;
  const size_t x_col_step = static_cast<size_t>(g.dilation_w) * pixel_pitch;
  const size_t filter_row_pitch = static_cast<size_t>(g.filter_w) * pixel_pitch;
  const uint32_t offset2 = pair_of(a.input_offset);
  const Stage stage(a);
  const bool unit_3x3 = g.filter_h == 3 && g.filter_w == 3 && g.dilation_h == 1 && g.dilation_w == 1;
  const conv::TapRange inside_rows =
      unit_3x3 ? conv::whole_windows(g.output_h, g.stride_h, 1, g.pad_top, 3, g.input_h) : conv::TapRange{};
  const conv::TapRange inside_cols =
      unit_3x3 ? conv::whole_windows(g.output_w, g.stride_w, 1, g.pad_left, 3, g.input_w) : conv::TapRange{};
  const size_t inside_step = static_cast<size_t>(g.stride_w) * pixel_pitch;  // between whole windows of a row
  using Requantizer = typename Stage::Requantizer;
  Requantizer table[kDepthwiseChunk];
  uint32_t packed[kDepthwiseChunk / 4 * 9 * 2];  // pack_3x3's
  for (int32_t chunk = 0; chunk < blocked; chunk += kDepthwiseChunk) {
    const int32_t chunk_end = blocked - chunk < kDepthwiseChunk ? blocked : chunk + kDepthwiseChunk;
    fill_requantizers(a, chunk, chunk_end - chunk, table);
    const Requantizer* const table_end = table + (chunk_end - chunk);
    if (unit_3x3) pack_3x3(filter, pixel_pitch, chunk, chunk_end, packed);
    int8_t* out = output;
    for (int32_t b = 0; b < g.batches; ++b) {
      for (int32_t oy = 0; oy < g.output_h; ++oy) {
        const bool row_inside = oy >= inside_rows.begin && oy < inside_rows.end;
        for (int32_t ox = 0; ox < g.output_w;) {
          if (row_inside && ox == inside_cols.begin && ox < inside_cols.end) {
            // The row's whole windows: one pointer per stream, each stepped by the loops.
            const int8_t* x_pixel = input +
                                    (static_cast<size_t>(b) * g.input_h + static_cast<size_t>(oy * g.stride_h - g.pad_top)) *
                                        row_pitch +
                                    static_cast<size_t>(ox * g.stride_w - g.pad_left) * pixel_pitch + chunk;
            for (; ox < inside_cols.end; ++ox, out += pixel_pitch, x_pixel += inside_step) {
              const int8_t* x = x_pixel;
              const uint32_t* w = packed;
              int8_t* o = out + chunk;
              for (const Requantizer* r = table; r != table_end; r += 4, x += 4, o += 4) {
                Sums4 s;
                clear(s);
                depthwise_3x3(x, w, pixel_pitch, row_pitch, offset2, s);
                store4(o, r, s, stage);
              }
            }
            continue;
          }
          depthwise_walked_pixel(g, unit_3x3, tap_walk(g, input, filter, b, oy, ox), chunk, chunk_end, packed, table,
                                 offset2, stage, out);
          ++ox;
          out += pixel_pitch;
        }
      }
    }
  }
  if (blocked == channels) return;
  int8_t* out = output;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.output_h; ++oy) {
      for (int32_t ox = 0; ox < g.output_w; ++ox, out += pixel_pitch) {
        const TapWalk walk = tap_walk(g, input, filter, b, oy, ox);
        for (int32_t c = blocked; c < channels; ++c) {
          uint32_t sum = 0;
          const int8_t* x_row = walk.x + c;
          const int8_t* w_row = walk.w + c;
          for (int32_t fy = 0; fy < walk.rows; ++fy, x_row += x_row_step, w_row += filter_row_pitch) {
            const int8_t* x = x_row;
            const int8_t* w = w_row;
            for (int32_t fx = 0; fx < walk.cols; ++fx, x += x_col_step, w += pixel_pitch) {
              sum += static_cast<uint32_t>((*x + a.input_offset) * *w);
            }
          }
          out[c] = finish(Requantizer::of(a, c), sum, stage);
        }
      }
    }
  }
}

// depthwise_conv2d_s8 when output channels == input channels; false (nothing written)
// otherwise.
inline bool depthwise_conv2d_s8(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter, int8_t* output,
                                const conv::Int8Arithmetic& a) {
  if (g.output_c != g.input_c) return false;
  if (fast_requantize_applies(a, g.output_c, static_cast<size_t>(g.filter_h) * g.filter_w)) {
    depthwise_multiplier1<FastOutputStage>(g, input, filter, output, a);
  } else {
    depthwise_multiplier1<OutputStage>(g, input, filter, output, a);
  }
  return true;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_DEPTHWISE_DSP_H_
