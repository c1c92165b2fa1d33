// Antmicro's magic-wand models for the tests and the firmware's reference data: their files
// in the shared folder, imported and planned with the generated operators, and the int8
// model's input quantization.
#ifndef GRAPHRT_TESTS_TVM_KENNING_SUPPORT_H_
#define GRAPHRT_TESTS_TVM_KENNING_SUPPORT_H_

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/tvm/kernel_library.h"
#include "graphrt/tools/tvm/tvm_import.h"

namespace grt::test::tvm {

std::vector<uint8_t> file_bytes(const std::filesystem::path& path);

// expected.json's samples: (file name, expected class), in order.
std::vector<std::pair<std::string, size_t>> wand_samples(const std::filesystem::path& dir);

// magic_wand_int8.json: scale 16, zero point -1, rounded half away from zero, clamped.
std::vector<uint8_t> quantize_wand_sample(const std::vector<uint8_t>& float32_bytes);

struct ImportedModel {
  tools::ModelDef model;
  tools::tvm::ImportReport report;
  tools::AlignedBytes blob;
  std::string error;  // empty on success
};

// graph (and params, empty for a container) imported with the library's operators, planned.
ImportedModel import_planned(const std::vector<uint8_t>& graph, const std::vector<uint8_t>& params,
                             const tools::tvm::KernelLibrary& library);

}  // namespace grt::test::tvm

#endif  // GRAPHRT_TESTS_TVM_KENNING_SUPPORT_H_
