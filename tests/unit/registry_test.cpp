#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "graphrt/kernels.h"
#include "test_models.h"

namespace grt::test {
namespace {

int user_kernel(TVMValue*, int*, int, TVMValue*, int*, void*) { return 0; }

TEST(Registry, BuiltinTableIsSortedAndUnique) {
  const grt_kernel_table* table = grt_builtin_kernels();
  ASSERT_NE(table, nullptr);
  ASSERT_GT(table->count, 0u);
  for (size_t i = 1; i < table->count; ++i) {
    EXPECT_LT(std::strcmp(table->entries[i - 1].name, table->entries[i].name), 0)
        << table->entries[i - 1].name << " before " << table->entries[i].name;
  }
  for (size_t i = 0; i < table->count; ++i) {
    EXPECT_NE(table->entries[i].function, nullptr) << table->entries[i].name;
    EXPECT_NE(table->entries[i].check, nullptr) << table->entries[i].name << " has no argument check";
  }
}

TEST(Registry, FindsEveryBuiltinByCountedName) {
  grt_registry r;
  grt_registry_init(&r, nullptr, 0, grt_builtin_kernels());
  const grt_kernel_table* table = grt_builtin_kernels();
  for (size_t i = 0; i < table->count; ++i) {
    const std::string padded = std::string(table->entries[i].name) + "_suffix";
    const grt_kernel_entry* e = grt_registry_find(&r, padded.c_str(), std::strlen(table->entries[i].name));
    ASSERT_NE(e, nullptr) << table->entries[i].name;
    EXPECT_EQ(e->function, table->entries[i].function);
  }
  EXPECT_EQ(grt_registry_find(&r, "nope", 4), nullptr);
  EXPECT_EQ(grt_registry_find(&r, "cop", 3), nullptr);
  EXPECT_EQ(grt_registry_find(&r, "copyx", 5), nullptr);
}

TEST(Registry, FindsEveryBuiltinByName) {
  const grt_kernel_table* table = grt_builtin_kernels();
  for (size_t i = 0; i < table->count; ++i) {
    EXPECT_EQ(grt_builtin_kernel_find(table->entries[i].name), &table->entries[i]) << table->entries[i].name;
  }
  EXPECT_EQ(grt_builtin_kernel_find("nope"), nullptr);
  EXPECT_EQ(grt_builtin_kernel_find("cop"), nullptr);
  EXPECT_EQ(grt_builtin_kernel_find("copyx"), nullptr);
  EXPECT_EQ(grt_builtin_kernel_find(""), nullptr);
  EXPECT_EQ(grt_builtin_kernel_find(nullptr), nullptr);
}

TEST(Registry, NamesWithNulBytesNeverMatchOrOverread) {
  grt_kernel_entry storage[1];
  grt_registry r;
  grt_registry_init(&r, storage, 1, grt_builtin_kernels());
  ASSERT_EQ(grt_registry_add(&r, "ab", user_kernel, nullptr), GRT_OK);
  const char with_nul[] = {'c', 'o', 'p', 'y', '\0', 'x', 'y', 'z', 'w'};
  EXPECT_EQ(grt_registry_find(&r, with_nul, sizeof with_nul), nullptr);
  const char user_with_nul[] = {'a', 'b', '\0', '!'};
  EXPECT_EQ(grt_registry_find(&r, user_with_nul, sizeof user_with_nul), nullptr);
  EXPECT_NE(grt_registry_find(&r, with_nul, 4), nullptr);
}

TEST(Registry, UserKernelsShadowBuiltinsAndReplaceEachOther) {
  grt_kernel_entry storage[2];
  grt_registry r;
  grt_registry_init(&r, storage, 2, grt_builtin_kernels());
  ASSERT_EQ(grt_registry_add(&r, "copy", user_kernel, nullptr), GRT_OK);
  EXPECT_EQ(grt_registry_find(&r, "copy", 4)->function, user_kernel);
  ASSERT_EQ(grt_registry_add(&r, "mine", user_kernel, nullptr), GRT_OK);
  ASSERT_EQ(grt_registry_add(&r, "mine", user_kernel, user_kernel), GRT_OK);
  EXPECT_EQ(r.user_count, 2u);
  EXPECT_EQ(grt_registry_find(&r, "mine", 4)->check, user_kernel);
  EXPECT_EQ(grt_registry_add(&r, "third", user_kernel, nullptr), GRT_ERR_REGISTRY_FULL);
  EXPECT_EQ(grt_registry_add(&r, nullptr, user_kernel, nullptr), GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_registry_add(&r, "x", nullptr, nullptr), GRT_ERR_ARGUMENT);
}

TEST(Registry, StatusNamesAreStable) {
  EXPECT_STREQ(grt_status_name(GRT_OK), "GRT_OK");
  EXPECT_STREQ(grt_status_name(GRT_ERR_PLAN_OVERLAP), "GRT_ERR_PLAN_OVERLAP");
  EXPECT_STREQ(grt_status_name(GRT_ERR_INTEGRITY), "GRT_ERR_INTEGRITY");
  EXPECT_STREQ(grt_status_name(static_cast<grt_status>(999)), "GRT_ERR_UNKNOWN");
}

}  // namespace
}  // namespace grt::test
