// The real models: each one passes our schema's verifier, and each either imports (and
// serializes to a blob the verifier accepts) or is refused with exactly the operators that
// have no converter yet, by name and count, as MANIFEST.json lists them. The expectation is
// computed from the registered converters, so it stays right as converters land.
#include <gtest/gtest.h>

#include <flatbuffers/flexbuffers.h>
#include <flatbuffers/idl.h>

#include <fstream>
#include <iterator>
#include <map>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"
#include "graphrt/tools/tflite_operator_codes.h"
#include "zoo.h"

namespace grt::test {
namespace {

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct ManifestModel {
  std::string name;
  std::string file;
  std::map<std::string, int> operators;  // "CONV_2D" / "CUSTOM:SignalWindow" -> count
  size_t inputs = 0;
  size_t outputs = 0;
};

std::vector<ManifestModel> read_manifest(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  const std::string text(bytes.begin(), bytes.end());
  flatbuffers::Parser parser;
  flexbuffers::Builder builder;
  EXPECT_TRUE(parser.ParseFlexBuffer(text.c_str(), path.string().c_str(), &builder)) << parser.error_;
  const std::vector<uint8_t>& flex = builder.GetBuffer();
  std::vector<ManifestModel> models;
  const auto list = flexbuffers::GetRoot(flex).AsMap()["models"].AsVector();
  for (size_t i = 0; i < list.size(); ++i) {
    const auto entry = list[i].AsMap();
    ManifestModel m;
    m.name = entry["name"].AsString().str();
    m.file = entry["file"].AsString().str();
    const auto ops = entry["builtin_ops"].AsMap();
    for (size_t k = 0; k < ops.size(); ++k) m.operators[ops.Keys()[k].AsKey()] = ops.Values()[k].AsInt32();
    m.inputs = entry["inputs"].AsVector().size();
    m.outputs = entry["outputs"].AsVector().size();
    models.push_back(std::move(m));
  }
  return models;
}

bool has_converter(const std::string& name) {
  if (name.rfind("CUSTOM:", 0) == 0) return tools::builtin_converters().find_custom(name.substr(7)) != nullptr;
  for (const tflite::BuiltinOperator op : tflite::EnumValuesBuiltinOperator()) {
    if (tools::builtin_name(op) == name) return tools::builtin_converters().find(op) != nullptr;
  }
  return false;
}

TEST(ImportZoo, EveryModelPassesTheSchemaVerifier) {
  GRT_REQUIRE_ZOO(zoo);
  const std::vector<ManifestModel> models = read_manifest(zoo / "models" / "MANIFEST.json");
  ASSERT_FALSE(models.empty());
  for (const ManifestModel& m : models) {
    const std::vector<uint8_t> bytes = read_file(zoo / "models" / m.file);
    ASSERT_FALSE(bytes.empty()) << m.file;
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    EXPECT_TRUE(tflite::VerifyModelBuffer(verifier)) << m.file;
  }
}

TEST(ImportZoo, EveryModelImportsOrListsExactlyItsUnsupportedOperators) {
  GRT_REQUIRE_ZOO(zoo);
  const std::vector<ManifestModel> models = read_manifest(zoo / "models" / "MANIFEST.json");
  ASSERT_FALSE(models.empty());
  int imported = 0;
  for (const ManifestModel& m : models) {
    SCOPED_TRACE(m.name);
    std::map<std::string, int> expected;
    for (const auto& [name, count] : m.operators) {
      if (!has_converter(name)) expected[name] = count;
    }
    const std::vector<uint8_t> bytes = read_file(zoo / "models" / m.file);
    tools::ModelDef graph;
    const tools::ImportResult r = tools::import_tflite(bytes.data(), bytes.size(), &graph);
    if (!expected.empty()) {
      EXPECT_FALSE(r.ok);
      EXPECT_EQ(r.unsupported, expected);
      EXPECT_EQ(r.error.rfind("unsupported operators: ", 0), 0u) << r.error;
      for (const auto& [name, count] : expected) {
        EXPECT_NE(r.error.find(name + " x" + std::to_string(count)), std::string::npos) << r.error;
      }
      continue;
    }
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.unsupported.empty());
    EXPECT_EQ(graph.inputs.size(), m.inputs);
    EXPECT_EQ(graph.outputs.size(), m.outputs);
    tools::plan_default(&graph);
    const std::vector<uint8_t> blob = tools::serialize(graph);
    std::string error;
    EXPECT_TRUE(tools::verify_blob(blob.data(), blob.size(), &error)) << error;
    ++imported;
  }
  std::cout << "[ zoo      ] " << imported << " of " << models.size() << " models import with today's converters\n";
}

}  // namespace
}  // namespace grt::test
