// How deep grt_run goes on the stack, per real model, on this host: each run happens on a
// thread whose stack is painted first; the deepest unpainted byte, minus what an empty
// thread uses, is run()'s own use. The figures go in docs/rtos.md; the test fails if a
// model needs more than kLimitBytes, which would break the advice given there.
#include <gtest/gtest.h>

#include <cstdio>

#include "graphrt/page_allocator.h"
#include "sized_thread.h"
#include "test_models.h"
#include "zoo.h"
#include "zoo_model.h"

namespace grt::test {
namespace {

constexpr size_t kPaintedStackBytes = 1024 * 1024;
constexpr size_t kLimitBytes = 8 * 1024;  // documented: "tasks running graphrt need run() + yours"

class RtosStackDepth : public ::testing::TestWithParam<const char*> {};

TEST_P(RtosStackDepth, RunStaysWithinTheDocumentedDepth) {
  GRT_REQUIRE_ZOO(zoo);
  ZooModel model;
  std::string error;
  ASSERT_TRUE(load_zoo_model(zoo, GetParam(), &model, &error)) << error;
  StaticRun run(model.blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  set_inputs(run.executor, model.golden.cases[0]);

  const size_t empty = painted_stack_use(kPaintedStackBytes, [] {});
  grt_status status = GRT_ERR_ARGUMENT;
  const size_t with_run = painted_stack_use(kPaintedStackBytes, [&] { status = grt_run(run.executor); });
  ASSERT_EQ(status, GRT_OK) << grt_last_error(run.executor)->message;
  EXPECT_EQ(check_outputs(run.executor, model.golden, model.golden.cases[0]), "");
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // ASan and TSan move locals to heap-allocated fake frames: painted depth means nothing.
  (void)empty;
  (void)with_run;
  GTEST_SKIP() << "sanitizers change stack use; the depth is measured in plain builds";
#else
  ASSERT_GT(with_run, empty);
  const size_t depth = with_run - empty;
  std::printf("stack depth of grt_run, %s (static): %zu bytes\n", GetParam(), depth);
  RecordProperty("stack_bytes", static_cast<int>(depth));
  EXPECT_LE(depth, kLimitBytes) << GetParam();
#endif
}

INSTANTIATE_TEST_SUITE_P(Zoo, RtosStackDepth,
                         ::testing::Values("hello_world_int8", "mlperf_kws_dscnn_int8", "mlperf_ad_autoencoder_int8",
                                           "mlperf_ic_resnet8_int8", "mlperf_vww_mobilenet_int8", "person_detect",
                                           "micro_speech_quantized", "mlperf_ic_resnet8_float"));

}  // namespace
}  // namespace grt::test
