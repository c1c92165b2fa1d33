// The conformance suite: every model of the kernels issue, imported from its .tflite,
// planned, and run on every one of TensorFlow Lite Micro's reference cases under every
// memory strategy. Integer outputs must match byte for byte, float outputs within
// meta.json's tolerance. A model that does not import is a failure, not a skip.
// Prints one line per model: cases passed / cases total.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance_runner.h"
#include "golden.h"
#include "zoo.h"

namespace grt::test {
namespace {

std::vector<std::string> conformance_models() {
  std::vector<std::string> models = {
      "hello_world_int8",         "hello_world_float",          "micro_speech_quantized",
      "person_detect",            "simple_add_model",           "mobilenet_v2_quantized_1x3x224x224",
      "mlperf_ad_autoencoder_int8", "mlperf_ad_autoencoder_float", "mlperf_ad_autoencoder_int8_floatio",
      "mlperf_ic_resnet8_int8",   "mlperf_ic_resnet8_float",    "mlperf_ic_resnet_large_int8",
      "mlperf_kws_dscnn_int8",    "mlperf_sww_int8",            "mlperf_vww_mobilenet_int8",
      "mlperf_vww_mobilenet_float", "keyword_scrambled",          "keyword_scrambled_8bit",
      "mnist_lstm_float",         "mnist_lstm_int8",            "micro_speech_lstm",
      "dtln_noise_suppression",
      // TFLM's audio front end (signal library custom operators).
      "audio_preprocessor_int8",  "audio_preprocessor_float",
  };
  // TFLM's seanet integration models: int16 activations, int8 weights, one operator each.
  const std::pair<const char*, int> seanet[] = {{"add", 17},        {"conv", 22},   {"leaky_relu", 23}, {"pad", 19},
                                                {"quantize", 2},    {"strided_slice", 34}, {"sub", 5},
                                                {"transpose_conv", 5}};
  for (const auto& [op, count] : seanet) {
    for (int i = 0; i < count; ++i) models.push_back("seanet_" + std::string(op) + std::to_string(i));
  }
  return models;
}

class Conformance : public ::testing::TestWithParam<std::string> {};

TEST_P(Conformance, EveryGoldenCaseUnderEveryStrategy) {
  GRT_REQUIRE_ZOO(zoo);
  const std::string& name = GetParam();
  const std::vector<uint8_t> tflite = read_bytes(zoo / "models" / (name + ".tflite"));
  ASSERT_FALSE(tflite.empty()) << name << ".tflite is missing from " << zoo;
  GoldenModel golden;
  std::string error;
  ASSERT_TRUE(load_golden(zoo, name, &golden, &error)) << error;
  expect_model_matches_golden(name, tflite, golden);
}

INSTANTIATE_TEST_SUITE_P(Zoo, Conformance, ::testing::ValuesIn(conformance_models()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace grt::test
