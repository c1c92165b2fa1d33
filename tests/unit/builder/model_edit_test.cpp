// remove_unused (tools/builder/model_edit.h): what nothing names goes, every index left is
// renumbered, subgraph ranges keep their own entries, and the result loads and runs.
#include <gtest/gtest.h>

#include "graphrt/tools/model_edit.h"
#include "graphrt/tools/planner.h"
#include "one_node.h"
#include "test_models.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;
using tools::ModelDef;

TEST(ModelEdit, RemovingANodeOfASubgraphKeepsTheRangesAndTheModelRuns) {
  // if_else_copy: main graph [if_else]; "then" [copy in -> t0]; "else" [copy in -> t0,
  // copy t0 -> t1]. Tensors: cond x y | in t0 | in t0 t1.
  ModelDef m = if_else_copy(4);
  ASSERT_EQ(m.nodes.size(), 4u);
  ASSERT_EQ(m.tensors.size(), 8u);
  m.nodes[3].args[0] = ArgDef::input(5);  // the else branch's second copy reads its input
  tools::remove_unused(&m, {false, false, true}, {6});
  ASSERT_EQ(m.nodes.size(), 3u);
  ASSERT_EQ(m.tensors.size(), 7u);
  const tools::SubgraphDef& then_branch = m.subgraphs[0];
  const tools::SubgraphDef& else_branch = m.subgraphs[1];
  EXPECT_EQ(then_branch.first_node, 1u);
  EXPECT_EQ(then_branch.node_count, 1u);
  EXPECT_EQ(then_branch.first_tensor, 3u);
  EXPECT_EQ(then_branch.tensor_count, 2u);
  EXPECT_EQ(else_branch.first_node, 2u);
  EXPECT_EQ(else_branch.node_count, 1u);
  EXPECT_EQ(else_branch.first_tensor, 5u);
  EXPECT_EQ(else_branch.tensor_count, 2u);
  EXPECT_EQ(else_branch.inputs, std::vector<uint32_t>{5});
  EXPECT_EQ(else_branch.outputs, std::vector<uint32_t>{6});
  EXPECT_EQ(m.nodes[2].args[1].value, 6);
  tools::plan_default(&m);
  Loaded loaded(m);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  for (const uint8_t cond : {0, 1}) {
    loaded.set_input(0, std::vector<uint8_t>{cond});
    loaded.set_input(1, std::vector<int8_t>{7, -8, 9, -10});
    ASSERT_EQ(loaded.run(), GRT_OK) << loaded.run_message();
    EXPECT_EQ(loaded.output<int8_t>(0), (std::vector<int8_t>{7, -8, 9, -10}));
  }
}

TEST(ModelEdit, UnnamedCandidatesTheirBuffersAndUnusedKernelsGoNamedOnesStay) {
  ModelDef m;
  const uint32_t x = m.add_activation("x", DType::Int8, {1, 4});
  const uint32_t dropped = m.add_constant_values<int8_t>("dropped", DType::Int8, {4}, {1, 2, 3, 4});
  const uint32_t kept = m.add_constant_values<int8_t>("kept", DType::Int8, {4}, {5, 6, 7, 8});
  const uint32_t y = m.add_activation("y", DType::Int8, {1, 4});
  const uint32_t view = m.add_alias("view", y, {1, 2}, 2);
  m.inputs = {x};
  m.outputs = {y};
  m.add_node("noop", {ArgDef::input(dropped)});
  m.add_node("copy", {ArgDef::input(kept), ArgDef::output(y)});
  m.add_node("copy", {ArgDef::input(x), ArgDef::output(view)});
  // `x` is a candidate too, but a node still reads it: it stays.
  tools::remove_unused(&m, {true}, {dropped, x});
  ASSERT_EQ(m.tensors.size(), 4u);
  EXPECT_EQ(m.tensors[1].name, "kept");
  EXPECT_EQ(m.tensors[1].buffer, 0u);
  ASSERT_EQ(m.buffers.size(), 1u);
  EXPECT_EQ(m.buffers[0], (std::vector<uint8_t>{5, 6, 7, 8}));
  EXPECT_EQ(m.tensors[3].alias_of, 2u);
  EXPECT_EQ(m.kernels, std::vector<std::string>{"copy"});
  ASSERT_EQ(m.nodes.size(), 2u);
  EXPECT_EQ(m.nodes[0].kernel, 0u);
  EXPECT_EQ(m.nodes[1].args[1].value, 3);
  EXPECT_EQ(m.inputs, std::vector<uint32_t>{0});
  EXPECT_EQ(m.outputs, std::vector<uint32_t>{2});
  EXPECT_EQ(tools::uses_of(m, 2), 3u);  // copy's output, the alias's target, the model output
}

}  // namespace
}  // namespace grt::test
