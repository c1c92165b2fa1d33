// A real model from the zoo, ready to run from several threads or tasks: imported from
// TFLite, planned, serialized once into a blob that every executor shares, with TFLM's
// golden cases beside it.
#ifndef GRAPHRT_TESTS_RTOS_ZOO_MODEL_H_
#define GRAPHRT_TESTS_RTOS_ZOO_MODEL_H_

#include <filesystem>
#include <string>

#include "golden.h"
#include "graphrt/graphrt.h"
#include "graphrt/tools/aligned_bytes.h"

namespace grt::test {

struct ZooModel {
  tools::AlignedBytes blob;
  GoldenModel golden;
};

// False, with the reason in *error, if the model does not import or has no golden cases.
bool load_zoo_model(const std::filesystem::path& zoo, const std::string& name, ZooModel* out, std::string* error);

// Copies a case's inputs into the executor's input tensors.
void set_inputs(grt_executor* executor, const GoldenCase& golden_case);

// Empty when every output matches the case; otherwise what differs.
std::string check_outputs(grt_executor* executor, const GoldenModel& model, const GoldenCase& golden_case);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_RTOS_ZOO_MODEL_H_
