// The DSP requantizers' inline assembly (kernels/src/conv/dsp_requantize.h) on the core itself:
// the host tests run their C emulation, this runs the instructions. Random sums, biases,
// multipliers, shifts and output offsets through FastRequantizer (one channel and four),
// wherever fast_requantize_applies admits them, and ChannelRequantizer with the exact stage,
// against TFLM's requantization and clamp. Exit code 0 when every output matches.
#include <stdint.h>

#include "console.h"
#include "conv/dsp_requantize.h"
#include "quant_math.h"

namespace {

using grt::kernels::conv::Int8Arithmetic;
namespace dsp = grt::kernels::dsp;

// xorshift32: the same draws on every run.
struct Draws {
  uint32_t state = 2463534242u;
  uint32_t next() {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  }
  int32_t in(int32_t lo, int32_t hi) { return lo + static_cast<int32_t>(next() % static_cast<uint32_t>(hi - lo + 1)); }
};

int32_t expected(int32_t sum, const Int8Arithmetic& a) {
  int32_t v = grt::kernels::multiply_by_quantized_multiplier(sum + a.bias[0], a.multipliers[0], a.shifts[0]) + a.output_offset;
  v = v < a.activation_min ? a.activation_min : v;
  return v > a.activation_max ? a.activation_max : v;
}

struct Tally {
  uint32_t checked = 0, failed = 0;
  void check(const char* what, int32_t got, int32_t want, int32_t sum, const Int8Arithmetic& a) {
    ++checked;
    if (got == want || ++failed > 8) return;
    fw_line line;
    fw_line_begin(&line);
    fw_line_text(&line, what);
    fw_line_text(&line, " differs: sum ");
    fw_line_hex32(&line, static_cast<uint32_t>(sum));
    fw_line_text(&line, " bias ");
    fw_line_hex32(&line, static_cast<uint32_t>(a.bias[0]));
    fw_line_text(&line, " multiplier ");
    fw_line_hex32(&line, static_cast<uint32_t>(a.multipliers[0]));
    fw_line_text(&line, " shift ");
    fw_line_hex32(&line, static_cast<uint32_t>(a.shifts[0]));
    fw_line_end(&line);
  }
};

}  // namespace

int main() {
  Draws draws;
  Tally tally;
  uint32_t fast_channels = 0;
  constexpr int32_t kTaps = 64;  // a pointwise layer's patch: sums within 64 * 255 * 128
  constexpr int32_t kLargest = kTaps * 255 * 128;
  static_assert((256 << 12) < kLargest, "sums that land inside int8 are within the patch's range");
  for (int layer = 0; layer < 4000; ++layer) {
    // Mostly the models' ranges (right shifts 0 to 12, int8 offsets); now and then the edges.
    int32_t multiplier = draws.next() % 8 == 0 ? static_cast<int32_t>(draws.next() >> 1) : draws.in(1 << 30, INT32_MAX);
    int32_t shift = draws.next() % 16 == 0 ? draws.in(-31, 3) : -draws.in(0, 12);
    // Sums and biases that mostly land inside int8 after the shift (where every rounding
    // shows), now and then anywhere in the patch's range.
    const int32_t landing = shift <= 0 && shift > -16 ? 256 << -shift : kLargest;
    int32_t bias = draws.next() % 2 == 0 ? draws.in(-landing, landing) : draws.in(-100000, 100000);
    const int32_t output_offset = draws.in(-128, 127);
    const bool narrowed = draws.next() % 8 == 0;
    const Int8Arithmetic a{0, output_offset, narrowed ? -100 : -128, narrowed ? 90 : 127, &bias, &multiplier, &shift};
    const bool fast = dsp::fast_requantize_applies(a, 1, kTaps);
    fast_channels += fast ? 1 : 0;
    const dsp::ChannelRequantizer exact = dsp::ChannelRequantizer::of(a, 0);
    const dsp::OutputStage stage(a);
    dsp::FastRequantizer four[4];
    for (dsp::FastRequantizer& r : four) r = fast ? dsp::FastRequantizer::of(a, 0) : dsp::FastRequantizer{};
    for (int i = 0; i < 40; ++i) {
      int32_t sums[4];
      for (int32_t& s : sums) {
        s = i < 2 ? (i == 0 ? kLargest : -kLargest) : (i % 2 == 0 ? draws.in(-landing, landing) : draws.in(-kLargest, kLargest));
      }
      for (const int32_t s : sums) tally.check("ChannelRequantizer", dsp::finish(exact, static_cast<uint32_t>(s), stage), expected(s, a), s, a);
      if (!fast) continue;
      for (const int32_t s : sums) tally.check("FastRequantizer", four[0].apply(static_cast<uint32_t>(s)), expected(s, a), s, a);
      const uint32_t word = dsp::fast_requantize4(four, static_cast<uint32_t>(sums[0]), static_cast<uint32_t>(sums[1]),
                                                  static_cast<uint32_t>(sums[2]), static_cast<uint32_t>(sums[3]));
      for (int k = 0; k < 4; ++k) {
        tally.check("fast_requantize4", static_cast<int8_t>(word >> (8 * k)), expected(sums[k], a), sums[k], a);
      }
    }
  }
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "dsp requantizers: ");
  fw_line_u32(&line, tally.checked);
  fw_line_text(&line, " outputs checked, ");
  fw_line_u32(&line, tally.failed);
  fw_line_text(&line, " differ; layers taking FastRequantizer ");
  fw_line_u32(&line, fast_channels);
  fw_line_end(&line);
  // Both requantizers must have been exercised.
  const bool covered = fast_channels > 1000 && fast_channels < 4000;
  if (!covered) fw_print("dsp requantizers: the draws missed a kind of channel");
  return tally.failed == 0 && covered ? 0 : 1;
}
