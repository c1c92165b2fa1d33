# cmake -DGRAPHRT=graphrt -DBLOB=model.grt -DEXPECTED=macs -P model_macs_check.cmake
# Fails unless grt_model_macs (model_macs.cmake, the size report's MACs and instructions per
# MAC) counts EXPECTED multiply-accumulates for the blob: the figure a test gives, worked
# out by hand from the model's tensor shapes.
include("${CMAKE_CURRENT_LIST_DIR}/model_macs.cmake")
execute_process(COMMAND "${GRAPHRT}" inspect --json "${BLOB}" OUTPUT_VARIABLE json RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "model MACs: ${GRAPHRT} inspect --json ${BLOB} failed (exit ${rc})")
endif()
grt_model_macs("${json}" macs)
get_filename_component(name "${BLOB}" NAME_WE)
if(NOT macs EQUAL EXPECTED)
  message(FATAL_ERROR "model MACs: ${name} counts ${macs}, expected ${EXPECTED}")
endif()
message(STATUS "model MACs: ${name} counts ${macs}, as expected")
