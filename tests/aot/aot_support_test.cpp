// The AoT support runtime (graphrt/aot.h) on its own: workspaces served from the running
// node's planned bytes, kernel messages, the thread's slot restored; and a generated model
// built with GRT_AOT_HOOKS (hello_world_int8): hooks see every node, and cancel.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "graphrt/aot.h"
#include "graphrt/platform.h"
#include "hooked_hello_world.h"
#include "zoo.h"

namespace {

alignas(16) uint8_t g_workspace[96];

TEST(AotSupport, WorkspacesComeFromTheNodesPlannedBytesAlignedAndLifo) {
  grt_aot_context context;
  grt_aot_enter(&context);
  EXPECT_EQ(TVMBackendAllocWorkspace(1, 0, 8, 0, 8), nullptr) << "no workspace set yet";
  grt_aot_workspace(&context, g_workspace, 64);
  uint8_t* a = static_cast<uint8_t*>(TVMBackendAllocWorkspace(1, 0, 10, 0, 8));
  uint8_t* b = static_cast<uint8_t*>(TVMBackendAllocWorkspace(1, 0, 20, 0, 8));
  EXPECT_EQ(a, g_workspace);
  EXPECT_EQ(b, g_workspace + 16);  // 16-byte aligned, as the interpreter's
  EXPECT_EQ(TVMBackendAllocWorkspace(1, 0, 17, 0, 8), nullptr) << "48 + 17 > 64";
  ASSERT_NE(context.message, nullptr);
  EXPECT_STREQ(context.message, "workspace request exceeds the node's planned workspace");
  EXPECT_EQ(TVMBackendAllocWorkspace(1, 0, 16, 0, 8), g_workspace + 48) << "exactly what is left";
  EXPECT_EQ(TVMBackendFreeWorkspace(1, 0, g_workspace + 48), 0);
  EXPECT_EQ(TVMBackendFreeWorkspace(1, 0, b), 0);
  EXPECT_EQ(TVMBackendFreeWorkspace(1, 0, b), -1) << "already freed";
  EXPECT_EQ(TVMBackendAllocWorkspace(1, 0, 30, 0, 8), g_workspace + 16);
  grt_aot_workspace(&context, g_workspace, 64);  // the next node starts empty
  EXPECT_EQ(TVMBackendAllocWorkspace(1, 0, 64, 0, 8), g_workspace);
  EXPECT_EQ(grt_aot_leave(&context, 0, nullptr), 0);
}

TEST(AotSupport, LeaveRestoresTheSlotAndReportsTheKernelsMessage) {
  void** slot = grt_platform_current_slot();
  int outer = 0;
  *slot = &outer;
  grt_aot_context context;
  grt_aot_enter(&context);
  EXPECT_EQ(*slot, &context);
  TVMAPISetLastError("division by zero");
  const char* message = nullptr;
  EXPECT_EQ(grt_aot_leave(&context, 3, &message), 3);
  EXPECT_STREQ(message, "division by zero");
  EXPECT_EQ(*slot, &outer);
  *slot = nullptr;
  // Outside a run the backend calls have no context: no workspace, messages dropped.
  TVMAPISetLastError("nobody listens");
  EXPECT_EQ(TVMBackendAllocWorkspace(1, 0, 8, 0, 8), nullptr);
  EXPECT_EQ(TVMBackendFreeWorkspace(1, 0, g_workspace), -1);
}

TEST(AotSupport, SuccessLeavesNoMessage) {
  grt_aot_context context;
  grt_aot_enter(&context);
  TVMAPISetLastError("said but not failed");
  const char* message = "unchanged";
  EXPECT_EQ(grt_aot_leave(&context, 0, &message), 0);
  EXPECT_EQ(message, nullptr);
}

struct HookLog {
  std::vector<uint32_t> before;
  std::vector<uint32_t> done;
  uint32_t cancel_at = UINT32_MAX;
};

int before_node(void* user, uint32_t node) {
  auto* log = static_cast<HookLog*>(user);
  log->before.push_back(node);
  return node == log->cancel_at ? 1 : 0;
}

void node_done(void* user, uint32_t node) { static_cast<HookLog*>(user)->done.push_back(node); }

TEST(AotHooks, EveryNodeIsSeenInOrder) {
  GRT_REQUIRE_ZOO(zoo);
  HookLog log;
  const grt_aot_hooks hooks = {before_node, node_done, &log};
  std::memset(hooked_hello_input(0)->data, 0, HOOKED_HELLO_INPUT0_BYTES);
  EXPECT_EQ(hooked_hello_run_hooked(&hooks, nullptr), 0);
  std::vector<uint32_t> all(HOOKED_HELLO_NODE_COUNT);
  for (uint32_t n = 0; n < all.size(); ++n) all[n] = n;
  EXPECT_EQ(log.before, all);
  EXPECT_EQ(log.done, all);
}

TEST(AotHooks, BeforeNodeCancelsBeforeThatNode) {
  GRT_REQUIRE_ZOO(zoo);
  ASSERT_GE(HOOKED_HELLO_NODE_COUNT, 2u);
  HookLog log;
  log.cancel_at = 1;
  const grt_aot_hooks hooks = {before_node, node_done, &log};
  const char* message = "unchanged";
  EXPECT_EQ(hooked_hello_run_hooked(&hooks, &message), -2) << "-(1 + node)";
  EXPECT_EQ(message, nullptr);
  EXPECT_EQ(log.done, std::vector<uint32_t>{0});
  // Without hooks the same image runs through.
  EXPECT_EQ(hooked_hello_run(nullptr), 0);
}

}  // namespace
