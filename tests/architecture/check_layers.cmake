# cmake -DROOT=<source tree> -P check_layers.cmake
# The layering rule of docs/architecture.md, checked on the tree: fails, listing every
# violation, when
#   - a file of a layer includes a header of a layer above it
#     (platform <- allocators <- runtime <- kernels; integrations/ and tools/ are on top),
#   - kernels include the executor's internals (anything of runtime/src),
#   - a device source file (runtime/, allocators/, kernels/, platform/: .cpp .c .h) passes
#     400 lines.
cmake_policy(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P check_layers.cmake")
endif()
set(max_lines 400)
set(layers platform allocators runtime kernels integrations tools)
# What each device layer may include besides itself (public headers; runtime/src is no
# one's but the runtime's).
set(may_include_platform "")
set(may_include_allocators platform)
set(may_include_runtime platform allocators)
set(may_include_kernels platform allocators runtime)
set(device_layers platform allocators runtime kernels)

# Public headers: the path an #include names (relative to an include/ folder) -> layer.
foreach(layer ${layers})
  file(GLOB_RECURSE headers RELATIVE "${ROOT}" "${ROOT}/${layer}/*.h" "${ROOT}/${layer}/*.hpp")
  foreach(header ${headers})
    if(header MATCHES "/include/(.+)$")
      string(MAKE_C_IDENTIFIER "${CMAKE_MATCH_1}" key)
      set(public_${key} ${layer})
    endif()
  endforeach()
endforeach()
# The runtime's internals, named by file name (runtime/src includes them without a folder).
file(GLOB runtime_internals RELATIVE "${ROOT}/runtime/src" "${ROOT}/runtime/src/*.h")

set(violations "")
foreach(layer ${device_layers})
  file(GLOB_RECURSE sources RELATIVE "${ROOT}" "${ROOT}/${layer}/*.c" "${ROOT}/${layer}/*.cpp" "${ROOT}/${layer}/*.h")
  foreach(source ${sources})
    file(STRINGS "${ROOT}/${source}" lines REGEX "^[ \t]*#[ \t]*include")
    # Lines counted as newlines (file(STRINGS) would drop the empty ones).
    file(READ "${ROOT}/${source}" text)
    string(REGEX MATCHALL "\n" newlines "${text}")
    list(LENGTH newlines count)
    if(count GREATER max_lines)
      list(APPEND violations "${source}: ${count} lines, more than ${max_lines} for device code: split it by job")
    endif()
    get_filename_component(dir "${ROOT}/${source}" DIRECTORY)
    foreach(line IN LISTS lines)
      if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\"")
        continue()
      endif()
      set(included "${CMAKE_MATCH_1}")
      if(EXISTS "${dir}/${included}" AND NOT layer STREQUAL "kernels")
        continue()  # a file of its own folder
      endif()
      string(MAKE_C_IDENTIFIER "${included}" key)
      set(owner "${public_${key}}")
      if(NOT owner AND NOT EXISTS "${dir}/${included}")
        list(FIND runtime_internals "${included}" internal)
        if(internal GREATER -1 AND NOT layer STREQUAL "runtime")
          list(APPEND violations "${source}: includes ${included}, the runtime's internals (runtime/src): nothing outside runtime/ may (kernels see only the packed-function ABI and the public API)")
        endif()
        continue()
      endif()
      if(NOT owner OR owner STREQUAL layer)
        continue()
      endif()
      list(FIND may_include_${layer} ${owner} allowed)
      if(allowed LESS 0)
        list(APPEND violations "${source}: includes ${included} of ${owner}/, a layer above ${layer}/ (platform <- allocators <- runtime <- kernels, then integrations and tools)")
      endif()
    endforeach()
  endforeach()
endforeach()

list(LENGTH violations failures)
if(failures GREATER 0)
  string(REPLACE ";" "\n  " listed "${violations}")
  message(FATAL_ERROR "architecture: ${failures} violation(s) of docs/architecture.md:\n  ${listed}")
endif()
message(STATUS "architecture: layers and file sizes as docs/architecture.md says")
