# Warnings are errors everywhere; device code additionally builds without exceptions or RTTI.
function(grt_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Werror)
endfunction()

# Code that runs on the device: runtime/, allocators/, kernels/, platform/.
function(grt_device_code target)
  grt_warnings(${target})
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti -fno-threadsafe-statics>)
endfunction()

# Host tools and tests: all of C++20.
function(grt_host_code target)
  grt_warnings(${target})
  target_compile_features(${target} PRIVATE cxx_std_20)
endfunction()
