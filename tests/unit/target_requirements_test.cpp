// grt_model_requirements_abi: the bookkeeping a 32-bit Arm build needs, computed on the
// host, which firmware reserves at build time (graphrt inspect's arm32 figures).
#include <gtest/gtest.h>

#include "graphrt/target_requirements.h"
#include "test_models.h"

namespace grt::test {
namespace {

grt_requirements requirements(const tools::AlignedBytes& blob, grt_arguments arguments, grt_abi abi) {
  grt_options options{};
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.arguments = arguments;
  grt_requirements out{};
  grt_error error{};
  EXPECT_EQ(grt_model_requirements_abi(blob.data(), blob.size(), &options, abi, &out, &error), GRT_OK) << error.message;
  return out;
}

TEST(TargetRequirements, NativeIsWhatThisBuildAsksFor) {
  const tools::AlignedBytes blob = to_blob(copy_chain(3));
  for (const grt_arguments arguments : {GRT_ARGUMENTS_LEAN, GRT_ARGUMENTS_PREPARED}) {
    grt_options options{};
    options.memory.strategy = GRT_STRATEGY_STATIC;
    options.arguments = arguments;
    grt_requirements expected{};
    grt_error error{};
    ASSERT_EQ(grt_model_requirements_for(blob.data(), blob.size(), &options, &expected, &error), GRT_OK);
    const grt_requirements native = requirements(blob, arguments, GRT_ABI_NATIVE);
    EXPECT_EQ(native.bookkeeping_bytes, expected.bookkeeping_bytes);
    EXPECT_EQ(native.pool_bytes[0], expected.pool_bytes[0]);
  }
}

// One copy node: tensors x and y, both the model's input and output, one pool. On 32-bit
// Arm the lean layout is the executor (224), the node's function pointer (4), x's and y's
// DLTensors (2 x 40, 8-aligned from 232), two argument values (16) and codes (8), the
// pool's base pointer (4): 340, rounded up to 8.
TEST(TargetRequirements, Arm32LayoutOfOneCopyNode) {
  const tools::AlignedBytes blob = to_blob(copy_chain(1));
  const grt_requirements arm32 = requirements(blob, GRT_ARGUMENTS_LEAN, GRT_ABI_ARM32);
  EXPECT_EQ(arm32.bookkeeping_bytes, 344u);
  EXPECT_EQ(arm32.bookkeeping_alignment, 8u);
  EXPECT_EQ(arm32.pool_count, 1u);
  EXPECT_EQ(arm32.pool_bytes[0], requirements(blob, GRT_ARGUMENTS_LEAN, GRT_ABI_NATIVE).pool_bytes[0]);
}

TEST(TargetRequirements, PointerSizeIsWhatDiffers) {
  const tools::AlignedBytes blob = to_blob(copy_chain(4));
  for (const grt_arguments arguments : {GRT_ARGUMENTS_LEAN, GRT_ARGUMENTS_PREPARED}) {
    const size_t native = requirements(blob, arguments, GRT_ABI_NATIVE).bookkeeping_bytes;
    const size_t arm32 = requirements(blob, arguments, GRT_ABI_ARM32).bookkeeping_bytes;
    if (sizeof(void*) == 8) {
      EXPECT_LT(arm32, native);
    } else {
      EXPECT_LE(arm32, native);
    }
  }
}

TEST(TargetRequirements, UnknownAbiAndBadBlobsAreRefused) {
  const tools::AlignedBytes blob = to_blob(copy_chain(1));
  grt_options options{};
  grt_requirements out{};
  grt_error error{};
  // As a C caller may pass it (never loaded as an enum here: the runtime reads its bytes).
  EXPECT_EQ(grt_model_requirements_abi(blob.data(), blob.size(), &options, static_cast<grt_abi>(7), &out, &error),
            GRT_ERR_ARGUMENT);
  EXPECT_STREQ(error.message, "unknown ABI 7");
  EXPECT_EQ(grt_model_requirements_abi(blob.data(), 4, &options, GRT_ABI_ARM32, &out, &error), GRT_ERR_BLOB_TOO_SMALL);
  EXPECT_EQ(grt_model_requirements_abi(blob.data(), blob.size(), nullptr, GRT_ABI_ARM32, &out, &error), GRT_ERR_ARGUMENT);
}

}  // namespace
}  // namespace grt::test
