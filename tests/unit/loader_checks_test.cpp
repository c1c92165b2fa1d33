// Every check of the loader, each proven by a blob that breaks exactly that check.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "golden.h"
#include "graphrt/dynamic_memory.h"
#include "graphrt/heap_allocator.h"
#include "graphrt/target_requirements.h"
#include "graphrt/tools/planner.h"
#include "test_models.h"
#include "zoo.h"

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

// Names come from the blob: control characters and bytes that are not UTF-8 are escaped,
// valid UTF-8 is kept, and long names are shortened in the middle so the figures that
// follow them survive.
TEST(Messages, NamesFromTheBlobAreEscapedAndLongOnesShortenedInTheMiddle) {
  ModelDef m = copy_chain(1);
  m.tensors[1].name = "a\x01\xff\xc3\xa9" + std::string(100, 'n') + "end";
  m.pools[0].name = std::string(100, 'p') + "\x1b[2J";
  const uint64_t pool_size = m.pools[0].size;
  m.tensors[1].offset = pool_size - 8;
  const Refusal r = refuse(m);
  EXPECT_EQ(r.status, GRT_ERR_POOL_BOUNDS);
  const std::string figures = std::to_string(pool_size - 8) + " + 16 bytes ends past pool '";
  // 32 characters each: 14 of the head, "...", 15 of the tail.
  EXPECT_EQ(r.message, "tensor 1 'a\\x01\\xff\xc3\xa9nnn...nnnnnnnnnnnnend' at offset " + figures +
                           "pppppppppppppp...pppppppp\\x1b[2J' of " + std::to_string(pool_size) + " bytes");
  EXPECT_LT(r.message.size(), size_t{GRT_ERROR_MESSAGE_SIZE});
}

// C1 controls, overlong forms, surrogates, code points past U+10FFFF and cut sequences are
// not valid UTF-8 text.
TEST(Messages, InvalidUtf8IsEscapedByteByByte) {
  const std::pair<std::string, std::string> cases[] = {
      {"\xc2\x85|\xe0\x80\x80", "'\\xc2\\x85|\\xe0\\x80\\x80'"},
      {"\xed\xa0\x80|\xf4\x90", "'\\xed\\xa0\\x80|\\xf4\\x90'"},
      {"\xe2\x82|\xf0\x9f\x98\x80", "'\\xe2\\x82|\xf0\x9f\x98\x80'"},
  };
  for (const auto& [name, shown] : cases) {
    ModelDef m = copy_chain(1);
    m.tensors[1].name = name;
    m.tensors[1].offset = m.pools[0].size - 8;
    EXPECT_REFUSED(refuse(m), GRT_ERR_POOL_BOUNDS, "tensor 1 " + shown + " at offset");
  }
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
  EXPECT_REFUSED(refuse(m), GRT_ERR_ALIAS, "not an earlier tensor");
}

// A cycle needs an alias of a later tensor, which is refused: aliases name earlier tensors.
TEST(LoaderChecks, AliasCycle) {
  ModelDef m = copy_chain(1);
  const uint32_t a = m.add_alias("a", 0, {16});
  const uint32_t b = m.add_alias("b", a, {16});
  m.tensors[a].alias_of = b;
  EXPECT_REFUSED(refuse(m), GRT_ERR_ALIAS, "tensor 2 'a' aliases tensor 3, which is not an earlier tensor");
}

// alias_of pointing forward, at a tensor that is not itself an alias.
TEST(LoaderChecks, AliasOfALaterTensor) {
  ModelDef m = copy_chain(2);  // x, t1, y
  const uint32_t a = m.add_alias("a", 0, {16});
  m.add_alias("b", 0, {16});
  m.tensors[a].alias_of = a + 1;
  EXPECT_REFUSED(refuse(m), GRT_ERR_ALIAS, "not an earlier tensor");
}

// Each alias of a chain: kMaxAliasDepth links load, one more is refused.
TEST(LoaderChecks, AliasChainsAreAtMost16Long) {
  for (const int links : {16, 17}) {
    ModelDef m = copy_chain(1);
    uint32_t previous = 0;
    for (int i = 0; i < links; ++i) previous = m.add_alias("a" + std::to_string(i), previous, {16});
    if (links == 16) {
      EXPECT_EQ(refuse(m).status, GRT_OK) << refuse(m).message;
    } else {
      EXPECT_REFUSED(refuse(m), GRT_ERR_ALIAS, "'a16' ends a chain of more than 16 aliases");
    }
  }
}

// Offsets that each pass their target, whose sum wraps past 2^64 to a place inside the root.
TEST(LoaderChecks, AliasOffsetsThatWrapAreRefused) {
  ModelDef m = copy_chain(1);
  const uint32_t a = m.add_alias("a", 0, {1}, uint64_t{1} << 63);
  m.add_alias("b", a, {1}, uint64_t{1} << 63);
  EXPECT_REFUSED(refuse(m), GRT_ERR_ALIAS, "'a' needs 1 bytes at offset 9223372036854775808 of tensor 0");
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

// ---- State tensors (kept across runs) ----

// x -> copy -> t1 -> copy -> y, and a 16-byte State tensor no node touches (still planned).
ModelDef chain_with_state(std::vector<uint8_t> initial = {}) {
  ModelDef m = copy_chain(2);
  m.add_state("memory", DType::Int8, {1, 16}, std::move(initial));
  tools::plan_default(&m);
  return m;
}

uint32_t state_index(const ModelDef& m) { return static_cast<uint32_t>(m.tensors.size() - 1); }

TEST(LoaderChecks, StateWithInitialBytesOrZerosLoads) {
  EXPECT_EQ(refuse(chain_with_state()).status, GRT_OK) << refuse(chain_with_state()).message;
  EXPECT_EQ(refuse(chain_with_state(std::vector<uint8_t>(16, 7))).status, GRT_OK);
}

TEST(LoaderChecks, StateInitialBufferOutOfRange) {
  ModelDef m = chain_with_state();
  m.tensors[state_index(m)].buffer = 99;
  EXPECT_REFUSED(refuse(m), GRT_ERR_INDEX_RANGE, "uses buffer 99");
}

TEST(LoaderChecks, StateInitialBytesOfTheWrongSize) {
  ModelDef m = chain_with_state(std::vector<uint8_t>(15, 1));
  EXPECT_REFUSED(refuse(m), GRT_ERR_BUFFER_BOUNDS, "needs 16 bytes, its buffer");
}

TEST(LoaderChecks, StatePastTheEndOfItsPool) {
  ModelDef m = chain_with_state();
  m.tensors[state_index(m)].offset = m.pools[0].size - 8;
  EXPECT_REFUSED(refuse(m), GRT_ERR_POOL_BOUNDS, "ends past");
}

// State is live for the whole run: even a tensor written after its last use may not share it.
TEST(LoaderChecks, StateSharingBytesWithAnyTensor) {
  ModelDef m = chain_with_state();
  m.tensors[state_index(m)].offset = m.tensors[2].offset;  // y, live at the last node only
  EXPECT_REFUSED(refuse(m), GRT_ERR_PLAN_OVERLAP, "'memory'");
}

TEST(LoaderChecks, StateSharingBytesWithAWorkspace) {
  ModelDef m = chain_with_state();
  m.nodes[1].workspace_bytes = 16;
  m.nodes[1].workspace_offset = m.tensors[state_index(m)].offset;
  EXPECT_REFUSED(refuse(m), GRT_ERR_PLAN_OVERLAP, "workspace");
}

TEST(LoaderChecks, StateAsAModelInputOrOutput) {
  ModelDef m = chain_with_state();
  m.outputs.push_back(state_index(m));
  EXPECT_REFUSED(refuse(m), GRT_ERR_GRAPH, "not a planned activation");
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


// ---- Every entry point that takes a blob runs the same checks --------------------------

// What each public call that takes a blob answers for it, with grt_init's refusal first.
std::vector<Refusal> answers(const AlignedBytes& blob) {
  std::vector<Refusal> out;
  grt_error error{};
  out.push_back({init_status(blob, &error), error.message});
  grt_requirements req{};
  for (const grt_strategy strategy : {GRT_STRATEGY_STATIC, GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK}) {
    error = grt_error{};
    out.push_back({grt_model_requirements(blob.data(), blob.size(), strategy, &req, &error), error.message});
  }
  error = grt_error{};
  const grt_options defaults{};
  out.push_back({grt_model_requirements_abi(blob.data(), blob.size(), &defaults, GRT_ABI_ARM32, &req, &error), error.message});
  AlignedBytes scratch(1 << 20);
  grt_page_budget budget{};
  error = grt_error{};
  out.push_back({grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, 64, GRT_PAGE_FIRST_FIT, scratch.data(),
                                         scratch.size(), &budget, &error),
                 error.message});
  grt_heap_allocator heap;
  grt_heap_init(&heap, 0);
  const grt_allocator allocator = grt_heap_as_allocator(&heap);
  error = grt_error{};
  out.push_back({grt_replay_allocations(blob.data(), blob.size(), GRT_STRATEGY_STACK, &allocator, scratch.data(), scratch.size(),
                                        &error),
                 error.message});
  return out;
}

void expect_every_entry_point_refuses(const AlignedBytes& blob, grt_status status, const std::string& text) {
  const std::vector<Refusal> all = answers(blob);
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].status, status) << "entry point " << i << ": " << grt_status_name(all[i].status) << ": " << all[i].message;
    EXPECT_EQ(all[i].message, all[0].message) << "entry point " << i;
  }
  EXPECT_NE(all[0].message.find(text), std::string::npos) << all[0].message;
}

// More tensors than the sizing calls' window of live ranges (32): the graph checks run
// over windows there, and still find what grt_init finds.
ModelDef long_chain() { return copy_chain(40); }

TEST(EveryEntryPoint, AcceptsAValidModelWithMoreTensorsThanTheWindow) {
  for (const Refusal& r : answers(to_blob(long_chain()))) EXPECT_EQ(r.status, GRT_OK) << r.message;
}

TEST(EveryEntryPoint, RefusesAnOutputNobodyWrites) {
  ModelDef m = long_chain();
  const uint32_t orphan = m.add_activation("orphan", DType::Int8, {4});
  m.outputs.push_back(orphan);
  m.tensors[orphan].offset = 0;
  expect_every_entry_point_refuses(to_blob(m), GRT_ERR_GRAPH_ORDER, "'orphan', which no node writes");
}

TEST(EveryEntryPoint, RefusesAReadBeforeTheWrite) {
  ModelDef m = long_chain();
  std::swap(m.nodes[34], m.nodes[35]);
  expect_every_entry_point_refuses(to_blob(m), GRT_ERR_GRAPH_ORDER, "node 34 (copy) reads tensor 35 't35' before any node writes it");
}

// x stays live to the last node; t20, in another window, is planned over it.
TEST(EveryEntryPoint, RefusesLiveTensorsSharingBytesAcrossWindows) {
  ModelDef m = long_chain();
  m.nodes.back().args.push_back(ArgDef::input(0));
  tools::plan_default(&m);
  m.tensors[20].offset = m.tensors[0].offset;
  expect_every_entry_point_refuses(to_blob(m), GRT_ERR_PLAN_OVERLAP,
                                   "tensor 0 'x' and tensor 20 't20' share bytes of pool 'activations' while both are live at node 19");
}

// ---- Reproducers of ../shared/robustness (README there) ----------------------------------

AlignedBytes robustness_blob(const std::filesystem::path& zoo, const char* name) {
  const std::vector<uint8_t> bytes = read_bytes(zoo / "robustness" / name);
  AlignedBytes blob(bytes.size());
  std::memcpy(blob.data(), bytes.data(), bytes.size());
  return blob;
}

// No nodes vector: grt_page_required_bytes bound a reference to null, and the sizing calls
// answered GRT_OK where grt_init refuses.
TEST(Robustness, NoNodesVectorIsRefusedByEveryEntryPoint) {
  GRT_REQUIRE_ZOO(zoo);
  expect_every_entry_point_refuses(robustness_blob(zoo, "no_nodes_vector.grt"), GRT_ERR_GRAPH_ORDER, "which no node writes");
}

// 4,000 aliases in a chain: the walk was quadratic (2.4 s in the fuzz build); now refused
// after at most 17 steps per alias.
TEST(Robustness, AliasChainOf4000IsRefusedQuickly) {
  GRT_REQUIRE_ZOO(zoo);
  const AlignedBytes blob = robustness_blob(zoo, "chain_4000.grt");
  const auto start = std::chrono::steady_clock::now();
  expect_every_entry_point_refuses(blob, GRT_ERR_ALIAS, "ends a chain of more than 16 aliases");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
}

// Alias offsets whose sum passes 2^64 and wraps back inside the root.
TEST(Robustness, WrappingAliasOffsetsAreRefused) {
  GRT_REQUIRE_ZOO(zoo);
  expect_every_entry_point_refuses(robustness_blob(zoo, "wrap_kws.grt"), GRT_ERR_ALIAS, "needs");
}

}  // namespace
}  // namespace grt::test
