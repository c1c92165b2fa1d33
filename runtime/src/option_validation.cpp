// The options grt_init and the sizing calls accept: a registry, a memory strategy and an
// argument mode this build has, an allocator where the strategy needs one.
#include "executor_internal.h"
#include "message.h"
#include "raw_enum.h"

namespace grt {
namespace {

grt_status validate_raw_modes(uint32_t strategy, uint32_t arguments, grt_error* error) {
  if (strategy <= GRT_STRATEGY_STACK && arguments <= GRT_ARGUMENTS_PREPARED) {
    if (!kDynamicMemory && strategy != GRT_STRATEGY_STATIC) {
      return fail(error, GRT_ERR_ARGUMENT, nullptr, "%s is not in this build of graphrt (GRT_DYNAMIC_MEMORY=OFF)",
                  strategy == GRT_STRATEGY_DYNAMIC ? "GRT_STRATEGY_DYNAMIC" : "GRT_STRATEGY_STACK");
    }
    if (!kPreparedArguments && arguments != GRT_ARGUMENTS_LEAN) {
      return fail(error, GRT_ERR_ARGUMENT, nullptr, "GRT_ARGUMENTS_PREPARED is not in this build of graphrt (GRT_PREPARED_ARGUMENTS=OFF)");
    }
    return GRT_OK;
  }
  return fail(error, GRT_ERR_ARGUMENT, nullptr, "unknown memory strategy %u or argument mode %u", strategy, arguments);
}

}  // namespace

grt_status validate_modes(grt_strategy strategy, grt_arguments arguments, grt_error* error) {
  return validate_raw_modes(raw_enum(strategy), raw_enum(arguments), error);
}

// The options' modes, checked before either enum is loaded.
grt_status validate_option_modes(const grt_options* options, grt_error* error) {
  return validate_raw_modes(raw_enum(options->memory.strategy), raw_enum(options->arguments), error);
}

grt_status validate_options(const grt_options* options, grt_error* error) {
  if (options == nullptr || options->registry == nullptr) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "options and options->registry are required");
  }
  const grt_status s = validate_option_modes(options, error);
  if (s != GRT_OK) return s;
  const grt_memory& m = options->memory;
  if (is_dynamic(m.strategy) && (m.allocator == nullptr || m.allocator->allocate == nullptr || m.allocator->free == nullptr)) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "this memory strategy needs an allocator with allocate and free");
  }
  return GRT_OK;
}

}  // namespace grt
