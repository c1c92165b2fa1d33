// Runs the example of docs/rtos.md (integrations/freertos/examples) in FreeRTOS on a real
// model: every golden case of hello_world_int8 through example_classify, from a task.
// Exit code: 0 pass, 1 fail, 77 skipped (no model zoo).
#include <cstdio>
#include <cstring>
#include <string>

#include "FreeRTOS.h"
#include "task.h"

#include "inference_task_example.h"
#include "zoo.h"
#include "zoo_model.h"

namespace grt::test {
namespace {

struct Run {
  const ZooModel* model;
  int failures = 0;
  int runs = 0;
  StaticTask_t task;
  StackType_t stack[2048];
};

void client(void* parameter) {
  auto* run = static_cast<Run*>(parameter);
  for (const GoldenCase& c : run->model->golden.cases) {
    int8_t score[16] = {};
    const auto* in = reinterpret_cast<const int8_t*>(c.inputs[0].data());
    if (example_classify(in, c.inputs[0].size(), score, sizeof score) != 0 ||
        std::memcmp(score, c.outputs[0].data(), c.outputs[0].size()) != 0) {
      ++run->failures;
    }
    ++run->runs;
  }
  vTaskEndScheduler();
}

int run_test() {
  const auto zoo = model_zoo();
  if (!zoo) {
    std::puts("SKIPPED: model zoo not found: set GRT_MODEL_ZOO to a folder with models/ and golden/");
    return 77;
  }
  ZooModel model;
  std::string error;
  if (!load_zoo_model(*zoo, "hello_world_int8", &model, &error)) {
    std::printf("FAIL: %s\n", error.c_str());
    return 1;
  }
  grt_requirements req{};
  grt_error err{};
  grt_model_requirements(model.blob.data(), model.blob.size(), GRT_STRATEGY_STATIC, &req, &err);
  std::printf("hello_world_int8 needs %zu bytes of bookkeeping and %zu of activations\n", req.bookkeeping_bytes,
              req.pool_bytes[0]);
  if (example_start(model.blob.data(), model.blob.size(), &err) != GRT_OK) {
    std::printf("FAIL: example_start: %s\n", err.message);
    return 1;
  }
  static Run run{&model, 0, 0, {}, {}};
  xTaskCreateStatic(client, "client", 2048, &run, 3, run.stack, &run.task);
  vTaskStartScheduler();
  const bool fed = example_watchdog_feeds() == static_cast<unsigned>(run.runs) * 3;  // hello_world: 3 nodes
  std::printf("%d runs, %d mismatches, %u watchdog feeds\n", run.runs, run.failures, example_watchdog_feeds());
  const bool pass = run.failures == 0 && run.runs == static_cast<int>(model.golden.cases.size()) && fed;
  std::puts(pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}

}  // namespace
}  // namespace grt::test

int main() { return grt::test::run_test(); }
