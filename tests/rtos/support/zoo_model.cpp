#include "zoo_model.h"

#include <cstring>

#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"
#include "test_models.h"

namespace grt::test {

bool load_zoo_model(const std::filesystem::path& zoo, const std::string& name, ZooModel* out, std::string* error) {
  const std::vector<uint8_t> tflite = read_bytes(zoo / "models" / (name + ".tflite"));
  if (tflite.empty()) {
    *error = name + ".tflite not found in " + (zoo / "models").string();
    return false;
  }
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &def);
  if (!imported.ok) {
    *error = name + " does not import: " + imported.error;
    return false;
  }
  def.name = name;
  tools::plan_default(&def);
  out->blob = to_blob(def);
  if (!load_golden(zoo, name, &out->golden, error)) return false;
  if (out->golden.cases.empty()) {
    *error = name + " has no golden cases";
    return false;
  }
  return true;
}

void set_inputs(grt_executor* executor, const GoldenCase& golden_case) {
  for (uint32_t i = 0; i < grt_input_count(executor) && i < golden_case.inputs.size(); ++i) {
    DLTensor* t = grt_input(executor, i);
    const size_t bytes = std::min(grt_tensor_bytes(t), golden_case.inputs[i].size());
    std::memcpy(t->data, golden_case.inputs[i].data(), bytes);
  }
}

std::string check_outputs(grt_executor* executor, const GoldenModel& model, const GoldenCase& golden_case) {
  std::string problems;
  for (uint32_t o = 0; o < grt_output_count(executor); ++o) {
    problems += compare_output(model, golden_case, o, *grt_output(executor, o));
  }
  return problems;
}

}  // namespace grt::test
