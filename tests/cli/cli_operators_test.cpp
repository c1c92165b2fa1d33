// graphrt import --list-operators: every converter declares its dtypes, the list is sorted
// and complete in text, JSON and Markdown; and what the importer refuses, it refuses in one
// line that names what is missing.
#include <algorithm>
#include <set>
#include <sstream>

#include "tflite_op_model.h"
#include "cli_runner.h"
#include "graphrt/tools/import_context.h"
#include "graphrt/tools/tflite_operator_codes.h"
#include "json_reader.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

// Why an entry's dtype list is not one --list-operators can show, or "" when it is: each
// variant starts with graphrt dtypes ("int8", "int16 (int8 weights)", "int8/bool to int32").
std::string dtype_problem(const tools::ConverterEntry& entry) {
  const tools::DTypeList known = tools::every_dtype();
  if (entry.dtypes.empty()) return "declares no dtypes";
  std::set<std::string> seen;
  for (const std::string& variant : entry.dtypes) {
    if (!seen.insert(variant).second) return "lists '" + variant + "' twice";
    std::stringstream first_word(variant.substr(0, variant.find(' ')));
    std::string dtype;
    bool any = false;
    while (std::getline(first_word, dtype, '/')) {
      if (std::find(known.begin(), known.end(), dtype) == known.end()) return "'" + variant + "' does not start with a dtype";
      any = true;
    }
    if (!any) return "has an empty variant";
  }
  return {};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ConverterDtypes, EveryRegisteredOperatorDeclaresItsDtypes) {
  const tools::ConverterTable& table = tools::builtin_converters();
  EXPECT_GE(table.entries.size(), 90u);
  for (const tools::ConverterEntry& entry : table.entries) {
    EXPECT_EQ(dtype_problem(entry), "") << tools::builtin_name(entry.op);
  }
}

TEST(ConverterDtypes, TheCheckCatchesMissingAndMisspelledDtypes) {
  const auto problem = [](tools::DTypeList dtypes) {
    return dtype_problem({BuiltinOperator::ABS, nullptr, std::move(dtypes)});
  };
  EXPECT_EQ(problem({}), "declares no dtypes");
  EXPECT_NE(problem({""}), "");
  EXPECT_NE(problem({"int9"}), "");
  EXPECT_NE(problem({"any"}), "");
  EXPECT_NE(problem({"int8", "int8"}), "");
  EXPECT_NE(problem({"int8/float"}), "");
  EXPECT_EQ(problem({"int8", "int16 (int8 weights)", "int8/bool to int32/int64"}), "");
}

TEST(ConverterDtypes, SupportedOperatorsAreSortedByName) {
  tools::ConverterTable table;
  table.add(BuiltinOperator::TANH, nullptr, {"float32"});
  table.add(BuiltinOperator::ABS, nullptr, {"int8", "float32"});
  const std::vector<tools::SupportedOperator> list = tools::supported_operators(table);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].name, "ABS");
  EXPECT_EQ(list[0].dtypes, (tools::DTypeList{"int8", "float32"}));
  EXPECT_EQ(list[1].name, "TANH");
}

TEST(CliOperators, ListPrintsEveryOperatorSortedOnePerLine) {
  const CliResult r = run_graphrt({"import", "--list-operators"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), tools::builtin_converters().entries.size() + tools::builtin_converters().custom_entries.size()) << r.out;
  std::vector<std::string> names;
  for (const std::string& line : lines) names.push_back(line.substr(0, line.find(' ')));
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << r.out;
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  const auto line_of = [&](const std::string& name) {
    for (const std::string& line : lines) {
      if (line.rfind(name + " ", 0) == 0) return line;
    }
    return std::string();
  };
  EXPECT_NE(line_of("CONV_2D").find("  int8, int16 (int8 weights, int64 bias), float32"), std::string::npos) << r.out;
  EXPECT_NE(line_of("FULLY_CONNECTED").find("  int8, float32"), std::string::npos) << r.out;
  EXPECT_NE(line_of("RESHAPE").find("  int8, uint8, int16, int32, int64, float32, bool"), std::string::npos) << r.out;
  EXPECT_NE(line_of("LOGISTIC").find("  int8, int16, float32"), std::string::npos) << line_of("LOGISTIC");
  EXPECT_NE(line_of("UNIDIRECTIONAL_SEQUENCE_LSTM").find("int8 (int16 cell state), int16 (int8 weights, int64 bias), float32"), std::string::npos)
      << line_of("UNIDIRECTIONAL_SEQUENCE_LSTM");
  EXPECT_NE(line_of("SVDF").find("int8 (int16 or int8 state), float32"), std::string::npos) << line_of("SVDF");
  EXPECT_EQ(line_of("LSTM"), "");  // the old non-sequence LSTM has no converter
}

TEST(CliOperators, JsonListsEachOperatorWithItsDtypes) {
  const CliResult r = run_graphrt({"import", "--list-operators", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string error;
  auto doc = parse_json(r.out, &error);
  ASSERT_TRUE(doc) << error;
  const Json& operators = (*doc)["operators"];
  const std::vector<tools::SupportedOperator> expected = tools::supported_operators(tools::builtin_converters());
  ASSERT_EQ(operators.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(operators[i]["name"], expected[i].name);
    std::vector<std::string> dtypes;
    for (const Json& dtype : operators[i]["dtypes"]) dtypes.push_back(dtype.get<std::string>());
    EXPECT_EQ(dtypes, expected[i].dtypes) << expected[i].name;
  }
}

TEST(CliOperators, MarkdownIsOneTableRowPerOperator) {
  const CliResult r = run_graphrt({"import", "--list-operators", "--markdown"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), tools::builtin_converters().entries.size() + tools::builtin_converters().custom_entries.size() + 2) << r.out;
  EXPECT_EQ(lines[0], "| Operator | Dtypes |");
  EXPECT_EQ(lines[1], "| --- | --- |");
  EXPECT_EQ(lines[2].rfind("| `ABS` | int8, int16, float32 |", 0), 0u) << lines[2];
}

TEST(CliOperators, ListMistakesAreUsageErrors) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"import", "--list-operators", "m.tflite"},
           {"import", "--list-operators", "-o", "x.grt"},
           {"import", "--list-operators", "--json", "--markdown"},
           {"import", "m.tflite", "-o", "x.grt", "--json"},
           {"import"},
       }) {
    const CliResult r = run_graphrt(args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
    EXPECT_TRUE(IsOneLineError(r, "import"));
    EXPECT_EQ(r.out, "");
  }
  EXPECT_NE(run_graphrt({"import"}).err.find("missing IN.tflite"), std::string::npos);
}

TEST(CliOperators, HelpShowsTheListOption) {
  const CliResult r = run_graphrt({"help", "import"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("graphrt import --list-operators [--json | --markdown]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--list-operators"), std::string::npos) << r.out;
}

using CliRefusals = CliTest;

// No model zoo needed: the refusal of operators without a converter, as users see it.
TEST_F(CliRefusals, UnsupportedOperatorsAreOneLineListingWhatIsMissing) {
  // x -> LSTM -> RELU -> CUSTOM:SignalUnknown -> LSTM -> y, float32 [1, 4] throughout.
  const std::vector<std::pair<BuiltinOperator, std::string>> chain = {
      {BuiltinOperator::LSTM, ""}, {BuiltinOperator::RELU, ""}, {BuiltinOperator::CUSTOM, "SignalUnknown"}, {BuiltinOperator::LSTM, ""}};
  TfliteModelSpec spec;
  int32_t previous = spec.add_tensor({.name = "x", .type = TensorType::FLOAT32, .shape = {1, 4}});
  spec.inputs = {previous};
  for (const auto& [op, custom_code] : chain) {
    const int32_t next = spec.add_tensor({.name = "t" + std::to_string(spec.ops.size()), .type = TensorType::FLOAT32, .shape = {1, 4}});
    TfliteOpSpec step;
    step.op = op;
    step.custom_code = custom_code;
    step.inputs = {previous};
    step.outputs = {next};
    spec.ops.push_back(std::move(step));
    previous = next;
  }
  spec.outputs = {previous};
  write_bytes(path("m.tflite"), build_tflite(spec));

  const std::string out = path("m.grt").string();
  const CliResult r = run_graphrt({"import", path("m.tflite").string(), "-o", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "import"));
  EXPECT_NE(r.err.find("m.tflite: unsupported operators: LSTM x2, CUSTOM:SignalUnknown x1\n"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST_F(CliRefusals, AnUnsupportedDtypeIsOneLineNamingTheOperator) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .type = TensorType::INT16, .shape = {1, 4}, .scale = {1.0f / 4096}, .zero_point = {0}});
  const int32_t y = spec.add_tensor({.name = "y", .type = TensorType::INT16, .shape = {1, 4}, .scale = {1.0f / 16384}, .zero_point = {0}});
  spec.add_op(BuiltinOperator::LOGISTIC, {x}, {y});
  spec.inputs = {x};
  spec.outputs = {y};
  write_bytes(path("m.tflite"), build_tflite(spec));

  const CliResult r = run_graphrt({"import", path("m.tflite").string(), "-o", path("m.grt").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "import"));
  EXPECT_NE(r.err.find("m.tflite: LOGISTIC #0: int16 output scale must be 2^-15, is 0.000061"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace grt::test
