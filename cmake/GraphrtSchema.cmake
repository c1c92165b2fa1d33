# flatc (Debian's flatbuffers-compiler) generates the C++ readers at build time; nothing
# generated is committed.
find_program(GRT_FLATC flatc REQUIRED NO_CMAKE_FIND_ROOT_PATH)
set(GRT_GENERATED_DIR "${CMAKE_BINARY_DIR}/generated")
file(MAKE_DIRECTORY "${GRT_GENERATED_DIR}")

# grt_flatbuffers_schema(<target> <schema.fbs>): an INTERFACE target that provides
# <name>_generated.h.
function(grt_flatbuffers_schema target schema)
  get_filename_component(stem "${schema}" NAME_WE)
  set(header "${GRT_GENERATED_DIR}/${stem}_generated.h")
  add_custom_command(
    OUTPUT "${header}"
    COMMAND "${GRT_FLATC}" --cpp --scoped-enums -o "${GRT_GENERATED_DIR}" "${schema}"
    DEPENDS "${schema}"
    COMMENT "flatc: ${stem}.fbs"
    VERBATIM)
  add_custom_target(${target}_generate DEPENDS "${header}")
  add_library(${target} INTERFACE)
  add_dependencies(${target} ${target}_generate)
  target_include_directories(${target} SYSTEM INTERFACE "${GRT_GENERATED_DIR}")
  target_link_libraries(${target} INTERFACE grt_third_party)
endfunction()

grt_flatbuffers_schema(grt_schema "${CMAKE_SOURCE_DIR}/schema/graphrt.fbs")
