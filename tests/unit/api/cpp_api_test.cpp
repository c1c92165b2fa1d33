#include <gtest/gtest.h>

#include <cstring>

#include "graphrt/graphrt.hpp"
#include "test_models.h"

extern "C" int graphrt_c_api_smoke(const void* blob, size_t size);
extern "C" int graphrt_c_api_reset_null(void);

namespace grt::test {
namespace {

TEST(CApi, HeadersCompileAsC99AndLink) {
  const tools::AlignedBytes blob = to_blob(copy_chain(1));
  EXPECT_EQ(graphrt_c_api_smoke(blob.data(), blob.size()), GRT_OK);
  EXPECT_EQ(graphrt_c_api_reset_null(), GRT_ERR_ARGUMENT);
}

TEST(CppApi, RunsAModelThroughTheWrapper) {
  const tools::AlignedBytes blob = to_blob(copy_chain(3));
  grt_requirements req{};
  grt_error error{};
  ASSERT_EQ(grt::requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &req, &error), GRT_OK);
  tools::AlignedBytes storage(req.bookkeeping_bytes);
  tools::AlignedBytes pool(req.pool_bytes[0]);
  void* pools[1] = {pool.data()};
  size_t sizes[1] = {pool.size()};
  grt_kernel_entry user[2];
  grt::Registry registry(user, 2, grt_builtin_kernels());
  grt::Executor executor;
  ASSERT_EQ(executor.init_static(storage.data(), storage.size(), blob.data(), blob.size(), registry, pools, sizes, 1), GRT_OK)
      << executor.error();
  ASSERT_NE(executor.input("x"), nullptr);
  std::memset(executor.input("x")->data, 42, 16);
  ASSERT_EQ(executor.run(), GRT_OK) << executor.error();
  EXPECT_EQ(static_cast<int8_t*>(executor.output("y")->data)[15], 42);
  EXPECT_EQ(executor.input("nope"), nullptr);
  EXPECT_EQ(executor.input_count(), 1u);
}

TEST(CppApi, InitErrorsAreReadable) {
  const tools::AlignedBytes blob = to_blob(copy_chain(1));
  grt::Registry registry(nullptr, 0, grt_builtin_kernels());
  grt::Executor executor;
  char storage[8];
  EXPECT_EQ(executor.init_static(storage, sizeof storage, blob.data(), blob.size(), registry, nullptr, nullptr, 0),
            GRT_ERR_STORAGE_TOO_SMALL);
  EXPECT_NE(std::strstr(executor.error(), "executor storage needs"), nullptr) << executor.error();
}

}  // namespace
}  // namespace grt::test
