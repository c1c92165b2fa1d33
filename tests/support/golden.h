// TensorFlow Lite Micro's reference cases for a model (../shared/golden/<model>/): inputs,
// expected outputs and the float tolerance meta.json gives, and the comparison rule:
// integer outputs byte for byte, float outputs within |got - want| <= abs + rel * |want|.
#ifndef GRAPHRT_TESTS_GOLDEN_H_
#define GRAPHRT_TESTS_GOLDEN_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <dlpack/dlpack.h>

namespace grt::test {

struct FloatTolerance {
  double abs = 0.0;
  double rel = 0.0;
};

struct GoldenCase {
  std::vector<std::vector<uint8_t>> inputs;   // raw little-endian bytes, one per model input
  std::vector<std::vector<uint8_t>> outputs;  // TFLM's outputs, one per model output
};

struct GoldenModel {
  std::string name;
  std::vector<GoldenCase> cases;
  std::vector<FloatTolerance> tolerances;  // per output (zero for integer outputs)
};

std::vector<uint8_t> read_bytes(const std::filesystem::path& path);

// Reads every case of zoo/golden/<model>; false with a reason when the folder or a file is
// missing or meta.json does not parse.
bool load_golden(const std::filesystem::path& zoo, const std::string& model, GoldenModel* out, std::string* error);
// The same from a folder of meta.json and case files (the operator zoo: zoo/opzoo/<model>).
bool load_golden_folder(const std::filesystem::path& folder, const std::string& model, GoldenModel* out, std::string* error);

// Empty when `got` matches the expected output `index` of `golden_case`; otherwise says
// where and how it differs.
std::string compare_output(const GoldenModel& model, const GoldenCase& golden_case, size_t index, const DLTensor& got);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_GOLDEN_H_
