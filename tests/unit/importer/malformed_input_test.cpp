// Whatever bytes import_tflite is given, it returns (an error, or a model) and never crashes:
// the verifier guards the container, and every index the importer follows is range checked.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "graphrt/tools/importer.h"
#include "tflite_op_model.h"

namespace grt::test {
namespace {

tools::ImportResult import_bytes(const std::vector<uint8_t>& bytes) {
  tools::ModelDef graph;
  return tools::import_tflite(bytes.data(), bytes.size(), &graph);
}

TEST(ImportMalformed, EmptyAndNullInputAreErrors) {
  tools::ModelDef graph;
  EXPECT_FALSE(tools::import_tflite(nullptr, 0, &graph).ok);
  EXPECT_FALSE(import_bytes({}).ok);
}

TEST(ImportMalformed, EveryTruncationIsAnError) {
  const std::vector<uint8_t> bytes = build_tflite(single_reshape_model());
  ASSERT_TRUE(import_bytes(bytes).ok);
  for (size_t size = 0; size < bytes.size(); ++size) {
    const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
    const tools::ImportResult r = import_bytes(prefix);
    EXPECT_FALSE(r.ok) << "truncated to " << size;
    EXPECT_FALSE(r.error.empty());
  }
}

TEST(ImportMalformed, WrongIdentifierIsNamed) {
  std::vector<uint8_t> bytes = build_tflite(single_reshape_model());
  bytes[4] = 'X';
  const tools::ImportResult r = import_bytes(bytes);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "not a TFLite model: file identifier is not \"TFL3\"");
}

TEST(ImportMalformed, RandomBytesAreErrors) {
  std::mt19937 rng(20240531);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<uint8_t> bytes(8 + rng() % 512);
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
    if (trial % 2 == 0) std::copy_n("TFL3", 4, bytes.begin() + 4);  // get past the identifier
    EXPECT_FALSE(import_bytes(bytes).ok);
  }
}

// Flipping bytes of a valid model must never crash: it either still imports or is refused.
TEST(ImportMalformed, CorruptedBytesNeverCrash) {
  const std::vector<uint8_t> good = build_tflite(single_reshape_model());
  std::mt19937 rng(7);
  for (size_t i = 0; i < good.size(); ++i) {
    for (const uint8_t value : {uint8_t{0x00}, uint8_t{0xff}, uint8_t{0x80}, static_cast<uint8_t>(rng())}) {
      std::vector<uint8_t> bytes = good;
      bytes[i] = value;
      const tools::ImportResult r = import_bytes(bytes);
      if (!r.ok) {
        EXPECT_FALSE(r.error.empty());
      }
    }
  }
}

TEST(ImportMalformed, BufferIndexOutOfRange) {
  TfliteModelSpec spec = single_reshape_model();
  spec.tensors[0].buffer = 99;
  const tools::ImportResult r = import_bytes(build_tflite(spec));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "tensor 0 uses buffer 99, but the model has 1 buffers");
}

TEST(ImportMalformed, OperatorCodeIndexOutOfRange) {
  TfliteModelSpec spec = single_reshape_model();
  spec.ops[0].opcode_index = 5;
  const tools::ImportResult r = import_bytes(build_tflite(spec));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "operator #0 uses operator code 5, but the model has 1");
}

TEST(ImportMalformed, OperatorTensorIndicesOutOfRange) {
  for (const int32_t bad : {2, 1000, -2}) {
    TfliteModelSpec spec = single_reshape_model();
    spec.ops[0].inputs = {bad};
    const tools::ImportResult r = import_bytes(build_tflite(spec));
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "operator #0 input 0 is tensor " + std::to_string(bad) + ", but the subgraph has 2 tensors");
  }
  TfliteModelSpec spec = single_reshape_model();
  spec.ops[0].outputs = {-1};  // only inputs may be absent
  const tools::ImportResult r = import_bytes(build_tflite(spec));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "operator #0 output 0 is tensor -1, but the subgraph has 2 tensors");
}

TEST(ImportMalformed, ModelInputAndOutputIndicesOutOfRange) {
  TfliteModelSpec spec = single_reshape_model();
  spec.inputs = {7};
  EXPECT_EQ(import_bytes(build_tflite(spec)).error, "model input 0 is tensor 7, but the subgraph has 2 tensors");
  spec = single_reshape_model();
  spec.outputs = {1, -1};
  EXPECT_EQ(import_bytes(build_tflite(spec)).error, "model output 1 is tensor -1, but the subgraph has 2 tensors");
}

TEST(ImportMalformed, ConstantWhoseDataDoesNotMatchItsShape) {
  TfliteModelSpec spec;
  const int32_t w = spec.add_tensor({.name = "w", .shape = {4}, .data = {1, 2, 3}});
  const int32_t r = spec.add_tensor({.name = "r", .shape = {2, 2}});
  const int32_t x = spec.add_tensor({.name = "x", .shape = {1}});
  spec.add_op(tflite::BuiltinOperator::RESHAPE, {w}, {r});
  spec.inputs = {x};
  spec.outputs = {r};
  const tools::ImportResult r2 = import_bytes(build_tflite(spec));
  EXPECT_FALSE(r2.ok);
  EXPECT_EQ(r2.error, "RESHAPE #0: constant tensor 'w' has 3 bytes of data, its shape needs 4");
}

// Kernels count elements in 32 bits: a tensor past that is refused at once, by name, before
// its pools are planned and sized (a 2^31-1 dimension once cost 19 s and 9.4 GB).
TEST(ImportMalformed, TensorsPast2e31ElementsAreRefusedByName) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .shape = {1, 2147483647}});
  const int32_t y = spec.add_tensor({.name = "y", .shape = {2, 2147483647}});
  spec.add_op(tflite::BuiltinOperator::RESHAPE, {x}, {y});
  spec.inputs = {x};
  spec.outputs = {y};
  const tools::ImportResult r = import_bytes(build_tflite(spec));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("tensor 'y' has 4294967294 elements; graphrt's kernels take at most 2147483647"), std::string::npos) << r.error;
  spec.tensors[y].shape = {1, 2147483647};
  EXPECT_TRUE(import_bytes(build_tflite(spec)).ok) << import_bytes(build_tflite(spec)).error;  // 2^31-1 itself is fine
}

// Converters write tables of their own (here RESIZE_BILINEAR's source rows, 12 bytes per
// output row, at most 2^20 rows per operator). One operator's are bounded; many operators'
// together must not pass kMaxWrittenBytes (64 MiB) beyond the file's own bytes, or a small
// file could ask for gigabytes. Every table asks the import's one budget before it is built.
TEST(ImportMalformed, TablesTheImporterWritesAreBoundedOverTheWholeModel) {
  constexpr int32_t kRows = 1000000;  // 12 MB of int32 (low, high, weight) per operator
  const auto resizes = [](int operators) {
    TfliteModelSpec m;
    const int32_t x = m.add_tensor({.name = "x", .shape = {1, 1, 1, 1}, .scale = {0.5f}, .zero_point = {0}});
    std::vector<uint8_t> size(8);
    const int32_t values[2] = {kRows, 1};
    std::memcpy(size.data(), values, sizeof values);
    const int32_t size_tensor = m.add_tensor({.name = "size", .type = tflite::TensorType::INT32, .shape = {2}, .data = size});
    m.inputs = {x};
    for (int i = 0; i < operators; ++i) {
      const int32_t y = m.add_tensor({.name = "y" + std::to_string(i), .shape = {1, kRows, 1, 1}, .scale = {0.5f}, .zero_point = {0}});
      m.add_op(tflite::BuiltinOperator::RESIZE_BILINEAR, {x, size_tensor}, {y});
      m.outputs.push_back(y);
    }
    return build_tflite(m);
  };
  EXPECT_TRUE(import_bytes(resizes(4)).ok) << import_bytes(resizes(4)).error;  // 48 MB of tables
  const tools::ImportResult r = import_bytes(resizes(8));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("RESIZE_BILINEAR #5: its resize tables would take 12000012 bytes"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("past what graphrt writes itself for this model"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("64 MiB of tables and initial values"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace grt::test
