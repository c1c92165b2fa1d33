# Header-only dependencies from Debian packages (libflatbuffers-dev, libdlpack-dev). They are
# exposed through a folder of links that holds nothing else, so a cross build never sees the
# host's /usr/include.
find_path(GRT_FLATBUFFERS_INCLUDE flatbuffers/flatbuffers.h REQUIRED
          HINTS /usr/include NO_CMAKE_FIND_ROOT_PATH)
find_path(GRT_DLPACK_INCLUDE dlpack/dlpack.h REQUIRED HINTS /usr/include NO_CMAKE_FIND_ROOT_PATH)

set(GRT_THIRD_PARTY_INCLUDE "${CMAKE_BINARY_DIR}/third_party_include")
file(MAKE_DIRECTORY "${GRT_THIRD_PARTY_INCLUDE}")
foreach(pair "flatbuffers;${GRT_FLATBUFFERS_INCLUDE}" "dlpack;${GRT_DLPACK_INCLUDE}")
  list(GET pair 0 name)
  list(GET pair 1 root)
  if(NOT EXISTS "${GRT_THIRD_PARTY_INCLUDE}/${name}")
    file(CREATE_LINK "${root}/${name}" "${GRT_THIRD_PARTY_INCLUDE}/${name}" SYMBOLIC)
  endif()
endforeach()

add_library(grt_third_party INTERFACE)
target_include_directories(grt_third_party SYSTEM INTERFACE "${GRT_THIRD_PARTY_INCLUDE}")
