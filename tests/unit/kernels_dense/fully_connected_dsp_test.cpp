// fully_connected_s8's Cortex-M DSP path (kernels/src/dense/fully_connected_dsp.h) on the
// host, each DSP instruction emulated in C (GRT_DSP_EMULATE), against the portable kernel
// run through a one-node model: depths around the 4-byte steps, odd and single units,
// batches, extreme and filter offsets, per-tensor and per-channel (negative too)
// multipliers, left shifts, no bias, narrowed clamps, sums that wrap.
#define GRT_DSP_EMULATE 1

#include <gtest/gtest.h>

#include <random>

#include "dense/fully_connected_dsp.h"
#include "dense_harness.h"

namespace grt::test::dense {
namespace {

namespace dsp = grt::kernels::dsp;

TEST(FullyConnectedDsp, MatchesThePortableKernelOnRandomShapes) {
  std::mt19937 engine(4242);
  const auto random_bytes = [&](size_t n) {
    std::vector<int8_t> v(n);
    for (auto& e : v) e = int8_t(int(engine() % 256u) - 128);
    return v;
  };
  for (int i = 0; i < 170; ++i) {
    // The last twenty around kMaxExpandedDepth (expanded activations up to it, not above).
    const int32_t depth = i < 150 ? 1 + int32_t(engine() % (i < 100 ? 40u : 300u)) : 620 + int32_t(engine() % 40u);
    const int32_t units = 1 + int32_t(engine() % (i < 100 ? 11u : 14u));  // deep ones from 8 expand
    const int32_t batches = 1 + int32_t(engine() % 3u);
    const int32_t offsets[] = {128, -127, 0, 7};
    const int32_t input_offset = offsets[engine() % 4];
    const int32_t filter_offset = engine() % 3 == 0 ? offsets[engine() % 4] : 0;
    const bool per_channel = engine() % 2 == 0;
    const bool with_bias = engine() % 4 != 0;
    const auto input = random_bytes(size_t(batches) * size_t(depth));
    const auto weights = random_bytes(size_t(units) * size_t(depth));
    std::vector<int32_t> bias(static_cast<size_t>(units), 0);
    for (auto& b : bias) b = engine() % 8 == 0 ? int32_t(engine()) : int32_t(engine() % 200001u) - 100000;  // some wrap
    std::vector<int32_t> multipliers, shifts;
    for (int32_t c = 0; c < (per_channel ? units : 1); ++c) {
      const int32_t m = int32_t(1073741824u + engine() % 1073741823u);
      multipliers.push_back(engine() % 6 == 0 ? -m : m);
      shifts.push_back(engine() % 6 == 0 ? int32_t(engine() % 3u) : -int32_t(4 + engine() % 14u));
    }
    const int32_t output_offset = int32_t(engine() % 256u) - 128;
    const int32_t act_min = engine() % 3 == 0 ? -70 : -128, act_max = engine() % 3 == 0 ? 60 : 127;

    OneNode m;
    const uint32_t x = m.input("x", DType::Int8, {batches, depth});
    const uint32_t w = m.constant("w", DType::Int8, {units, depth}, weights);
    const uint32_t y = m.output("y", DType::Int8, {batches, units});
    const ArgDef b = with_bias ? ArgDef::input(m.constant("b", DType::Int32, {units}, bias)) : ArgDef::none();
    m.node("fully_connected_s8",
           {ArgDef::input(x), ArgDef::input(w), b, ArgDef::output(y), ArgDef::int_array(m.requantization(multipliers, shifts)), ArgDef::integer(input_offset), ArgDef::integer(filter_offset),
            ArgDef::integer(output_offset), ArgDef::integer(act_min), ArgDef::integer(act_max)});
    const Outcome portable = plan_and_run(m.model, {bytes_of(input)});
    ASSERT_EQ(portable.init, GRT_OK) << portable.message;
    ASSERT_EQ(portable.run, GRT_OK) << portable.message;

    const grt::kernels::dense::UnitScales scales{multipliers.data(), shifts.data(), per_channel};
    const dsp::FullyConnectedS8 p{input.data(), weights.data(), scales,        with_bias ? bias.data() : nullptr,
                                  batches,      units,          depth,         input_offset,
                                  filter_offset, output_offset, act_min,       act_max};
    std::vector<int8_t> got(size_t(batches) * size_t(units), 0x55);
    dsp::fully_connected_s8(p, got.data());
    EXPECT_EQ(got, values_of<int8_t>(portable.outputs[0]))
        << "depth " << depth << " units " << units << " batches " << batches << " offsets " << input_offset << "/"
        << filter_offset;
  }
}

// fully_connected_sum_s8's DSP part (a band of a layer's input against its weights' columns)
// against the products summed one by one: every unit count around the four- and two-row
// steps, runs that start inside a row and end before it, filter offsets, sums that wrap,
// started and added to.
TEST(FullyConnectedDsp, SumPartsMatchTheProductsOneByOne) {
  std::mt19937 engine(77);
  for (int i = 0; i < 300; ++i) {
    const int32_t units = 1 + int32_t(engine() % 13u);
    const size_t depth = 1 + engine() % 200u;
    const size_t first = engine() % depth;
    const size_t length = engine() % (depth - first + 1);
    const int32_t offsets[] = {128, -127, 0, 7};
    const int32_t input_offset = offsets[engine() % 4];
    const int32_t filter_offset = engine() % 2 == 0 ? offsets[engine() % 4] : 0;
    const bool accumulate = engine() % 2 == 0;
    std::vector<int8_t> x(length), w(size_t(units) * depth);
    for (auto& e : x) e = int8_t(int(engine() % 256u) - 128);
    for (auto& e : w) e = int8_t(int(engine() % 256u) - 128);
    std::vector<uint32_t> sums(static_cast<size_t>(units));
    for (auto& e : sums) e = engine();
    std::vector<uint32_t> want = sums;
    for (int32_t u = 0; u < units; ++u) {
      uint32_t sum = accumulate ? want[size_t(u)] : 0u;
      for (size_t k = 0; k < length; ++k) {
        sum += uint32_t((x[k] + input_offset) * (w[size_t(u) * depth + first + k] + filter_offset));
      }
      want[size_t(u)] = sum;
    }
    dsp::fully_connected_sums(x.data(), w.data() + first, depth, units, length, input_offset, filter_offset, accumulate,
                              sums.data());
    EXPECT_EQ(sums, want) << "units " << units << " depth " << depth << " first " << first << " length " << length
                          << " offsets " << input_offset << "/" << filter_offset << " accumulate " << accumulate;
  }
}

}  // namespace
}  // namespace grt::test::dense
