# Included by tests/target/CMakeLists.txt: the AoT twin of every firmware model. The same
# blob as fw_<model>, written as C by `graphrt aot` (no loader, executor or registry on the
# device: grt_aot serves the kernels' backend calls), run on the same golden cases under
# qemu, bit-exact. `size-report` also writes firmware-aot-report.md: each twin beside its
# interpreter image (tests/target/aot_report.cmake).
set(_aot_harness "${CMAKE_SOURCE_DIR}/tests/aot/target")
set(GRT_AOT_IMAGES "")
set(GRT_AOT_INTERPRETER_IMAGES "")
foreach(model ${GRT_FIRMWARE_MODELS})
  if(NOT TARGET fw_${model})
    continue()
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/models/${model}/aot")
  set(golden "${GRT_MODEL_ZOO}/golden/${model}")
  file(GLOB golden_files "${golden}/case*.bin")
  file(MAKE_DIRECTORY "${dir}")
  # `_blob.c` and `_data.c`: the report's map parts count them as the model and golden data.
  add_custom_command(OUTPUT "${dir}/${model}_aot_blob.c" "${dir}/fw_aot.h"
    COMMAND "${GRT_HOST_GRAPHRT}" aot "${${model}_BLOB}" --symbol fw_aot -o "${dir}/${model}_aot_blob.c" -H "${dir}/fw_aot.h"
    DEPENDS "${${model}_BLOB}" "${GRT_HOST_GRAPHRT}" VERBATIM COMMENT "graphrt aot ${model}")
  add_custom_command(OUTPUT "${dir}/${model}_aot_golden_data.c"
    COMMAND "${CMAKE_COMMAND}" "-DGOLDEN_DIR=${golden}" "-DOUTPUT=${dir}/${model}_aot_golden_data.c"
            -P "${CMAKE_CURRENT_SOURCE_DIR}/aot_golden_data.cmake"
    DEPENDS ${golden_files} "${CMAKE_CURRENT_SOURCE_DIR}/aot_golden_data.cmake" "${_scripts}/c_bytes.cmake"
    VERBATIM COMMENT "golden cases for the AoT twin of ${model}")
  set(target fw_aot_${model})
  add_executable(${target} "${_aot_harness}/aot_main.c" "${dir}/${model}_aot_blob.c" "${dir}/${model}_aot_golden_data.c")
  target_include_directories(${target} PRIVATE "${dir}" "${_aot_harness}")
  target_link_libraries(${target} PRIVATE grt_firmware_support grt_kernels grt_aot)
  grt_firmware_link(${target})
  # Not in GRT_FIRMWARE_IMAGES: the firmware report's RAM columns are the interpreter's
  # (bookkeeping, pools in _data.c); the AoT report below has the twins' own.
  list(APPEND GRT_AOT_IMAGES ${target})
  list(APPEND GRT_AOT_INTERPRETER_IMAGES fw_${model})
  if(NOT model IN_LIST GRT_QEMU_MODELS_SKIPPED)
    add_test(NAME firmware_aot_${model} COMMAND ${GRT_QEMU_COMMAND} $<TARGET_FILE:${target}>)
    set_tests_properties(firmware_aot_${model} PROPERTIES TIMEOUT 300 LABELS firmware)
  endif()
endforeach()

if(GRT_AOT_IMAGES)
  string(REPLACE ";" "," _aot_images "${GRT_AOT_IMAGES}")
  string(REPLACE ";" "," _aot_twins_of "${GRT_AOT_INTERPRETER_IMAGES}")
  add_custom_target(aot-size-report
    COMMAND "${CMAKE_COMMAND}" "-DIMAGE_DIR=${CMAKE_CURRENT_BINARY_DIR}" "-DIMAGES=${_aot_images}"
            "-DINTERPRETER_IMAGES=${_aot_twins_of}" "-DQEMU=${GRT_QEMU_SYSTEM_ARM}" "-DLABEL=${CMAKE_BUILD_TYPE}"
            "-DOUTPUT=${CMAKE_BINARY_DIR}/firmware-aot-report.md" -P "${CMAKE_CURRENT_SOURCE_DIR}/aot_report.cmake"
    DEPENDS ${GRT_AOT_IMAGES} ${GRT_AOT_INTERPRETER_IMAGES}
    VERBATIM USES_TERMINAL)
  # size-report (tests/target/report) is defined after this file is read.
  cmake_language(DEFER CALL add_dependencies size-report aot-size-report)
endif()
