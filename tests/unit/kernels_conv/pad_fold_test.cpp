// PAD folded into the convolution that reads it (tools/importer/fold_pads.cpp): the same
// output bytes as PAD then the convolution, on explicit paddings of every side, strides 1
// and 2, conv2d and depthwise, and the cases that must stay unfolded. The reference is the
// same model with the padded tensor also a model output, which keeps its PAD.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"
#include "test_models.h"
#include "tflite_op_model.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

struct PadConv {
  int32_t top, bottom, left, right;
  int32_t stride;
  int32_t kh, kw;
  bool depthwise;
  int64_t pad_value_offset = 0;  // added to the zero point: non-zero keeps the PAD
  int32_t channel_pad = 0;       // padding of channels keeps the PAD
};

constexpr int32_t kH = 9, kW = 7, kC = 4, kFilters = 3;
constexpr int64_t kZeroPoint = -3;

template <typename T>
std::vector<uint8_t> bytes_of_values(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// x -> PAD -> padded -> CONV_2D or DEPTHWISE_CONV_2D (VALID) -> y; `keep_padded` also
// makes the padded tensor a model output.
TfliteModelSpec pad_conv_spec(const PadConv& s, bool keep_padded) {
  TfliteModelSpec m;
  std::mt19937 engine(static_cast<uint32_t>(s.top * 1000 + s.left * 100 + s.stride * 10 + s.kh));
  const int32_t c_out = s.depthwise ? kC + s.channel_pad : kFilters;
  const int32_t x = m.add_tensor({.name = "x", .type = TensorType::INT8, .shape = {1, kH, kW, kC}, .scale = {0.5f}, .zero_point = {kZeroPoint}});
  const int32_t paddings = m.add_tensor({.name = "paddings",
                                         .type = TensorType::INT32,
                                         .shape = {4, 2},
                                         .data = bytes_of_values(std::vector<int32_t>{0, 0, s.top, s.bottom, s.left, s.right, 0, s.channel_pad})});
  const int32_t ph = kH + s.top + s.bottom, pw = kW + s.left + s.right, pc = kC + s.channel_pad;
  std::vector<int32_t> pad_inputs = {x, paddings};
  if (s.pad_value_offset != 0) {
    const int8_t value = static_cast<int8_t>(kZeroPoint + s.pad_value_offset);
    pad_inputs.push_back(m.add_tensor(
        {.name = "value", .type = TensorType::INT8, .shape = {1}, .data = {static_cast<uint8_t>(value)}, .scale = {0.5f}, .zero_point = {kZeroPoint}}));
  }
  const int32_t padded =
      m.add_tensor({.name = "padded", .type = TensorType::INT8, .shape = {1, ph, pw, pc}, .scale = {0.5f}, .zero_point = {kZeroPoint}});
  m.add_op(s.pad_value_offset != 0 ? BuiltinOperator::PADV2 : BuiltinOperator::PAD, pad_inputs, {padded});
  std::vector<int8_t> weights(static_cast<size_t>((s.depthwise ? 1 : kFilters) * s.kh * s.kw * (s.depthwise ? c_out : pc)));
  for (int8_t& w : weights) w = static_cast<int8_t>(static_cast<int>(engine() % 255) - 127);
  std::vector<int32_t> bias(static_cast<size_t>(c_out));
  for (int32_t& b : bias) b = static_cast<int32_t>(engine() % 2001) - 1000;
  const std::vector<int32_t> filter_shape = s.depthwise ? std::vector<int32_t>{1, s.kh, s.kw, c_out} : std::vector<int32_t>{kFilters, s.kh, s.kw, pc};
  const int32_t filter = m.add_tensor({.name = "filter", .type = TensorType::INT8, .shape = filter_shape,
                                       .data = bytes_of_values(weights), .scale = {0.25f}, .zero_point = {0}});
  const int32_t bias_t = m.add_tensor({.name = "bias", .type = TensorType::INT32, .shape = {c_out}, .data = bytes_of_values(bias),
                                       .scale = {0.125f}, .zero_point = {0}});
  const int32_t oh = (ph - s.kh) / s.stride + 1, ow = (pw - s.kw) / s.stride + 1;
  const int32_t y = m.add_tensor({.name = "y", .type = TensorType::INT8, .shape = {1, oh, ow, c_out}, .scale = {2.0f}, .zero_point = {5}});
  const int32_t stride = s.stride;
  if (s.depthwise) {
    m.add_op(BuiltinOperator::DEPTHWISE_CONV_2D, {padded, filter, bias_t}, {y},
             builtin_options(tflite::BuiltinOptions::DepthwiseConv2DOptions, [=](flatbuffers::FlatBufferBuilder& fbb) {
               return tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::VALID, stride, stride, 1).Union();
             }));
  } else {
    m.add_op(BuiltinOperator::CONV_2D, {padded, filter, bias_t}, {y},
             builtin_options(tflite::BuiltinOptions::Conv2DOptions, [=](flatbuffers::FlatBufferBuilder& fbb) {
               return tflite::CreateConv2DOptions(fbb, tflite::Padding::VALID, stride, stride).Union();
             }));
  }
  m.inputs = {x};
  m.outputs = keep_padded ? std::vector<int32_t>{y, padded} : std::vector<int32_t>{y};
  return m;
}

std::vector<uint8_t> pad_conv_model(const PadConv& s, bool keep_padded) { return build_tflite(pad_conv_spec(s, keep_padded)); }

tools::ModelDef imported(const std::vector<uint8_t>& tflite) {
  tools::ModelDef model;
  const tools::ImportResult r = tools::import_tflite(tflite.data(), tflite.size(), &model);
  EXPECT_TRUE(r.ok) << r.error;
  tools::plan_default(&model);
  return model;
}

bool has_pad(const tools::ModelDef& m) {
  for (const tools::NodeDef& n : m.nodes) {
    if (m.kernels[n.kernel] == "pad") return true;
  }
  return false;
}

// Output 0 of the model on `input`.
std::vector<uint8_t> run(const tools::ModelDef& model, const std::vector<int8_t>& input) {
  const tools::AlignedBytes blob = to_blob(model);
  StaticRun r(blob);
  EXPECT_EQ(r.status, GRT_OK) << r.error.message;
  if (r.status != GRT_OK) return {};
  std::memcpy(grt_input(r.executor, 0)->data, input.data(), input.size());
  EXPECT_EQ(grt_run(r.executor), GRT_OK) << grt_last_error(r.executor)->message;
  const DLTensor* y = grt_output(r.executor, 0);
  const auto* data = static_cast<const uint8_t*>(y->data);
  return std::vector<uint8_t>(data, data + grt_tensor_bytes(y));
}

void expect_same_outputs(const PadConv& s, bool folds) {
  const tools::ModelDef folded = imported(pad_conv_model(s, false));
  const tools::ModelDef reference = imported(pad_conv_model(s, true));
  ASSERT_TRUE(has_pad(reference));
  EXPECT_EQ(has_pad(folded), !folds);
  std::mt19937 engine(99);
  for (int trial = 0; trial < 4; ++trial) {
    std::vector<int8_t> input(kH * kW * kC);
    for (int8_t& v : input) v = static_cast<int8_t>(static_cast<int>(engine() % 256) - 128);
    if (trial == 0) std::fill(input.begin(), input.end(), static_cast<int8_t>(kZeroPoint));
    EXPECT_EQ(run(folded, input), run(reference, input)) << "trial " << trial;
  }
}

TEST(PadFold, ConvolutionsReadTheUnpaddedTensorAndMatchPadThenConvolution) {
  const PadConv cases[] = {
      {1, 1, 1, 1, 1, 3, 3, false},  // SAME-like, stride 1
      {0, 1, 0, 1, 2, 3, 3, false},  // TensorFlow's stride-2 explicit padding
      {1, 1, 1, 1, 2, 3, 3, true},   // depthwise, stride 2, both sides
      {0, 1, 0, 1, 2, 3, 3, true},   // MobileNetV2's depthwise layers
      {2, 2, 2, 2, 1, 5, 5, false},  // wider windows
      {2, 0, 1, 3, 1, 3, 5, false},  // asymmetric on every side
      {1, 0, 0, 2, 1, 2, 3, true},   // even filter height
  };
  for (const PadConv& s : cases) {
    SCOPED_TRACE(::testing::Message() << "pad " << s.top << "," << s.bottom << "," << s.left << "," << s.right << " stride " << s.stride
                                      << " filter " << s.kh << "x" << s.kw << (s.depthwise ? " depthwise" : " conv"));
    expect_same_outputs(s, true);
  }
}

TEST(PadFold, PadsTheConvolutionCannotTakeStay) {
  PadConv other_value{1, 1, 1, 1, 1, 3, 3, false};
  other_value.pad_value_offset = 7;  // not the zero point: padded taps contribute
  expect_same_outputs(other_value, false);
  PadConv channels{1, 1, 1, 1, 1, 3, 3, true};
  channels.channel_pad = 2;  // new channels are values, not padding
  expect_same_outputs(channels, false);
  PadConv beyond_the_window{3, 3, 1, 1, 1, 3, 3, false};  // output rows that read only padding
  expect_same_outputs(beyond_the_window, false);
}

TEST(PadFold, TheFoldedModelDropsThePaddedTensorAndThePadKernel) {
  const tools::ModelDef folded = imported(pad_conv_model({0, 1, 0, 1, 2, 3, 3, false}, false));
  ASSERT_EQ(folded.nodes.size(), 1u);
  EXPECT_EQ(folded.kernels, std::vector<std::string>{"conv2d_s8"});
  for (const tools::TensorDef& t : folded.tensors) EXPECT_NE(t.name, "padded");
  // The convolution reads x with the PAD's top and left added to its own (VALID: 0).
  const tools::NodeDef& conv = folded.nodes[0];
  EXPECT_EQ(folded.tensors[static_cast<size_t>(conv.args[0].value)].name, "x");
  EXPECT_EQ(conv.args[10].value, 0);
  EXPECT_EQ(conv.args[11].value, 0);
  const tools::ModelDef wide = imported(pad_conv_model({2, 2, 1, 1, 1, 5, 3, false}, false));
  EXPECT_EQ(wide.nodes[0].args[10].value, 2);
  EXPECT_EQ(wide.nodes[0].args[11].value, 1);
  // Every buffer left is some constant's.
  std::vector<bool> used(folded.buffers.size(), false);
  for (const tools::TensorDef& t : folded.tensors) {
    if (t.kind == tools::TensorKind::Constant) used[t.buffer] = true;
  }
  for (size_t b = 0; b < used.size(); ++b) EXPECT_TRUE(used[b]) << "buffer " << b;
}

// The fold in a model with subgraphs: main's PAD node goes, and the IF's branches, whose
// nodes follow main's, still run theirs (their node ranges move with the removal).
TEST(PadFold, FoldsInAModelWithSubgraphs) {
  const PadConv s{1, 1, 1, 1, 1, 3, 3, false};
  // pad_conv_spec's graph beside cond, a, b -> IF: a + b (subgraph 1) or a * b (subgraph 2).
  const auto with_branches = [&](bool keep_padded) {
    TfliteModelSpec m = pad_conv_spec(s, keep_padded);
    const int32_t cond = m.add_tensor({.name = "cond", .type = TensorType::BOOL, .shape = {1}});
    const int32_t a = m.add_tensor({.name = "a", .type = TensorType::FLOAT32, .shape = {4}});
    const int32_t b = m.add_tensor({.name = "b", .type = TensorType::FLOAT32, .shape = {4}});
    const int32_t out = m.add_tensor({.name = "out", .type = TensorType::FLOAT32, .shape = {4}});
    m.add_op(BuiltinOperator::IF, {cond, a, b}, {out}, if_options(1, 2));
    m.inputs.insert(m.inputs.end(), {cond, a, b});
    m.outputs.push_back(out);
    m.subgraphs = {float_binary_subgraph(BuiltinOperator::ADD), float_binary_subgraph(BuiltinOperator::MUL)};
    return imported(build_tflite(m));
  };
  const tools::ModelDef folded = with_branches(false);
  const tools::ModelDef reference = with_branches(true);
  ASSERT_EQ(folded.subgraphs.size(), reference.subgraphs.size());
  ASSERT_FALSE(folded.subgraphs.empty());
  EXPECT_FALSE(has_pad(folded));
  EXPECT_TRUE(has_pad(reference));
  EXPECT_EQ(folded.nodes.size() + 1, reference.nodes.size());

  std::vector<int8_t> x(kH * kW * kC);
  std::mt19937 engine(7);
  for (int8_t& v : x) v = static_cast<int8_t>(static_cast<int>(engine() % 256) - 128);
  const std::vector<float> a = {1.5f, -2.0f, 3.0f, 0.25f}, b = {2.0f, 4.0f, -1.0f, 8.0f};
  for (const bool cond : {true, false}) {
    SCOPED_TRACE(cond ? "then: a + b" : "else: a * b");
    std::vector<std::vector<uint8_t>> ys, outs;
    for (const tools::ModelDef* model : {&folded, &reference}) {
      const tools::AlignedBytes blob = to_blob(*model);
      StaticRun r(blob);
      ASSERT_EQ(r.status, GRT_OK) << r.error.message;
      const uint8_t flag = cond ? 1 : 0;
      const auto input = [&](const char* name) {
        const int32_t i = grt_input_index(r.executor, name);
        EXPECT_GE(i, 0) << name;
        return grt_input(r.executor, static_cast<uint32_t>(i))->data;
      };
      std::memcpy(input("x"), x.data(), x.size());
      std::memcpy(input("cond"), &flag, 1);
      std::memcpy(input("a"), a.data(), a.size() * sizeof(float));
      std::memcpy(input("b"), b.data(), b.size() * sizeof(float));
      ASSERT_EQ(grt_run(r.executor), GRT_OK) << grt_last_error(r.executor)->message;
      const DLTensor* y = grt_output(r.executor, 0);
      const int32_t out_index = grt_output_index(r.executor, "out");
      ASSERT_GE(out_index, 0);
      const DLTensor* out = grt_output(r.executor, static_cast<uint32_t>(out_index));
      const auto* y_bytes = static_cast<const uint8_t*>(y->data);
      const auto* out_bytes = static_cast<const uint8_t*>(out->data);
      ys.emplace_back(y_bytes, y_bytes + grt_tensor_bytes(y));
      outs.emplace_back(out_bytes, out_bytes + grt_tensor_bytes(out));
    }
    EXPECT_EQ(ys[0], ys[1]);
    std::vector<float> expected(4);
    for (size_t i = 0; i < 4; ++i) expected[i] = cond ? a[i] + b[i] : a[i] * b[i];
    ASSERT_EQ(outs[0].size(), sizeof(float) * 4);
    EXPECT_EQ(outs[0], outs[1]);
    std::vector<float> got(4);
    std::memcpy(got.data(), outs[0].data(), outs[0].size());
    EXPECT_EQ(got, expected);
  }
}

}  // namespace
}  // namespace grt::test
