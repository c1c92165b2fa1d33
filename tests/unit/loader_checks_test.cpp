// Every check of the loader, each proven by a blob that breaks exactly that check.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "graphrt/tools/planner.h"
#include "test_models.h"

namespace grt::test {
namespace {

using tools::AlignedBytes;
using tools::ArgDef;
using tools::DType;
using tools::ModelDef;
using tools::TensorKind;

struct Refusal {
  grt_status status;
  std::string message;
};

Refusal refuse(const ModelDef& m) {
  grt_error error{};
  const grt_status status = init_status(to_blob(m), &error);
  return {status, error.message};
}

Refusal refuse_bytes(const AlignedBytes& blob) {
  grt_error error{};
  const grt_status status = init_status(blob, &error);
  return {status, error.message};
}

#define EXPECT_REFUSED(refusal, code, text)                                    \
  do {                                                                         \
    const Refusal r_ = (refusal);                                              \
    EXPECT_EQ(r_.status, code) << grt_status_name(r_.status) << ": " << r_.message; \
    EXPECT_NE(r_.message.find(text), std::string::npos) << r_.message;         \
  } while (0)

TEST(LoaderChecks, AValidModelLoads) {
  const Refusal r = refuse(copy_chain(2));
  EXPECT_EQ(r.status, GRT_OK) << r.message;
}

TEST(LoaderChecks, TooFewBytes) {
  AlignedBytes blob(4);
  EXPECT_REFUSED(refuse_bytes(blob), GRT_ERR_BLOB_TOO_SMALL, "4 bytes");
}

TEST(LoaderChecks, BlobOffA16ByteBoundary) {
  const auto bytes = tools::serialize(copy_chain(1));
  AlignedBytes shifted(bytes.size() + 16);
  std::memcpy(shifted.data() + 4, bytes.data(), bytes.size());
  grt_requirements req{};
  grt_error error{};
  EXPECT_EQ(grt_model_requirements(shifted.data() + 4, bytes.size(), GRT_STRATEGY_STATIC, &req, &error), GRT_ERR_BLOB_ALIGNMENT);
  EXPECT_NE(std::string(error.message).find("16-byte boundary"), std::string::npos) << error.message;
}

TEST(LoaderChecks, WrongFileIdentifier) {
  AlignedBytes blob = to_blob(copy_chain(1));
  std::memcpy(blob.data() + 4, "TFL3", 4);
  EXPECT_REFUSED(refuse_bytes(blob), GRT_ERR_BLOB_IDENTIFIER, "'TFL3'");
}

TEST(LoaderChecks, NewerMajorVersion) {
  ModelDef m = copy_chain(1);
  m.version_major = 2;
  m.version_minor = 3;
  EXPECT_REFUSED(refuse(m), GRT_ERR_BLOB_VERSION, "2.3");
}

TEST(LoaderChecks, NewerMinorVersionLoads) {
  ModelDef m = copy_chain(1);
  m.version_minor = 7;
  EXPECT_EQ(refuse(m).status, GRT_OK);
}

TEST(LoaderChecks, TruncatedBlobIsMalformed) {
  const auto bytes = tools::serialize(copy_chain(2));
  AlignedBytes blob(bytes.size() / 2);
  std::memcpy(blob.data(), bytes.data(), blob.size());
  EXPECT_REFUSED(refuse_bytes(blob), GRT_ERR_BLOB_MALFORMED, "verifier");
}

TEST(LoaderChecks, RootOffsetOutsideTheBlobIsMalformed) {
  AlignedBytes blob = to_blob(copy_chain(1));
  const uint32_t bad = 0x7ffffff0u;
  std::memcpy(blob.data(), &bad, 4);
  EXPECT_REFUSED(refuse_bytes(blob), GRT_ERR_BLOB_MALFORMED, "verifier");
}

TEST(LoaderChecks, KernelIndexOutOfRange) {
  ModelDef m = copy_chain(1);
  m.nodes[0].kernel = 5;
  EXPECT_REFUSED(refuse(m), GRT_ERR_INDEX_RANGE, "kernel 5");
}

TEST(LoaderChecks, ArgumentTensorOutOfRange) {
  ModelDef m = copy_chain(1);
  m.nodes[0].args[1] = ArgDef::output(99);
  EXPECT_REFUSED(refuse(m), GRT_ERR_INDEX_RANGE, "tensor 99");
}

TEST(LoaderChecks, NegativeArgumentTensor) {
  ModelDef m = copy_chain(1);
  m.nodes[0].args[0] = ArgDef::input(0);
  m.nodes[0].args[0].value = -1;
  EXPECT_REFUSED(refuse(m), GRT_ERR_INDEX_RANGE, "tensor -1");
}

TEST(LoaderChecks, ConstantBufferOutOfRange) {
  ModelDef m = copy_chain(1);
  const uint32_t c = m.add_constant("w", DType::Int8, {4}, {1, 2, 3, 4});
  m.tensors[c].buffer = 9;
  EXPECT_REFUSED(refuse(m), GRT_ERR_INDEX_RANGE, "buffer 9");
}

TEST(LoaderChecks, PoolIndexOutOfRange) {
  ModelDef m = copy_chain(1);
  m.tensors[1].pool = 3;
  EXPECT_REFUSED(refuse(m), GRT_ERR_INDEX_RANGE, "pool 3");
}

TEST(LoaderChecks, ModelInputOutOfRange) {
  ModelDef m = copy_chain(1);
  m.inputs[0] = 42;
  EXPECT_REFUSED(refuse(m), GRT_ERR_INDEX_RANGE, "tensor 42");
}

TEST(LoaderChecks, ConstantBytesDisagreeWithShape) {
  ModelDef m = copy_chain(1);
  m.add_constant("w", DType::Int32, {4}, std::vector<uint8_t>(12));
  EXPECT_REFUSED(refuse(m), GRT_ERR_BUFFER_BOUNDS, "needs 16 bytes");
}

TEST(LoaderChecks, ConstantOffA16ByteBoundary) {
  ModelDef m = copy_chain(1);
  m.add_constant("a", DType::Int8, {3}, {1, 2, 3});
  m.add_constant("b", DType::Int8, {5}, {1, 2, 3, 4, 5});
  m.add_constant("c", DType::Int8, {7}, {1, 2, 3, 4, 5, 6, 7});
  tools::SerializeOptions unaligned;
  unaligned.align_constants = false;
  const AlignedBytes blob(tools::serialize(m, unaligned));
  EXPECT_REFUSED(refuse_bytes(blob), GRT_ERR_CONSTANT_ALIGNMENT, "16-byte boundary");
}

TEST(LoaderChecks, ActivationEndsPastItsPool) {
  ModelDef m = copy_chain(1);
  m.tensors[1].offset = m.pools[0].size - 8;  // 16 bytes at size - 8
  EXPECT_REFUSED(refuse(m), GRT_ERR_POOL_BOUNDS, "ends past pool 'activations'");
}

TEST(LoaderChecks, ActivationOffsetOverflowIsCaught) {
  ModelDef m = copy_chain(1);
  m.tensors[1].offset = UINT64_MAX - 4;
  EXPECT_REFUSED(refuse(m), GRT_ERR_POOL_BOUNDS, "ends past");
}

TEST(LoaderChecks, WorkspacePastItsPool) {
  ModelDef m = copy_chain(1);
  m.nodes[0].workspace_bytes = 64;
  m.nodes[0].workspace_offset = m.pools[0].size;
  EXPECT_REFUSED(refuse(m), GRT_ERR_POOL_BOUNDS, "workspace of 64 bytes");
}

TEST(LoaderChecks, NegativeDimension) {
  ModelDef m = copy_chain(1);
  m.tensors[1].shape = {1, -16};
  EXPECT_REFUSED(refuse(m), GRT_ERR_SHAPE, "-16");
}

TEST(LoaderChecks, ShapeWhoseByteSizeOverflows) {
  ModelDef m = copy_chain(1);
  m.tensors[1].shape = {1 << 30, 1 << 30, 1 << 30};
  EXPECT_REFUSED(refuse(m), GRT_ERR_SHAPE, "dimension");
}

TEST(LoaderChecks, AliasOfItself) {
  ModelDef m = copy_chain(1);
  const uint32_t a = m.add_alias("a", 0, {16});
  m.tensors[a].alias_of = a;
  EXPECT_REFUSED(refuse(m), GRT_ERR_ALIAS, "not another tensor");
}

TEST(LoaderChecks, AliasCycle) {
  ModelDef m = copy_chain(1);
  const uint32_t a = m.add_alias("a", 0, {16});
  const uint32_t b = m.add_alias("b", a, {16});
  m.tensors[a].alias_of = b;
  EXPECT_REFUSED(refuse(m), GRT_ERR_ALIAS, "cycle");
}

TEST(LoaderChecks, AliasLargerThanItsTarget) {
  ModelDef m = copy_chain(1);
  m.add_alias("a", 0, {4, 4}, 8);  // 16 bytes at offset 8 of a 16-byte tensor
  EXPECT_REFUSED(refuse(m), GRT_ERR_ALIAS, "at offset 8");
}

TEST(LoaderChecks, ReadBeforeWritten) {
  ModelDef m = copy_chain(2);
  std::swap(m.nodes[0], m.nodes[1]);
  EXPECT_REFUSED(refuse(m), GRT_ERR_GRAPH_ORDER, "before any node writes it");
}

TEST(LoaderChecks, OutputNobodyWrites) {
  ModelDef m = copy_chain(1);
  const uint32_t orphan = m.add_activation("orphan", DType::Int8, {4});
  m.outputs.push_back(orphan);
  m.tensors[orphan].offset = 0;
  EXPECT_REFUSED(refuse(m), GRT_ERR_GRAPH_ORDER, "'orphan', which no node writes");
}

TEST(LoaderChecks, NodeWritesAConstant) {
  ModelDef m = copy_chain(1);
  const uint32_t c = m.add_constant("w", DType::Int8, {1, 16}, std::vector<uint8_t>(16));
  m.nodes[0].args[1] = ArgDef::output(c);
  EXPECT_REFUSED(refuse(m), GRT_ERR_GRAPH, "writes constant");
}

TEST(LoaderChecks, IntArrayThatIsNotInt32) {
  ModelDef m = copy_chain(1);
  const uint32_t c = m.add_constant("w", DType::Int8, {4}, {1, 2, 3, 4});
  m.nodes[0].args.push_back(ArgDef::int_array(c));
  EXPECT_REFUSED(refuse(m), GRT_ERR_GRAPH, "1-D int32");
}

TEST(LoaderChecks, ModelInputThatIsAConstant) {
  ModelDef m = copy_chain(1);
  const uint32_t c = m.add_constant("w", DType::Int8, {1, 16}, std::vector<uint8_t>(16));
  m.inputs[0] = c;
  EXPECT_REFUSED(refuse(m), GRT_ERR_GRAPH, "not a planned activation");
}

TEST(LoaderChecks, LiveTensorsSharingPoolBytes) {
  ModelDef m = copy_chain(2);  // x -> t1 -> y; x and t1 are both live at node 0
  m.tensors[1].offset = m.tensors[0].offset;
  EXPECT_REFUSED(refuse(m), GRT_ERR_PLAN_OVERLAP, "share bytes of pool 'activations'");
}

TEST(LoaderChecks, DeadTensorsMayShareBytes) {
  ModelDef m = copy_chain(3);  // x -> t1 -> t2 -> y: x is dead once t2 is written
  m.tensors[2].offset = m.tensors[0].offset;
  EXPECT_EQ(refuse(m).status, GRT_OK) << refuse(m).message;
}

TEST(LoaderChecks, WorkspaceOverALiveTensor) {
  ModelDef m = copy_chain(1);
  m.nodes[0].workspace_bytes = 16;
  m.nodes[0].workspace_offset = m.tensors[0].offset;
  EXPECT_REFUSED(refuse(m), GRT_ERR_PLAN_OVERLAP, "workspace");
}

TEST(LoaderChecks, UnknownKernelNamesNodeAndKernel) {
  ModelDef m = copy_chain(2);
  m.kernels.push_back("conv2d_int4");
  m.nodes[1].kernel = 1;
  EXPECT_REFUSED(refuse(m), GRT_ERR_KERNEL_NOT_FOUND, "node 1 (conv2d_int4): kernel not registered");
}

TEST(LoaderChecks, KernelCheckRefusesBadArguments) {
  ModelDef m = copy_chain(1);
  m.nodes[0].args.pop_back();
  // The output is now written by nobody; make it the input so only the kernel check fails.
  m.outputs[0] = 0;
  EXPECT_REFUSED(refuse(m), GRT_ERR_KERNEL_ARGS, "node 0 (copy): bad arguments: wrong number of arguments");
}

TEST(LoaderChecks, KernelCannotBeMadeToWriteAConstant) {
  ModelDef m = copy_chain(1);
  const uint32_t weights = m.add_constant("w", DType::Int8, {1, 16}, std::vector<uint8_t>(16));
  m.add_node("copy", {ArgDef::input(0), ArgDef::input(weights)});  // the written slot holds a constant
  EXPECT_REFUSED(refuse(m), GRT_ERR_KERNEL_ARGS, "node 1 (copy): the kernel writes argument 1, which is not an Output argument");
}

TEST(LoaderChecks, KernelCannotBeMadeToWriteAModelInput) {
  ModelDef m = copy_chain(2);
  m.add_node("copy", {ArgDef::input(m.outputs[0]), ArgDef::input(m.inputs[0])});
  tools::plan_default(&m);
  EXPECT_REFUSED(refuse(m), GRT_ERR_KERNEL_ARGS, "writes argument 1");
}

TEST(LoaderChecks, SeveralEmptyConstantsLoad) {
  ModelDef m = copy_chain(1);
  for (int i = 0; i < 3; ++i) m.add_constant("empty" + std::to_string(i), DType::Int32, {0}, {});
  EXPECT_EQ(refuse(m).status, GRT_OK) << refuse(m).message;
}

TEST(LoaderChecks, TooManyPools) {
  ModelDef m = copy_chain(1);
  for (int i = 0; i < GRT_MAX_POOLS; ++i) m.pools.push_back({"extra" + std::to_string(i), 16, 16, {}});
  EXPECT_REFUSED(refuse(m), GRT_ERR_GRAPH, "pools");
}

TEST(LoaderChecks, PoolAlignmentNotAPowerOfTwo) {
  ModelDef m = copy_chain(1);
  m.pools[0].alignment = 24;
  EXPECT_REFUSED(refuse(m), GRT_ERR_GRAPH, "alignment 24");
}

// ---- The memory the caller hands in ------------------------------------------------------

// Under both argument modes: the bookkeeping figure is exact for each.
class CallerMemory : public ::testing::TestWithParam<grt_arguments> {
 protected:
  void SetUp() override {
    blob_ = to_blob(copy_chain(2));
    grt_options asked{};
    asked.arguments = GetParam();
    ASSERT_EQ(grt_model_requirements_for(blob_.data(), blob_.size(), &asked, &req_, &error_), GRT_OK) << error_.message;
  }
  grt_status init(size_t storage_bytes, size_t pool_bytes, size_t pool_shift = 0) {
    AlignedBytes storage(storage_bytes + 8);
    AlignedBytes pool(pool_bytes + 64);
    void* pools[1] = {pool.data() + pool_shift};
    size_t sizes[1] = {pool_bytes};
    grt_options options{};
    options.registry = &registry_.registry;
    options.memory.pool_buffers = pools;
    options.memory.pool_sizes = sizes;
    options.memory.pool_count = 1;
    options.arguments = GetParam();
    grt_executor* x = nullptr;
    return grt_init(&x, storage.data(), storage_bytes, blob_.data(), blob_.size(), &options, &error_);
  }
  AlignedBytes blob_;
  grt_requirements req_{};
  grt_error error_{};
  Registry registry_;
};

TEST_P(CallerMemory, ExactRequirementsAreEnough) {
  EXPECT_EQ(init(req_.bookkeeping_bytes, req_.pool_bytes[0]), GRT_OK) << error_.message;
}

TEST_P(CallerMemory, OneByteLessBookkeepingIsRefused) {
  EXPECT_EQ(init(req_.bookkeeping_bytes - 1, req_.pool_bytes[0]), GRT_ERR_STORAGE_TOO_SMALL);
  EXPECT_NE(std::string(error_.message).find(std::to_string(req_.bookkeeping_bytes) + " bytes"), std::string::npos) << error_.message;
}

TEST_P(CallerMemory, OneByteLessPoolIsRefusedWithBothNumbers) {
  EXPECT_EQ(init(req_.bookkeeping_bytes, req_.pool_bytes[0] - 1), GRT_ERR_POOL_TOO_SMALL);
  const std::string expected = "pool 'activations' needs " + std::to_string(req_.pool_bytes[0]) + " bytes, " +
                               std::to_string(req_.pool_bytes[0] - 1) + " given";
  EXPECT_NE(std::string(error_.message).find(expected), std::string::npos) << error_.message;
}

TEST_P(CallerMemory, MisalignedPoolIsRefused) {
  EXPECT_EQ(init(req_.bookkeeping_bytes, req_.pool_bytes[0], 4), GRT_ERR_POOL_MISALIGNED);
  EXPECT_NE(std::string(error_.message).find("16-byte alignment"), std::string::npos) << error_.message;
}

TEST_P(CallerMemory, WrongPoolCountIsRefused) {
  grt_options options{};
  options.registry = &registry_.registry;
  AlignedBytes storage(req_.bookkeeping_bytes);
  grt_executor* x = nullptr;
  EXPECT_EQ(grt_init(&x, storage.data(), storage.size(), blob_.data(), blob_.size(), &options, &error_), GRT_ERR_ARGUMENT);
  EXPECT_NE(std::string(error_.message).find("1 pools, 0 buffers given"), std::string::npos) << error_.message;
}

TEST_P(CallerMemory, MissingRegistryIsRefused) {
  grt_options options{};
  AlignedBytes storage(req_.bookkeeping_bytes);
  grt_executor* x = nullptr;
  EXPECT_EQ(grt_init(&x, storage.data(), storage.size(), blob_.data(), blob_.size(), &options, &error_), GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_init(&x, storage.data(), storage.size(), blob_.data(), blob_.size(), nullptr, &error_), GRT_ERR_ARGUMENT);
}

INSTANTIATE_TEST_SUITE_P(LoaderChecks, CallerMemory, ::testing::Values(GRT_ARGUMENTS_LEAN, GRT_ARGUMENTS_PREPARED),
                         [](const ::testing::TestParamInfo<grt_arguments>& p) { return p.param == GRT_ARGUMENTS_LEAN ? "Lean" : "Prepared"; });

}  // namespace
}  // namespace grt::test
