// graphrt import IN.tflite -o OUT.grt [--algorithm NAME] [--sign K.pem --key-id ID
// --model-version N]: a TensorFlow Lite model in, a planned (and optionally signed) graphrt
// blob out. graphrt import --list-operators [--json | --markdown]: what it converts.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "../args.h"
#include "../bands.h"
#include "../commands.h"
#include "../files.h"
#include "../host_executor.h"
#include "../in_place.h"
#include "../json.h"
#include "../resource_limits.h"
#include "../report.h"
#include "graphrt/tools/import_context.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/planner.h"
#include "graphrt/tools/signing.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "import",
    "IN.tflite -o OUT.grt [--algorithm NAME] [--in-place] [--inputs-outside] [--memory-budget BYTES]\n"
    "       [--sign K.pem --key-id ID --model-version N]\n"
    "       graphrt import --list-operators [--json | --markdown]",
    "Converts a TensorFlow Lite model to a graphrt blob with its static memory plan.",
    "The model is named after the input file's stem. Operators without a converter are\n"
    "listed by name and count, and nothing is written.\n"
    "Algorithms: greedy_by_size, greedy_by_conflicts, search, best (the default: all three,\n"
    "the smallest plan wins). `graphrt plan` compares them on a blob.\n"
    "With --in-place an elementwise operator's output may take the bytes of an input that\n"
    "dies at it, where its kernel declares that safe (the loader checks the same).\n"
    "With --inputs-outside the model inputs get a pool of their own, 'inputs' (placement\n"
    "caller), whose buffer is the caller's input itself: the other pools hold no input.\n"
    "With --memory-budget the plan's pools (besides 'inputs' with --inputs-outside) must fit\n"
    "BYTES: chains of convolutions, pooling and adds are run in bands of rows where needed,\n"
    "the plan with the fewest extra MACs (halo rows computed twice) that fits; without it,\n"
    "no bands. If nothing fits, the smallest figure reachable is named.\n"
    "With --sign the blob is written inside a signed envelope, as `graphrt sign` makes it.\n"
    "--list-operators prints the TFLite operators the importer converts and the dtypes each\n"
    "accepts, one per line, sorted by name (docs/operators.md is made from --markdown).",
    {"IN.tflite"},
    {
        {"output", 'o', "OUT.grt", false, "where to write the blob (required)"},
        {"algorithm", 0, "NAME", false, "memory planning algorithm (default best)"},
        {"in-place", 0, "", false, "let elementwise outputs overwrite inputs that die at them"},
        {"inputs-outside", 0, "", false, "model inputs in a pool of their own, the caller's buffer"},
        {"memory-budget", 0, "BYTES", false, "bands where needed to fit the pools in BYTES, fewest extra MACs"},
        {"sign", 0, "K.pem", false, "sign with this private key (PEM) in the same step"},
        {"key-id", 0, "ID", false, "with --sign: the key id the device knows the public key by"},
        {"model-version", 0, "N", false, "with --sign: the monotonic model version (anti-rollback)"},
        max_input_option(),
        max_memory_option(),
        {"list-operators", 0, "", false, "print the supported operators and their dtypes, and exit"},
        {"json", 0, "", false, "with --list-operators: print JSON"},
        {"markdown", 0, "", false, "with --list-operators: print a Markdown table"},
    },
};

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

// "ABS               int8, int16, float32": names padded to one column.
void print_operators_text(const std::vector<grt::tools::SupportedOperator>& operators) {
  size_t width = 0;
  for (const auto& op : operators) width = std::max(width, op.name.size());
  for (const auto& op : operators) {
    std::printf("%s%s  %s\n", op.name.c_str(), std::string(width - op.name.size(), ' ').c_str(), joined(op.dtypes).c_str());
  }
}

void print_operators_json(const std::vector<grt::tools::SupportedOperator>& operators) {
  Json list = Json::array();
  for (const auto& op : operators) list.push_back(Json{{"name", op.name}, {"dtypes", op.dtypes}});
  std::printf("%s\n", json_text(Json{{"operators", list}}).c_str());
}

void print_operators_markdown(const std::vector<grt::tools::SupportedOperator>& operators) {
  std::printf("| Operator | Dtypes |\n| --- | --- |\n");
  for (const auto& op : operators) std::printf("| `%s` | %s |\n", op.name.c_str(), joined(op.dtypes).c_str());
}

// --list-operators takes no IN.tflite: the same options, parsed without the positional.
bool lists_operators(const std::vector<std::string>& args) {
  const auto options_end = std::find(args.begin(), args.end(), "--");
  return std::find(args.begin(), options_end, "--list-operators") != options_end;
}

int list_operators(const std::vector<std::string>& args) {
  CommandSpec spec = kSpec;
  spec.positionals.clear();
  int exit_code = kExitOk;
  const auto parsed_args = parse_or_exit(spec, args, &exit_code);
  if (!parsed_args) return exit_code;
  const ParsedArgs& parsed = *parsed_args;
  for (const char* option : {"output", "algorithm", "in-place", "inputs-outside", "memory-budget", "sign", "key-id", "model-version", "max-input-bytes", "max-memory"}) {
    if (parsed.has(option)) return usage_error(kSpec.name, std::string("--") + option + " does not go with --list-operators");
  }
  if (parsed.has("json") && parsed.has("markdown")) return usage_error(kSpec.name, "--json and --markdown exclude each other");
  const std::vector<grt::tools::SupportedOperator> operators = grt::tools::supported_operators(grt::tools::builtin_converters());
  if (parsed.has("json")) {
    print_operators_json(operators);
  } else if (parsed.has("markdown")) {
    print_operators_markdown(operators);
  } else {
    print_operators_text(operators);
  }
  return kExitOk;
}

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
  if (lists_operators(args)) return list_operators(args);
  if (is_tvm_import(args)) return run_tvm_import_command(args);
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;
  if (parsed->has("json") || parsed->has("markdown")) return usage_error(kSpec.name, "--json and --markdown go with --list-operators");
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

  const std::optional<std::string> budget_text = parsed->value("memory-budget");
  uint64_t budget = 0;
  if (budget_text && !parse_unsigned(*budget_text, 0, UINT64_MAX, &budget)) {
    return usage_error(kSpec.name, "--memory-budget: '" + *budget_text + "' is not a whole number of bytes");
  }

  Limits limits;
  if (!read_limits(kSpec, *parsed, &limits)) return kExitUsage;

  grt::tools::AlignedBytes tflite;
  std::string error;
  if (!read_file(path, limits.max_input_bytes, &tflite, &error)) return fail(kSpec.name, error);
  grt::tools::ModelDef model;
  const grt::tools::ImportResult result = grt::tools::import_tflite(tflite.data(), tflite.size(), &model);
  if (!result.ok) {
    const std::string reason = !result.error.empty() ? result.error : !result.unsupported.empty() ? unsupported_message(result) : "import failed";
    return fail(kSpec.name, path + ": " + reason);
  }

  grt::tools::PlanOptions plan;
  plan.algorithm = *algorithm;
  if (parsed->has("in-place")) plan.overwritable_inputs = builtin_overwritable_inputs();
  plan.inputs_outside = parsed->has("inputs-outside");
  std::string bands_note;
  if (budget_text) {
    grt::tools::BandPlan bands;
    if (!band_plan_for_budget(model, plan, budget, &bands, &error) || !grt::tools::apply_band_plan(&model, bands, &error)) {
      return fail(kSpec.name, path + ": " + error);
    }
    if (!bands.steps.empty()) bands_note = ", " + band_plan_summary(bands);
  }
  if (!grt::tools::plan_model(&model, plan, nullptr, &error)) return fail(kSpec.name, path + ": planning failed: " + error);
  model.name = std::filesystem::path(path).stem().string();
  model.producer = std::string("graphrt import ") + GRT_VERSION + " (" + grt::tools::algorithm_name(*algorithm) + bands_note + ")";

  std::vector<uint8_t> blob = grt::tools::serialize(model);
  {
    // Never write a blob the runtime would refuse: load it as a device would, kernels'
    // argument checks included.
    // Its pools are sized against the memory limit before anything is allocated.
    HostExecutor check;
    HostExecutor::Options options;
    options.max_memory_bytes = limits.max_memory_bytes;
    if (!check.init(grt::tools::AlignedBytes(blob), options, &error)) {
      return fail(kSpec.name, path + ": the converted model does not load: " + error);
    }
  }
  if (sign_key) {
    grt::tools::AlignedBytes pem;
    if (!read_file(*sign_key, limits.max_input_bytes, &pem, &error)) return fail(kSpec.name, error);
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
