# Warnings are errors in the project's presets and CI (GRT_WARNINGS_AS_ERRORS=ON there), never
# forced on a consumer's build, whose compiler may warn where ours does not. Device code
# additionally builds without exceptions or RTTI.
option(GRT_WARNINGS_AS_ERRORS "Treat compiler warnings as errors (on in the project's presets)" OFF)

function(grt_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow)
  if(GRT_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Code that runs on the device: runtime/, allocators/, kernels/, platform/.
function(grt_device_code target)
  grt_warnings(${target})
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti -fno-threadsafe-statics>)
endfunction()

# Host tools and tests: all of C++20.
function(grt_host_code target)
  grt_warnings(${target})
  # GCC 12 at -O3 reports -Wrestrict inside libstdc++'s own std::string operator+ (a false
  # positive on `"t" + std::to_string(i)`, gone in GCC 13): every such concatenation in tools
  # and tests would trip it, so a Release build of the host code does not take that warning.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
  endif()
  target_compile_features(${target} PRIVATE cxx_std_20)
endfunction()
