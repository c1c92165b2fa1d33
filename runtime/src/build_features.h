// What a build of the runtime contains. Everything is in by default; a device that only
// uses the static pool and lean arguments (the defaults) can leave the rest out and save
// its code (CMake: GRT_DYNAMIC_MEMORY=OFF, GRT_PREPARED_ARGUMENTS=OFF). grt_init refuses
// what a build left out, with a message saying so.
#ifndef GRAPHRT_BUILD_FEATURES_H_
#define GRAPHRT_BUILD_FEATURES_H_

#ifndef GRT_WITH_DYNAMIC_MEMORY
#define GRT_WITH_DYNAMIC_MEMORY 1  // GRT_STRATEGY_DYNAMIC and GRT_STRATEGY_STACK
#endif
#ifndef GRT_WITH_PREPARED_ARGUMENTS
#define GRT_WITH_PREPARED_ARGUMENTS 1  // GRT_ARGUMENTS_PREPARED
#endif

namespace grt {

constexpr bool kDynamicMemory = GRT_WITH_DYNAMIC_MEMORY != 0;
constexpr bool kPreparedArguments = GRT_WITH_PREPARED_ARGUMENTS != 0;

}  // namespace grt

#endif  // GRAPHRT_BUILD_FEATURES_H_
