// In-place operators: the planner puts an output over an input that dies at its node where
// the kernel declares it may, the loader accepts exactly that pairing and refuses every
// other overlap, and init refuses a pairing its kernel does not declare.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/planner.h"
#include "test_models.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;
using tools::ModelDef;

constexpr int64_t kN = 64;

tools::OverwritableInputs builtin_declarations() {
  return [](const std::string& kernel) -> uint32_t {
    const grt_kernel_entry* entry = grt_builtin_kernel_find(kernel.c_str());
    return entry != nullptr ? entry->overwrites : 0;
  };
}

// node 0: copy x -> a; node 1: lookup_s8(a) -> b; node 2: mul_s8(b, x) -> y.
// x stays live across nodes 1 and 2, so three tensors of 64 bytes are live at each unless
// b takes a's bytes and y takes b's: 3 x 64 bytes without in-place operators, 2 x 64 with.
ModelDef lookup_model() {
  ModelDef m;
  m.name = "in_place";
  m.producer = "graphrt tests";
  const uint32_t x = m.add_activation("x", DType::Int8, {1, kN});
  const uint32_t a = m.add_activation("a", DType::Int8, {1, kN});
  const uint32_t b = m.add_activation("b", DType::Int8, {1, kN});
  const uint32_t y = m.add_activation("y", DType::Int8, {1, kN});
  std::vector<int8_t> table(256);
  for (int v = -128; v < 128; ++v) table[static_cast<size_t>(v + 128)] = static_cast<int8_t>(127 - (v + 128) / 2);
  const uint32_t t = m.add_constant_values("table", DType::Int8, {256}, table);
  m.inputs = {x};
  m.add_node("copy", {ArgDef::input(x), ArgDef::output(a)}, "copy_in");
  m.add_node("lookup_s8", {ArgDef::input(a), ArgDef::output(b), ArgDef::input(t)}, "lookup");
  // y = b * x * 2^-7 (zero points 0), clamped to int8.
  m.add_node("mul_s8",
             {ArgDef::input(b), ArgDef::input(x), ArgDef::output(y), ArgDef::integer(0), ArgDef::integer(0), ArgDef::integer(0),
              ArgDef::integer(int64_t{1} << 30), ArgDef::integer(-6), ArgDef::integer(-128), ArgDef::integer(127)},
             "mul");
  m.outputs = {y};
  return m;
}

ModelDef planned(ModelDef m, bool in_place, tools::PlanReport* report = nullptr, bool inputs_outside = false) {
  tools::PlanOptions options;
  if (in_place) options.overwritable_inputs = builtin_declarations();
  options.inputs_outside = inputs_outside;
  std::string error;
  EXPECT_TRUE(tools::plan_model(&m, options, report, &error)) << error;
  return m;
}

constexpr uint32_t kX = 0, kA = 1, kB = 2, kY = 3;

std::string init_message(const ModelDef& m, grt_status* status) {
  grt_error error{};
  *status = init_status(to_blob(m), &error);
  return error.message;
}

// Runs under the static strategy and returns both outputs' bytes.
std::vector<int8_t> run(const ModelDef& m) {
  const tools::AlignedBytes blob = to_blob(m);  // the executor reads the blob while it runs
  StaticRun r(blob);
  EXPECT_EQ(r.status, GRT_OK) << r.error.message;
  if (r.status != GRT_OK) return {};
  DLTensor* in = grt_input(r.executor, 0);
  for (int64_t i = 0; i < kN; ++i) static_cast<int8_t*>(in->data)[i] = static_cast<int8_t>(i * 4 - 128);
  EXPECT_EQ(grt_run(r.executor), GRT_OK) << grt_last_error(r.executor)->message;
  std::vector<int8_t> out;
  for (uint32_t o = 0; o < grt_output_count(r.executor); ++o) {
    const auto* data = static_cast<const int8_t*>(grt_output(r.executor, o)->data);
    out.insert(out.end(), data, data + kN);
  }
  return out;
}

TEST(InPlace, TheKernelTableDeclaresOnlyAuditedElementwiseKernels) {
  const auto declared = builtin_declarations();
  EXPECT_EQ(declared("lookup_s8"), GRT_OVERWRITES_ARG(0));
  EXPECT_EQ(declared("requantize_s8_s8"), GRT_OVERWRITES_ARG(0));
  EXPECT_EQ(declared("leaky_relu_s8"), GRT_OVERWRITES_ARG(0));
  EXPECT_EQ(declared("add_s8"), GRT_OVERWRITES_ARG(0) | GRT_OVERWRITES_ARG(1));
  EXPECT_EQ(declared("mul_s8"), GRT_OVERWRITES_ARG(0) | GRT_OVERWRITES_ARG(1));
  // Widening or narrowing, reordering, or reading neighbours: never in place.
  for (const char* name : {"requantize_s8_s16", "quantize_f32_s8", "dequantize_s8_f32", "copy", "transpose", "pad",
                           "conv2d_s8", "depthwise_conv2d_s8", "softmax_s8", "prelu_s8", "select_v2_s8"}) {
    EXPECT_EQ(declared(name), 0u) << name;
  }
}

TEST(InPlace, PlannerPutsTheOutputOverTheDyingInput) {
  tools::PlanReport plain_report, in_place_report;
  const ModelDef plain = planned(lookup_model(), false, &plain_report);
  const ModelDef in_place = planned(lookup_model(), true, &in_place_report);
  EXPECT_EQ(plain_report.total_size, 3 * kN);
  EXPECT_EQ(plain_report.lower_bound, 3 * kN);
  EXPECT_EQ(in_place_report.total_size, 2 * kN);
  EXPECT_EQ(in_place_report.in_place_pairs, 2u);
  EXPECT_EQ(in_place.tensors[kA].offset, in_place.tensors[kB].offset);
  EXPECT_EQ(in_place.tensors[kB].offset, in_place.tensors[kY].offset);
  EXPECT_NE(in_place.tensors[kX].offset, in_place.tensors[kA].offset);
  EXPECT_EQ(plain_report.in_place_pairs, 0u);
}

TEST(InPlace, TheLoaderAcceptsThePairingAndOutputsAreUnchanged) {
  grt_status status;
  const ModelDef in_place = planned(lookup_model(), true);
  EXPECT_EQ(init_message(in_place, &status), "");
  EXPECT_EQ(status, GRT_OK);
  const std::vector<int8_t> expected = run(planned(lookup_model(), false));
  ASSERT_EQ(expected.size(), static_cast<size_t>(kN));
  EXPECT_EQ(run(in_place), expected);
}

// Each refusal starts from the accepted in-place plan and breaks one condition.
void expect_refused(const ModelDef& m, grt_status expected, const std::string& text) {
  grt_status status;
  const std::string message = init_message(m, &status);
  EXPECT_EQ(status, expected) << message;
  EXPECT_NE(message.find(text), std::string::npos) << message;
  // The sizing call runs the same graph checks.
  grt_requirements req{};
  grt_error error{};
  const tools::AlignedBytes blob = to_blob(m);
  if (expected == GRT_ERR_PLAN_OVERLAP && text.find("plan overlap") == 0) {
    EXPECT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &req, &error), expected) << error.message;
  }
}

TEST(InPlace, RefusedAtAnotherOffset) {
  ModelDef m = planned(lookup_model(), true);
  m.pools[0].size += 16;
  m.tensors[kB].offset += 16;
  expect_refused(m, GRT_ERR_PLAN_OVERLAP, "plan overlap: tensor 1 'a' and tensor 2 'b'");
}

TEST(InPlace, RefusedWithAnotherSize) {
  ModelDef m = planned(lookup_model(), true);
  m.tensors[kB].shape = {1, kN / 2};
  expect_refused(m, GRT_ERR_PLAN_OVERLAP, "plan overlap: tensor 1 'a' and tensor 2 'b'");
}

TEST(InPlace, RefusedWhenTheInputIsReadLater) {
  ModelDef m = lookup_model();
  const uint32_t z = m.add_activation("z", DType::Int8, {1, kN});
  m.add_node("copy", {ArgDef::input(kA), ArgDef::output(z)}, "reads_a_again");
  m.outputs.push_back(z);
  m = planned(m, true);
  // The planner leaves a alone: it is still read after node 1.
  EXPECT_NE(m.tensors[kA].offset, m.tensors[kB].offset);
  m.tensors[kB].offset = m.tensors[kA].offset;
  expect_refused(m, GRT_ERR_PLAN_OVERLAP, "plan overlap: tensor 1 'a' and tensor 2 'b'");
}

TEST(InPlace, RefusedOverAModelInput) {
  // lookup reads x directly, which then dies at node 1; mul reads a instead.
  ModelDef m = lookup_model();
  m.nodes[1].args[0] = ArgDef::input(kX);
  m.nodes[2].args[1] = ArgDef::input(kA);
  m = planned(m, true);
  EXPECT_NE(m.tensors[kX].offset, m.tensors[kB].offset);  // the caller's input is never overwritten
  m.tensors[kB].offset = m.tensors[kX].offset;
  expect_refused(m, GRT_ERR_PLAN_OVERLAP, "plan overlap: tensor 0 'x' and tensor 2 'b'");
}

TEST(InPlace, RefusedOverAModelOutput) {
  // a is a model output as well: read after the run, never overwritten.
  ModelDef m = lookup_model();
  m.outputs.push_back(kA);
  m = planned(m, true);
  EXPECT_NE(m.tensors[kA].offset, m.tensors[kB].offset);
  m.tensors[kB].offset = m.tensors[kA].offset;
  expect_refused(m, GRT_ERR_PLAN_OVERLAP, "plan overlap: tensor 1 'a' and tensor 2 'b'");
}

TEST(InPlace, RefusedWhenTheInputIsAlsoReadThroughAnAlias) {
  ModelDef m = lookup_model();
  const uint32_t view = m.add_alias("a_view", kA, {1, kN});
  m.nodes[1].args.push_back(ArgDef::input(view));
  ModelDef shared = planned(lookup_model(), true);
  for (size_t t = 0; t < shared.tensors.size(); ++t) {
    m.tensors[t].pool = shared.tensors[t].pool;
    m.tensors[t].offset = shared.tensors[t].offset;
  }
  m.pools = shared.pools;
  expect_refused(m, GRT_ERR_PLAN_OVERLAP, "plan overlap: tensor 1 'a' and tensor 2 'b'");
  // Nor does the planner pair it: only b -> y at node 2 is left.
  const auto pairs = tools::in_place_pairs(m, tools::planning_blocks(m), builtin_declarations());
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].node, 2u);
}

TEST(InPlace, RefusedForANodeWithTwoOutputs) {
  ModelDef m = planned(lookup_model(), true);
  const uint32_t extra = m.add_activation("extra", DType::Int8, {1, 16});
  m.tensors[extra].offset = m.pools[0].size;
  m.pools[0].size += 16;
  m.nodes[1].args.push_back(ArgDef::output(extra));
  m.outputs.push_back(extra);
  m.tensors[kY].offset = m.pools[0].size;  // only the pair at node 1 is left to refuse
  m.pools[0].size += kN;
  expect_refused(m, GRT_ERR_PLAN_OVERLAP, "plan overlap: tensor 1 'a' and tensor 2 'b'");
}

TEST(InPlace, RefusedAtInitWhenTheKernelDoesNotDeclareIt) {
  // copy would be safe element by element, but its entry declares nothing: the blob's
  // pairing passes the graph check and init refuses it against the kernel table.
  ModelDef m = planned(lookup_model(), true);
  m.nodes[1].kernel = m.kernel_index("copy");
  m.nodes[1].args.pop_back();
  expect_refused(m, GRT_ERR_PLAN_OVERLAP, "does not declare it may overwrite");
  // A user registration of lookup_s8 without the declaration is refused the same way.
  Registry user;
  const grt_kernel_table* table = grt_builtin_kernels();
  const grt_kernel_entry* builtin = grt_registry_find(&user.registry, "lookup_s8", 9);
  ASSERT_NE(builtin, nullptr);
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(grt_registry_add(&user.registry, "lookup_s8", builtin->function, builtin->check), GRT_OK);
  StaticRun r(to_blob(planned(lookup_model(), true)), &user.registry);
  EXPECT_EQ(r.status, GRT_ERR_PLAN_OVERLAP);
  EXPECT_NE(std::string(r.error.message).find("node 1 (lookup_s8): its output shares the bytes of input argument 0"),
            std::string::npos)
      << r.error.message;
}

TEST(InputsOutside, TheModelInputGetsAPoolOfItsOwn) {
  tools::PlanReport report;
  const ModelDef m = planned(lookup_model(), true, &report, true);
  ASSERT_EQ(m.pools.size(), 2u);
  EXPECT_EQ(m.pools[1].name, "inputs");
  EXPECT_EQ(m.pools[1].placement, "caller");
  EXPECT_EQ(m.pools[1].size, static_cast<uint64_t>(kN));
  EXPECT_EQ(m.tensors[kX].pool, 1u);
  for (const uint32_t t : {kA, kB, kY}) EXPECT_EQ(m.tensors[t].pool, 0u);
  // Without the input, the activations are the one in-place chain a -> b -> y.
  EXPECT_EQ(m.pools[0].size, static_cast<uint64_t>(kN));
  // The exact budget: one buffer per pool, the input's being the caller's input itself.
  grt_requirements req{};
  grt_error error{};
  const tools::AlignedBytes blob = to_blob(m);
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &req, &error), GRT_OK) << error.message;
  ASSERT_EQ(req.pool_count, 2u);
  EXPECT_EQ(req.pool_bytes[0], static_cast<size_t>(kN));
  EXPECT_EQ(req.pool_bytes[1], static_cast<size_t>(kN));
  EXPECT_EQ(run(m), run(planned(lookup_model(), false)));
}

TEST(InputsOutside, ReplanningKeepsOneInputsPool) {
  ModelDef m = planned(lookup_model(), false, nullptr, true);
  m = planned(m, true, nullptr, true);
  ASSERT_EQ(m.pools.size(), 2u);
  EXPECT_EQ(m.tensors[kX].pool, 1u);
  EXPECT_EQ(m.pools[0].size, static_cast<uint64_t>(kN));
}

}  // namespace
}  // namespace grt::test
