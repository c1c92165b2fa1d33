// graphrt import IN.tflite -o OUT.grt [--algorithm NAME] [--sign K.pem --key-id ID
// --model-version N]: a TensorFlow Lite model in, a planned (and optionally signed) graphrt
// blob out.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "../args.h"
#include "../commands.h"
#include "../files.h"
#include "../host_executor.h"
#include "../report.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/planner.h"
#include "graphrt/tools/signing.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "import",
    "IN.tflite -o OUT.grt [--algorithm NAME] [--sign K.pem --key-id ID --model-version N]",
    "Converts a TensorFlow Lite model to a graphrt blob with its static memory plan.",
    "The model is named after the input file's stem. Operators without a converter are\n"
    "listed by name and count, and nothing is written.\n"
    "Algorithms: greedy_by_size, greedy_by_conflicts, search, best (the default: all three,\n"
    "the smallest plan wins). `graphrt plan` compares them on a blob.\n"
    "With --sign the blob is written inside a signed envelope, as `graphrt sign` makes it.",
    {"IN.tflite"},
    {
        {"output", 'o', "OUT.grt", false, "where to write the blob (required)"},
        {"algorithm", 0, "NAME", false, "memory planning algorithm (default best)"},
        {"sign", 0, "K.pem", false, "sign with this private key (PEM) in the same step"},
        {"key-id", 0, "ID", false, "with --sign: the key id the device knows the public key by"},
        {"model-version", 0, "N", false, "with --sign: the monotonic model version (anti-rollback)"},
    },
};

// "unsupported operators: SVDF x2, CUSTOM:SignalWindow x1", for when the importer gave
// the list but no message of its own.
std::string unsupported_message(const tools::ImportResult& result) {
  std::string text = "unsupported operators:";
  bool first = true;
  for (const auto& [name, count] : result.unsupported) {
    text += (first ? " " : ", ") + name + " x" + std::to_string(count);
    first = false;
  }
  return text;
}

}  // namespace
}  // namespace grt::cli

int run_import_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  if (is_tvm_import(args)) return run_tvm_import_command(args);
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;
  const std::string& path = parsed->positionals()[0];
  const std::optional<std::string> output = parsed->value("output");
  if (!output) return usage_error(kSpec.name, "-o OUT.grt is required");
  const std::string algorithm_text = parsed->value("algorithm").value_or("best");
  const std::optional<grt::tools::PlanAlgorithm> algorithm = grt::tools::parse_algorithm(algorithm_text);
  if (!algorithm) {
    return usage_error(kSpec.name, "--algorithm: '" + algorithm_text + "' is not one of greedy_by_size, greedy_by_conflicts, search, best");
  }

  const std::optional<std::string> sign_key = parsed->value("sign");
  const std::optional<std::string> key_id = parsed->value("key-id");
  const std::optional<std::string> version_text = parsed->value("model-version");
  uint64_t model_version = 0;
  if (sign_key && (!key_id || !version_text)) return usage_error(kSpec.name, "--sign needs --key-id and --model-version");
  if (!sign_key && (key_id || version_text)) return usage_error(kSpec.name, "--key-id and --model-version go with --sign");
  if (version_text && !parse_unsigned(*version_text, 0, UINT64_MAX, &model_version)) {
    return usage_error(kSpec.name, "--model-version: '" + *version_text + "' is not a whole number");
  }

  grt::tools::AlignedBytes tflite;
  std::string error;
  if (!read_file(path, &tflite, &error)) return fail(kSpec.name, error);
  grt::tools::ModelDef model;
  const grt::tools::ImportResult result = grt::tools::import_tflite(tflite.data(), tflite.size(), &model);
  if (!result.ok) {
    const std::string reason = !result.error.empty() ? result.error : !result.unsupported.empty() ? unsupported_message(result) : "import failed";
    return fail(kSpec.name, path + ": " + reason);
  }

  grt::tools::PlanOptions plan;
  plan.algorithm = *algorithm;
  if (!grt::tools::plan_model(&model, plan, nullptr, &error)) return fail(kSpec.name, path + ": planning failed: " + error);
  model.name = std::filesystem::path(path).stem().string();
  model.producer = std::string("graphrt import ") + GRT_VERSION + " (" + grt::tools::algorithm_name(*algorithm) + ")";

  std::vector<uint8_t> blob = grt::tools::serialize(model);
  {
    // Never write a blob the runtime would refuse: load it as a device would, kernels'
    // argument checks included.
    HostExecutor check;
    if (!check.init(grt::tools::AlignedBytes(blob), HostExecutor::Options{}, &error)) {
      return fail(kSpec.name, path + ": the converted model does not load: " + error);
    }
  }
  if (sign_key) {
    grt::tools::AlignedBytes pem;
    if (!read_file(*sign_key, &pem, &error)) return fail(kSpec.name, error);
    std::vector<uint8_t> envelope;
    const std::string_view pem_text(reinterpret_cast<const char*>(pem.data()), pem.size());
    if (!grt::signing::sign_model(blob, pem_text, *key_id, model_version, &envelope, &error)) {
      return fail(kSpec.name, *sign_key + ": " + error);
    }
    blob = std::move(envelope);
  }
  if (!write_file(*output, blob.data(), blob.size(), &error)) return fail(kSpec.name, error);
  return kExitOk;
}
