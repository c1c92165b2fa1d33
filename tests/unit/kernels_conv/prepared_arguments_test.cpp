// What the importer prepares for the DSP kernels (tools/importer/ops/conv_ops.cpp): every
// conv2d_s8 node of a real model carries argument 16, each filter's bias plus the input
// offset times the sum of its weights; a depthwise convolution of a one-channel input
// (person_detect's first layer) becomes conv2d_s8 with its filter transposed. And the
// kernel's check of argument 16: optional, one constant int32 per output channel.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "conv_models.h"
#include "graphrt/tools/importer.h"
#include "zoo.h"

namespace grt::test {
namespace {

using S8 = ConvSpec<int8_t, int8_t, int32_t>;

tools::ModelDef import_model(const std::filesystem::path& zoo, const std::string& name) {
  std::ifstream in(zoo / "models" / (name + ".tflite"), std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  tools::ModelDef model;
  const tools::ImportResult result = tools::import_tflite(bytes.data(), bytes.size(), &model);
  EXPECT_TRUE(result.ok) << name << ": " << result.error;
  return model;
}

template <typename T>
std::vector<T> constant_of(const tools::ModelDef& model, uint32_t tensor) {
  const std::vector<uint8_t>& bytes = model.buffers[model.tensors[tensor].buffer];
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

const std::string& kernel_of(const tools::ModelDef& model, const tools::NodeDef& node) { return model.kernels[node.kernel]; }

TEST(PreparedArguments, EveryConvolutionCarriesItsFoldedBias) {
  GRT_REQUIRE_ZOO(zoo);
  for (const std::string name : {"mlperf_kws_dscnn_int8", "person_detect", "mlperf_vww_mobilenet_int8"}) {
    const tools::ModelDef model = import_model(zoo, name);
    int convolutions = 0;
    for (const tools::NodeDef& node : model.nodes) {
      if (kernel_of(model, node) != "conv2d_s8") continue;
      ++convolutions;
      ASSERT_EQ(node.args.size(), 17u) << name << " " << node.name;
      ASSERT_EQ(node.args[16].kind, tools::ArgKind::IntArray);
      const auto filter = constant_of<int8_t>(model, uint32_t(node.args[1].value));
      const auto bias = node.args[2].kind == tools::ArgKind::None ? std::vector<int32_t>{}
                                                                   : constant_of<int32_t>(model, uint32_t(node.args[2].value));
      const auto folded = constant_of<int32_t>(model, uint32_t(node.args[16].value));
      const int64_t input_offset = node.args[12].value;
      const size_t channels = size_t(model.tensors[uint32_t(node.args[3].value)].shape[3]);
      ASSERT_EQ(folded.size(), channels);
      const size_t size = filter.size() / channels;
      for (size_t c = 0; c < channels; ++c) {
        int64_t weights = 0;
        for (size_t k = 0; k < size; ++k) weights += filter[c * size + k];
        const int64_t expected = (bias.empty() ? 0 : bias[c]) + input_offset * weights;
        EXPECT_EQ(folded[c], int32_t(uint32_t(uint64_t(expected)))) << name << " " << node.name << " channel " << c;
      }
    }
    EXPECT_GT(convolutions, 0) << name;
  }
}

TEST(PreparedArguments, OneChannelDepthwiseBecomesAConvolutionWithTheFilterTransposed) {
  GRT_REQUIRE_ZOO(zoo);
  const tools::ModelDef model = import_model(zoo, "person_detect");
  ASSERT_FALSE(model.nodes.empty());
  const tools::NodeDef& first = model.nodes[0];
  EXPECT_EQ(kernel_of(model, first), "conv2d_s8");
  const tools::TensorDef& filter = model.tensors[uint32_t(first.args[1].value)];
  EXPECT_EQ(filter.shape, (std::vector<int64_t>{8, 3, 3, 1}));
  // No depthwise node is left with a one-channel input.
  for (const tools::NodeDef& node : model.nodes) {
    if (kernel_of(model, node) != "depthwise_conv2d_s8") continue;
    EXPECT_NE(model.tensors[uint32_t(node.args[0].value)].shape[3], 1) << node.name;
  }
}

S8 small_spec() {
  S8 s;
  s.input_shape = {1, 3, 3, 2};
  s.filter_shape = {2, 1, 1, 2};
  s.output_shape = {1, 3, 3, 2};
  s.filter = {1, -2, 3, 4};
  s.bias = {10, -20};
  s.multipliers = {1 << 30, 1 << 30};
  s.shifts = {-1, -2};
  s.input_offset = 5;
  return s;
}

TEST(PreparedArguments, TheConvolutionChecksTheFoldedBias) {
  const S8 s = small_spec();
  const auto with_folded = [&](const std::vector<int32_t>& folded) {
    tools::ModelDef model = conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s);
    model.nodes[0].args.push_back(tools::ArgDef::int_array(model.add_int_array("folded", folded)));
    return model;
  };
  // bias + 5 * (1 - 2), bias + 5 * (3 + 4): accepted, and the outputs are the 16-argument ones.
  const std::vector<int32_t> folded = {10 + 5 * -1, -20 + 5 * 7};
  EXPECT_EQ(init_error(with_folded(folded)), "");
  const auto input = pattern<int8_t>(18, 7, -128, 127);
  EXPECT_EQ(run<int8_t>(with_folded(folded), input), run<int8_t>(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), input));
  const std::string wrong_length = init_error(with_folded({1, 2, 3}));
  EXPECT_NE(wrong_length.find("folded bias"), std::string::npos) << wrong_length;
  tools::ModelDef eighteen = with_folded(folded);
  eighteen.nodes[0].args.push_back(tools::ArgDef::integer(0));
  EXPECT_NE(init_error(eighteen).find("number of arguments"), std::string::npos) << init_error(eighteen);
}

}  // namespace
}  // namespace grt::test
