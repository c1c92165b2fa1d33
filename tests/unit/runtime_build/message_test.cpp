// The runtime's message formatter (runtime/src/message.h): every loader and executor error
// goes through it, so its directives, bounds and truncation are proven here once.
#include "message.h"

#include <gtest/gtest.h>

#include <limits.h>
#include <string>

#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"
#include "graphrt/tools/planner.h"
#include "graphrt_generated.h"

namespace {

class Message : public ::testing::Test {
 protected:
  void SetUp() override {
    grt::tools::ModelDef m;
    const uint32_t x = m.add_activation("input_0", grt::tools::DType::Int8, {4});
    const uint32_t y = m.add_activation("", grt::tools::DType::Int8, {4});
    m.inputs.push_back(x);
    m.outputs.push_back(y);
    m.add_node("copy", {grt::tools::ArgDef::input(x), grt::tools::ArgDef::output(y)});
    grt::tools::plan_default(&m);
    blob_ = grt::tools::AlignedBytes(grt::tools::serialize(m));
    model_ = grt::fb::GetModel(blob_.data());
  }
  grt::tools::AlignedBytes blob_;
  const grt::fb::Model* model_ = nullptr;
  grt_error error_{};
};

TEST_F(Message, NumbersAndStrings) {
  EXPECT_EQ(grt::fail(&error_, GRT_ERR_SHAPE, nullptr, "%u and %d, %s %q", UINT64_MAX, INT64_MIN, "plain", "quoted"),
            GRT_ERR_SHAPE);
  EXPECT_EQ(error_.status, GRT_ERR_SHAPE);
  EXPECT_STREQ(error_.message, "18446744073709551615 and -9223372036854775808, plain 'quoted'");
  grt::fail(&error_, GRT_ERR_SHAPE, nullptr, "%d %d %u", int8_t{-5}, 0, uint8_t{255});
  EXPECT_STREQ(error_.message, "-5 0 255");
}

TEST_F(Message, NamesTensorsNodesAndPoolsOfTheModel) {
  grt::fail(&error_, GRT_ERR_GRAPH, model_, "%t, %t, %n, %p", 0u, 1u, 0u, 0u);
  const std::string pool_name = model_->pools()->Get(0)->name()->str();
  EXPECT_EQ(std::string(error_.message), "tensor 0 'input_0', tensor 1, node 0 (copy), pool '" + pool_name + "'");
}

TEST_F(Message, IndicesOutOfRangeOrNoModelPrintJustTheIndex) {
  grt::fail(&error_, GRT_ERR_GRAPH, model_, "%t %n %p", 99u, 7u, 5u);
  EXPECT_STREQ(error_.message, "tensor 99 node 7 pool ''");
  grt::fail(&error_, GRT_ERR_GRAPH, nullptr, "%t %n", 1u, 2u);
  EXPECT_STREQ(error_.message, "tensor 1 node 2");
}

TEST_F(Message, AppendAddsAndFailStartsOver) {
  grt::fail(&error_, GRT_ERR_OUT_OF_MEMORY, nullptr, "out of %u", 3u);
  grt::append(&error_, nullptr, "; %s", "more");
  EXPECT_STREQ(error_.message, "out of 3; more");
  grt::fail(&error_, GRT_ERR_ARGUMENT, nullptr, "fresh");
  EXPECT_STREQ(error_.message, "fresh");
}

TEST_F(Message, UnknownDirectivesAndATrailingPercentAreText) {
  grt::fail(&error_, GRT_ERR_ARGUMENT, nullptr, "100%x done %u%", 5u);
  EXPECT_STREQ(error_.message, "100%x done 5%");
}

TEST_F(Message, TruncatesToTheBufferAndStaysTerminated) {
  const std::string long_text(500, 'a');
  grt::fail(&error_, GRT_ERR_ARGUMENT, nullptr, "%s%s", long_text.c_str(), "tail");
  EXPECT_EQ(std::string(error_.message), std::string(GRT_ERROR_MESSAGE_SIZE - 1, 'a'));
  grt::append(&error_, nullptr, "more");
  EXPECT_EQ(std::string(error_.message).size(), static_cast<size_t>(GRT_ERROR_MESSAGE_SIZE - 1));
}

TEST_F(Message, NullErrorRecordOnlyReturnsTheStatus) {
  EXPECT_EQ(grt::fail(nullptr, GRT_ERR_BUSY, model_, "%t", 0u), GRT_ERR_BUSY);
  grt::append(nullptr, model_, "%t", 0u);
}

}  // namespace
