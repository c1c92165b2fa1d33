// `graphrt aot`'s C writer (tools/aot): what the header promises, what it refuses (with the
// loader's own message), and that the C holds exactly the arguments the interpreter builds.
#include <gtest/gtest.h>
#include <mbedtls/sha256.h>

#include <string>

#include "graphrt/tools/aot.h"
#include "graphrt/tools/planner.h"
#include "test_models.h"

namespace grt::test {
namespace {

tools::AotOptions options_for(const std::string& symbol) {
  tools::AotOptions options;
  options.symbol = symbol;
  options.source_label = "test.grt";
  options.version = "9.8.7";
  options.header_name = symbol + ".h";
  return options;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Why write_aot refuses the model ("" if it does not), having checked it writes nothing.
std::string aot_refusal(const tools::ModelDef& model) {
  const tools::AlignedBytes blob = to_blob(model);
  tools::AotFiles files;
  std::string error;
  if (tools::write_aot(blob.data(), blob.size(), options_for("chain"), &files, &error)) return "";
  EXPECT_TRUE(files.source.empty() && files.header.empty());
  return error;
}

// The message grt_init gives for the model ("" if it loads).
std::string loader_refusal(const tools::ModelDef& model) {
  grt_error loader{};
  return init_status(to_blob(model), &loader) == GRT_OK ? "" : loader.message;
}

TEST(AotWriter, HeaderGivesPoolsInputsOutputsDigestAndVersion) {
  const tools::ModelDef model = copy_chain(3, 24);
  const tools::AlignedBytes blob = to_blob(model);
  tools::AotFiles files;
  std::string error;
  ASSERT_TRUE(tools::write_aot(blob.data(), blob.size(), options_for("chain"), &files, &error)) << error;
  EXPECT_TRUE(contains(files.header, "#define CHAIN_POOL_COUNT 1u\n"));
  EXPECT_TRUE(contains(files.header, "#define CHAIN_POOL0_BYTES " + std::to_string(model.pools[0].size) + "u\n"));
  EXPECT_TRUE(contains(files.header, "#define CHAIN_POOL0_ALIGN " + std::to_string(model.pools[0].alignment) + "u\n"));
  EXPECT_TRUE(contains(files.header, "#define CHAIN_INPUT0_BYTES 24u\n"));
  EXPECT_TRUE(contains(files.header, "#define CHAIN_OUTPUT0_BYTES 24u\n"));
  EXPECT_TRUE(contains(files.header, "#define CHAIN_NODE_COUNT 3u\n"));
  EXPECT_TRUE(contains(files.header, "#define CHAIN_GRAPHRT_VERSION \"9.8.7\"\n"));
  EXPECT_TRUE(contains(files.header, "extern uint8_t chain_pool0[];\n"));
  unsigned char digest[32];
  mbedtls_sha256_ret(blob.data(), blob.size(), digest, 0);
  char hex[65];
  for (int i = 0; i < 32; ++i) std::snprintf(hex + 2 * i, 3, "%02x", digest[i]);
  EXPECT_TRUE(contains(files.header, std::string("#define CHAIN_SHA256 \"") + hex + "\"\n"));
  EXPECT_TRUE(contains(files.source, std::string("SHA-256: ") + hex));
  EXPECT_TRUE(contains(files.source, "#include \"chain.h\"\n"));
  EXPECT_FALSE(contains(files.source, "uint8_t chain_pool0[CHAIN_POOL0_BYTES]")) << "the firmware defines the pools";
}

TEST(AotWriter, NodesCallTheirKernelsOnThePlannedOffsetsInOrder) {
  const tools::ModelDef model = copy_chain(2, 16);
  const tools::AlignedBytes blob = to_blob(model);
  tools::AotFiles files;
  std::string error;
  ASSERT_TRUE(tools::write_aot(blob.data(), blob.size(), options_for("chain"), &files, &error)) << error;
  const size_t first = files.source.find("grt_kernel_copy((TVMValue*)chain_a0, (int*)chain_k0, 2,");
  const size_t second = files.source.find("grt_kernel_copy((TVMValue*)chain_a1, (int*)chain_k0, 2,");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(second, std::string::npos);
  EXPECT_LT(first, second);
  // Two DLTensor handles (type code 7) per node, sharing one type-code array.
  EXPECT_TRUE(contains(files.source, "static const int chain_k0[2] = {7, 7};\n"));
  EXPECT_FALSE(contains(files.source, "chain_k1"));
  // Every activation's data is its pool offset from the plan.
  for (const uint32_t t : {0u, 1u, 2u}) {
    EXPECT_TRUE(contains(files.source, "(void*)(chain_pool0 + " + std::to_string(model.tensors[t].offset) + ")"))
        << model.tensors[t].name;
  }
}

TEST(AotWriter, FloatAndConstantArgumentsAreWrittenAsTheInterpreterPassesThem) {
  // add_f32(a, b, out, activation_min, activation_max): the float clamp as two Float arguments.
  const tools::ModelDef model = add_constant_f32(-0.5, 6.0);
  const tools::AlignedBytes blob = to_blob(model);
  tools::AotFiles files;
  std::string error;
  ASSERT_TRUE(tools::write_aot(blob.data(), blob.size(), options_for("m"), &files, &error)) << error;
  EXPECT_TRUE(contains(files.source, "{.v_float64 = -0x1p-1}"));
  EXPECT_TRUE(contains(files.source, "{.v_float64 = 0x1.8p+2}"));
  EXPECT_TRUE(contains(files.source, "static const uint8_t m_c0[16] M_CONST = {\n  0,0,128,63,0,0,0,64,0,0,64,64,0,0,128,64,\n};"));
  EXPECT_TRUE(contains(files.source, "(void*)(m_c0 + 0)"));
  EXPECT_TRUE(contains(files.source, "#define M_CONST __attribute__((section(\".rodata.graphrt_aot.m\"), aligned(16)))"));
}

TEST(AotWriter, RefusesWhatTheLoaderRefusesWithItsMessage) {
  tools::ModelDef model = copy_chain(2, 16);
  model.pools[0].size = 8;  // the plan's tensors no longer fit
  const std::string loader = loader_refusal(model);
  ASSERT_FALSE(loader.empty());
  EXPECT_EQ(aot_refusal(model), loader);
}

TEST(AotWriter, RefusesAKernelThatIsNotBuiltIn) {
  tools::ModelDef model = copy_chain(1, 16);
  model.kernels[model.nodes[0].kernel] = "my_copy";
  EXPECT_EQ(aot_refusal(model), "kernel 'my_copy' is not built in: AoT C calls built-in kernels by their C names");
}

TEST(AotWriter, RefusesArgumentsTheKernelsCheckRefuses) {
  tools::ModelDef model = copy_chain(1, 16);
  model.tensors[model.outputs[0]].shape = {1, 8};  // copy into half the bytes
  const std::string loader = loader_refusal(model);
  ASSERT_TRUE(loader.find("bad arguments") != std::string::npos) << loader;
  EXPECT_EQ(aot_refusal(model), loader);
}

TEST(AotWriter, WithoutAHeaderNameTheHeaderIsInlinedAndPoolsCanBeDefinedHere) {
  const tools::AlignedBytes blob = to_blob(copy_chain(1, 16));
  tools::AotOptions options = options_for("solo");
  options.header_name.clear();
  options.define_pools = true;
  tools::AotFiles files;
  std::string error;
  ASSERT_TRUE(tools::write_aot(blob.data(), blob.size(), options, &files, &error)) << error;
  EXPECT_FALSE(contains(files.source, "#include \"solo.h\""));
  EXPECT_TRUE(contains(files.source, files.header));
  EXPECT_TRUE(contains(files.source, "uint8_t solo_pool0[SOLO_POOL0_BYTES] __attribute__((aligned(SOLO_POOL0_ALIGN)));\n"));
}

TEST(AotWriter, SameBlobSameText) {
  const tools::AlignedBytes blob = to_blob(copy_chain(4, 32));
  tools::AotFiles a;
  tools::AotFiles b;
  std::string error;
  ASSERT_TRUE(tools::write_aot(blob.data(), blob.size(), options_for("chain"), &a, &error)) << error;
  ASSERT_TRUE(tools::write_aot(blob.data(), blob.size(), options_for("chain"), &b, &error)) << error;
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.header, b.header);
}

// x -> copy -> remembered (State, starts 1..8) and blank (State, starts at zeros) -> copy -> y.
tools::ModelDef model_with_state() {
  tools::ModelDef m;
  m.name = "state";
  const uint32_t x = m.add_activation("x", tools::DType::Int8, {1, 8});
  const uint32_t remembered = m.add_state("remembered", tools::DType::Int8, {1, 8}, {1, 2, 3, 4, 5, 6, 7, 8});
  const uint32_t blank = m.add_state("blank", tools::DType::Int8, {2, 3}, {});
  const uint32_t y = m.add_activation("y", tools::DType::Int8, {2, 3});
  m.inputs = {x};
  m.outputs = {y};
  m.add_node("copy", {tools::ArgDef::input(x), tools::ArgDef::output(remembered)});
  m.add_node("copy", {tools::ArgDef::input(blank), tools::ArgDef::output(y)});
  tools::plan_default(&m);
  return m;
}

TEST(AotWriter, ResetStateSetsEveryStateTensorToItsInitialBytes) {
  const tools::ModelDef model = model_with_state();
  const tools::AlignedBytes blob = to_blob(model);
  tools::AotFiles files;
  std::string error;
  ASSERT_TRUE(tools::write_aot(blob.data(), blob.size(), options_for("kept"), &files, &error)) << error;
  EXPECT_TRUE(contains(files.header, "#define KEPT_STATE_COUNT 2u\n"));
  EXPECT_TRUE(contains(files.header, "void kept_reset_state(void);\n"));
  const auto& remembered = model.tensors[1];
  const auto& blank = model.tensors[2];
  // The initial bytes are a constant of the blob, copied from there.
  const fb::Model* parsed = fb::GetModel(blob.data());
  const uint32_t initial = parsed->tensors()->Get(1)->buffer();
  EXPECT_TRUE(contains(files.source, "memcpy(kept_pool" + std::to_string(remembered.pool) + " + " + std::to_string(remembered.offset) +
                                         ", kept_c" + std::to_string(initial) + ", 8);\n"))
      << files.source;
  EXPECT_TRUE(contains(files.source, "static const uint8_t kept_c" + std::to_string(initial) + "[8] KEPT_CONST = {\n  1,2,3,4,5,6,7,8,"));
  EXPECT_TRUE(contains(files.source, "memset(kept_pool" + std::to_string(blank.pool) + " + " + std::to_string(blank.offset) + ", 0, 6);\n"));
}

TEST(AotWriter, AModelWithoutStateHasAnEmptyReset) {
  const tools::AlignedBytes blob = to_blob(copy_chain(2, 16));
  tools::AotFiles files;
  std::string error;
  ASSERT_TRUE(tools::write_aot(blob.data(), blob.size(), options_for("chain"), &files, &error)) << error;
  EXPECT_TRUE(contains(files.header, "#define CHAIN_STATE_COUNT 0u\n"));
  EXPECT_TRUE(contains(files.source, "void chain_reset_state(void) {\n}\n"));
}

}  // namespace
}  // namespace grt::test
