// import_tflite on small models built in the test: graph inputs/outputs, tensors, aliases,
// unsupported operators, converter failures.
#include <gtest/gtest.h>

#include <cstring>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"
#include "test_models.h"
#include "tflite_op_model.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tools::ArgKind;
using tools::DType;
using tools::TensorKind;

// A stand-in converter: TFLite ABS becomes graphrt's built-in `copy`, so imported graphs can
// go through the real loader and run.
bool convert_as_copy(tools::ImportContext& ctx) {
  ctx.add_node("copy", {tools::ArgDef::input(ctx.input(0)), tools::ArgDef::output(ctx.output(0))});
  return true;
}

bool convert_by_failing(tools::ImportContext& ctx) { return ctx.fail("int4 weights are not supported"); }

// The built-in converters, with ABS -> copy and FLOOR -> always fails in place of their own.
const tools::ConverterTable& test_converters() {
  static const tools::ConverterTable table = [] {
    tools::ConverterTable t = tools::builtin_converters();
    std::erase_if(t.entries, [](const auto& e) { return e.op == BuiltinOperator::ABS || e.op == BuiltinOperator::FLOOR; });
    t.add(BuiltinOperator::ABS, convert_as_copy, {"int32"});
    t.add(BuiltinOperator::FLOOR, convert_by_failing, {"float32"});
    return t;
  }();
  return table;
}

tools::ImportResult import(const TfliteModelSpec& spec, tools::ModelDef* out) {
  const std::vector<uint8_t> bytes = build_tflite(spec);
  return tools::import_tflite(bytes.data(), bytes.size(), out, test_converters());
}

// Plans, serializes and loads the imported graph; runs it once with `input` in input 0 and
// returns output 0's bytes.
std::vector<uint8_t> run_once(tools::ModelDef graph, const std::vector<uint8_t>& input) {
  tools::plan_default(&graph);
  const tools::AlignedBytes blob = to_blob(graph);
  StaticRun run(blob);
  EXPECT_EQ(run.status, GRT_OK) << run.error.message;
  if (run.status != GRT_OK) return {};
  DLTensor* in = grt_input(run.executor, 0);
  EXPECT_EQ(grt_tensor_bytes(in), input.size());
  std::memcpy(in->data, input.data(), input.size());
  EXPECT_EQ(grt_run(run.executor), GRT_OK);
  const DLTensor* out = grt_output(run.executor, 0);
  const auto* data = static_cast<const uint8_t*>(out->data);
  return std::vector<uint8_t>(data, data + grt_tensor_bytes(out));
}

TEST(ImportTflite, ReshapeToModelOutputBecomesCopyNode) {
  tools::ModelDef graph;
  const tools::ImportResult r = import(single_reshape_model(4), &graph);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(graph.inputs.size(), 1u);
  ASSERT_EQ(graph.outputs.size(), 1u);
  const tools::TensorDef& x = graph.tensors[graph.inputs[0]];
  const tools::TensorDef& y = graph.tensors[graph.outputs[0]];
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.kind, TensorKind::Activation);
  EXPECT_EQ(x.shape, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(y.name, "y");
  EXPECT_EQ(y.kind, TensorKind::Activation);  // the loader wants outputs to own their bytes
  EXPECT_EQ(y.shape, (std::vector<int64_t>{4}));
  ASSERT_EQ(graph.nodes.size(), 1u);
  EXPECT_EQ(graph.kernels[graph.nodes[0].kernel], "copy");
  EXPECT_EQ(graph.nodes[0].name, "RESHAPE #0");
  ASSERT_EQ(graph.nodes[0].args.size(), 2u);
  EXPECT_EQ(graph.nodes[0].args[0].kind, ArgKind::Input);
  EXPECT_EQ(graph.nodes[0].args[0].value, graph.inputs[0]);
  EXPECT_EQ(graph.nodes[0].args[1].kind, ArgKind::Output);
  EXPECT_EQ(graph.nodes[0].args[1].value, graph.outputs[0]);
  EXPECT_EQ(graph.producer, "graphrt import");
  EXPECT_EQ(run_once(graph, {1, 2, 3, 4}), (std::vector<uint8_t>{1, 2, 3, 4}));
}

// x -> RESHAPE -> a -> SQUEEZE -> b -> EXPAND_DIMS -> c -> ABS(copy) -> y
TEST(ImportTflite, ReshapeChainsBecomeAliasesWithoutNodes) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .shape = {1, 6}});
  const int32_t a = spec.add_tensor({.name = "a", .shape = {1, 2, 3}});
  const int32_t b = spec.add_tensor({.name = "b", .shape = {2, 3}});
  const int32_t c = spec.add_tensor({.name = "c", .shape = {2, 3, 1}});
  const int32_t y = spec.add_tensor({.name = "y", .shape = {2, 3, 1}});
  spec.add_op(BuiltinOperator::RESHAPE, {x}, {a});
  spec.add_op(BuiltinOperator::SQUEEZE, {a}, {b});
  spec.add_op(BuiltinOperator::EXPAND_DIMS, {b}, {c});
  spec.add_op(BuiltinOperator::ABS, {c}, {y});
  spec.inputs = {x};
  spec.outputs = {y};
  tools::ModelDef graph;
  const tools::ImportResult r = import(spec, &graph);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(graph.nodes.size(), 1u);
  EXPECT_EQ(graph.nodes[0].name, "ABS #3");
  const auto read = static_cast<uint32_t>(graph.nodes[0].args[0].value);
  EXPECT_EQ(graph.tensors[read].name, "c");
  EXPECT_EQ(graph.tensors[read].kind, TensorKind::Alias);
  EXPECT_EQ(graph.tensors[read].shape, (std::vector<int64_t>{2, 3, 1}));
  const uint32_t b_index = graph.tensors[read].alias_of;
  EXPECT_EQ(graph.tensors[b_index].name, "b");
  EXPECT_EQ(graph.tensors[b_index].kind, TensorKind::Alias);
  EXPECT_EQ(graph.root_of(read), graph.inputs[0]);
  EXPECT_EQ(run_once(graph, {1, 2, 3, 4, 5, 6}), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
}

// An alias that no one reads costs nothing: no tensor is created for it.
TEST(ImportTflite, UnusedAliasCreatesNoTensor) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .shape = {4}});
  const int32_t unused = spec.add_tensor({.name = "unused", .shape = {2, 2}});
  const int32_t y = spec.add_tensor({.name = "y", .shape = {4}});
  spec.add_op(BuiltinOperator::RESHAPE, {x}, {unused});
  spec.add_op(BuiltinOperator::ABS, {x}, {y});
  spec.inputs = {x};
  spec.outputs = {y};
  tools::ModelDef graph;
  ASSERT_TRUE(import(spec, &graph).ok);
  for (const auto& t : graph.tensors) EXPECT_NE(t.name, "unused");
}

// A model input feeding a reshape whose result is also a model output: both stay
// activations, joined by a copy; another reader of the reshape shares the copy's bytes.
TEST(ImportTflite, ReshapeOfModelInputToModelOutputAndReader) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .shape = {4}});
  const int32_t r = spec.add_tensor({.name = "r", .shape = {2, 2}});
  const int32_t y = spec.add_tensor({.name = "y", .shape = {2, 2}});
  spec.add_op(BuiltinOperator::RESHAPE, {x}, {r});
  spec.add_op(BuiltinOperator::ABS, {r}, {y});
  spec.inputs = {x};
  spec.outputs = {r, y};
  tools::ModelDef graph;
  const tools::ImportResult result = import(spec, &graph);
  ASSERT_TRUE(result.ok) << result.error;
  ASSERT_EQ(graph.nodes.size(), 2u);
  EXPECT_EQ(graph.tensors[graph.outputs[0]].kind, TensorKind::Activation);
  EXPECT_EQ(graph.nodes[1].args[0].value, graph.outputs[0]);
  tools::plan_default(&graph);
  grt_error error{};
  EXPECT_EQ(init_status(to_blob(graph), &error), GRT_OK) << error.message;
}

TEST(ImportTflite, ReshapeOfConstantAliasesTheConstant) {
  TfliteModelSpec spec;
  const int32_t w = spec.add_tensor({.name = "w", .shape = {4}, .data = {9, 8, 7, 6}});
  const int32_t r = spec.add_tensor({.name = "r", .shape = {2, 2}});
  const int32_t x = spec.add_tensor({.name = "x", .shape = {1}});
  const int32_t y = spec.add_tensor({.name = "y", .shape = {2, 2}});
  spec.add_op(BuiltinOperator::RESHAPE, {w}, {r});
  spec.add_op(BuiltinOperator::ABS, {r}, {y});
  spec.inputs = {x};
  spec.outputs = {y};
  tools::ModelDef graph;
  const tools::ImportResult result = import(spec, &graph);
  ASSERT_TRUE(result.ok) << result.error;
  const auto read = static_cast<uint32_t>(graph.nodes.at(0).args.at(0).value);
  EXPECT_EQ(graph.tensors[read].kind, TensorKind::Alias);
  const tools::TensorDef& root = graph.tensors[graph.root_of(read)];
  EXPECT_EQ(root.kind, TensorKind::Constant);
  EXPECT_EQ(graph.buffers.at(root.buffer), (std::vector<uint8_t>{9, 8, 7, 6}));
  EXPECT_EQ(run_once(graph, {0}), (std::vector<uint8_t>{9, 8, 7, 6}));
}

TEST(ImportTflite, InputsOutputsInOrderWithTypesQuantizationAndConstants) {
  TfliteModelSpec spec;
  spec.description = "two heads";
  const int32_t b = spec.add_tensor({.name = "b", .type = tflite::TensorType::FLOAT32, .shape = {3}});
  const int32_t a = spec.add_tensor({.name = "a", .type = tflite::TensorType::INT8, .shape = {1, 2},
                                     .scale = {0.5f}, .zero_point = {-3}});
  const int32_t w = spec.add_tensor({.name = "w", .type = tflite::TensorType::INT16, .shape = {2, 1},
                                     .data = {1, 0, 2, 0}, .scale = {0.25f, 0.125f}, .zero_point = {0, 0},
                                     .quantized_dimension = 0});
  const int32_t ya = spec.add_tensor({.name = "ya", .type = tflite::TensorType::INT8, .shape = {1, 2}});
  const int32_t yb = spec.add_tensor({.name = "yb", .type = tflite::TensorType::FLOAT32, .shape = {3}});
  const int32_t yw = spec.add_tensor({.name = "yw", .type = tflite::TensorType::INT16, .shape = {2, 1}});
  spec.add_op(BuiltinOperator::ABS, {a}, {ya});
  spec.add_op(BuiltinOperator::ABS, {b}, {yb});
  spec.add_op(BuiltinOperator::ABS, {w}, {yw});
  spec.inputs = {a, b};
  spec.outputs = {yb, ya, yw};
  tools::ModelDef graph;
  const tools::ImportResult r = import(spec, &graph);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(graph.name, "two heads");
  ASSERT_EQ(graph.inputs.size(), 2u);
  EXPECT_EQ(graph.tensors[graph.inputs[0]].name, "a");
  EXPECT_EQ(graph.tensors[graph.inputs[1]].name, "b");
  ASSERT_EQ(graph.outputs.size(), 3u);
  EXPECT_EQ(graph.tensors[graph.outputs[0]].name, "yb");
  EXPECT_EQ(graph.tensors[graph.outputs[1]].name, "ya");
  EXPECT_EQ(graph.tensors[graph.outputs[2]].name, "yw");
  EXPECT_EQ(graph.tensors[graph.inputs[1]].dtype, DType::Float32);
  const tools::TensorDef& ta = graph.tensors[graph.inputs[0]];
  EXPECT_EQ(ta.dtype, DType::Int8);
  ASSERT_TRUE(ta.quantization.has_value());
  EXPECT_EQ(ta.quantization->scale, (std::vector<float>{0.5f}));
  EXPECT_EQ(ta.quantization->zero_point, (std::vector<int64_t>{-3}));
  EXPECT_FALSE(graph.tensors[graph.inputs[1]].quantization.has_value());
  const auto w_index = static_cast<uint32_t>(graph.nodes.at(2).args.at(0).value);
  const tools::TensorDef& tw = graph.tensors[w_index];
  EXPECT_EQ(tw.kind, TensorKind::Constant);
  EXPECT_EQ(tw.dtype, DType::Int16);
  EXPECT_EQ(graph.buffers.at(tw.buffer), (std::vector<uint8_t>{1, 0, 2, 0}));
  ASSERT_TRUE(tw.quantization.has_value());
  EXPECT_EQ(tw.quantization->scale, (std::vector<float>{0.25f, 0.125f}));
  EXPECT_EQ(tw.quantization->axis, 0);
}

TEST(ImportTflite, EveryTfliteTypeGraphrtHasIsMapped) {
  const std::pair<tflite::TensorType, DType> types[] = {
      {tflite::TensorType::INT8, DType::Int8},       {tflite::TensorType::UINT8, DType::UInt8},
      {tflite::TensorType::INT16, DType::Int16},     {tflite::TensorType::INT32, DType::Int32},
      {tflite::TensorType::INT64, DType::Int64},     {tflite::TensorType::FLOAT32, DType::Float32},
      {tflite::TensorType::BOOL, DType::Bool}};
  for (const auto& [tflite_type, dtype] : types) {
    TfliteModelSpec spec;
    const int32_t x = spec.add_tensor({.name = "x", .type = tflite_type, .shape = {2}});
    const int32_t y = spec.add_tensor({.name = "y", .type = tflite_type, .shape = {2}});
    spec.add_op(BuiltinOperator::ABS, {x}, {y});
    spec.inputs = {x};
    spec.outputs = {y};
    tools::ModelDef graph;
    const tools::ImportResult r = import(spec, &graph);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(graph.tensors[graph.inputs[0]].dtype, dtype) << tflite::EnumNameTensorType(tflite_type);
  }
}

TEST(ImportTflite, TypeGraphrtLacksIsNamedInTheError) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .shape = {2}});
  const int32_t h = spec.add_tensor({.name = "half_precision", .type = tflite::TensorType::FLOAT16, .shape = {2}});
  spec.add_op(BuiltinOperator::ABS, {x}, {h});
  spec.inputs = {x};
  spec.outputs = {h};
  tools::ModelDef graph;
  const tools::ImportResult r = import(spec, &graph);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "model output 0: tensor 'half_precision' (#1) has type FLOAT16, which graphrt does not support");
}

TEST(ImportTflite, UnsupportedOperatorsAreListedByNameAndCountInOneMessage) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .shape = {4}});
  const int32_t t1 = spec.add_tensor({.name = "t1", .shape = {4}});
  const int32_t t2 = spec.add_tensor({.name = "t2", .shape = {4}});
  const int32_t t3 = spec.add_tensor({.name = "t3", .shape = {4}});
  const int32_t t4 = spec.add_tensor({.name = "t4", .shape = {4}});
  const int32_t y = spec.add_tensor({.name = "y", .shape = {2, 2}});
  spec.add_op(BuiltinOperator::LSTM, {x}, {t1});
  TfliteOpSpec custom;
  custom.op = BuiltinOperator::CUSTOM;
  custom.custom_code = "SignalUnknown";
  custom.inputs = {t1};
  custom.outputs = {t2};
  spec.ops.push_back(custom);
  spec.add_op(BuiltinOperator::LSTM, {t2}, {t3});
  spec.add_op(BuiltinOperator::GELU, {t3}, {t4});  // code 150: only builtin_code holds it
  spec.add_op(BuiltinOperator::RESHAPE, {t4}, {y});
  spec.inputs = {x};
  spec.outputs = {y};
  tools::ModelDef graph;
  const tools::ImportResult r = import(spec, &graph);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "unsupported operators: LSTM x2, CUSTOM:SignalUnknown x1, GELU x1");
  EXPECT_EQ(r.unsupported, (std::map<std::string, int>{{"LSTM", 2}, {"CUSTOM:SignalUnknown", 1}, {"GELU", 1}}));
}

TEST(ImportTflite, LegacyOperatorCodeOnlyIsUnderstood) {
  TfliteModelSpec spec = single_reshape_model(4);
  spec.ops[0].legacy_code_only = true;
  tools::ModelDef graph;
  const tools::ImportResult r = import(spec, &graph);
  EXPECT_TRUE(r.ok) << r.error;
}

TEST(ImportTflite, ConverterFailureIsPrefixedWithTheOperator) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .shape = {4}});
  const int32_t t = spec.add_tensor({.name = "t", .shape = {4}});
  const int32_t y = spec.add_tensor({.name = "y", .shape = {4}});
  spec.add_op(BuiltinOperator::ABS, {x}, {t});
  spec.add_op(BuiltinOperator::FLOOR, {t}, {y});
  spec.inputs = {x};
  spec.outputs = {y};
  tools::ModelDef graph;
  graph.name = "untouched";
  const tools::ImportResult r = import(spec, &graph);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "FLOOR #1: int4 weights are not supported");
  EXPECT_TRUE(r.unsupported.empty());
  EXPECT_EQ(graph.name, "untouched");  // nothing half-built is handed out
}

TEST(ImportTflite, ReshapeBetweenDifferentByteSizesFails) {
  TfliteModelSpec spec = single_reshape_model(4);
  spec.tensors[1].shape = {5};
  tools::ModelDef graph;
  const tools::ImportResult r = import(spec, &graph);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.rfind("RESHAPE #0: ", 0), 0u) << r.error;
}

TEST(ImportTflite, OutputNoOperatorComputesIsRefused) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .shape = {4}});
  const int32_t y = spec.add_tensor({.name = "y", .shape = {4}});
  spec.inputs = {x};
  spec.outputs = {y};
  tools::ModelDef graph;
  const tools::ImportResult r = import(spec, &graph);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "model output 0 ('y') is computed by no operator");
}

TEST(ImportTflite, ModelInputsFeedingParametersStayActivations) {
  // Like seanet_transpose_conv*: an int32 operand supplied at run time.
  TfliteModelSpec spec;
  const int32_t shape_in = spec.add_tensor({.name = "output_shape", .type = tflite::TensorType::INT32, .shape = {4}});
  const int32_t y = spec.add_tensor({.name = "y", .type = tflite::TensorType::INT32, .shape = {4}});
  spec.add_op(BuiltinOperator::ABS, {shape_in}, {y});
  spec.inputs = {shape_in};
  spec.outputs = {y};
  tools::ModelDef graph;
  ASSERT_TRUE(import(spec, &graph).ok);
  EXPECT_EQ(graph.tensors[graph.inputs[0]].kind, TensorKind::Activation);
}

TEST(ConverterTable, RegisteringAnOperatorTwiceThrows) {
  tools::ConverterTable table;
  table.add(BuiltinOperator::ABS, convert_as_copy, {"int8"});
  EXPECT_THROW(table.add(BuiltinOperator::ABS, convert_as_copy, {"int8"}), std::logic_error);
  EXPECT_EQ(table.find(BuiltinOperator::ABS), &convert_as_copy);
  EXPECT_EQ(table.find(BuiltinOperator::ADD), nullptr);
}

TEST(ConverterTable, BuiltinConvertersIncludeTheShapeOperators) {
  const tools::ConverterTable& table = tools::builtin_converters();
  EXPECT_NE(table.find(BuiltinOperator::RESHAPE), nullptr);
  EXPECT_NE(table.find(BuiltinOperator::SQUEEZE), nullptr);
  EXPECT_NE(table.find(BuiltinOperator::EXPAND_DIMS), nullptr);
}

}  // namespace
}  // namespace grt::test
