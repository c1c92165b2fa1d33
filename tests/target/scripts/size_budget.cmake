# cmake -DMAP=fw.map -DBUDGET=bytes [-DPART=runtime_core] -P size_budget.cmake
# The CI gate: fails when a part's .text in a linked image grows past its budget.
include("${CMAKE_CURRENT_LIST_DIR}/map_parts.cmake")
if(NOT PART)
  set(PART runtime_core)
endif()
grt_map_parts("${MAP}" image)
set(text ${image_${PART}_text})
get_filename_component(name "${MAP}" NAME_WE)
if(text GREATER BUDGET)
  message(FATAL_ERROR "size budget: ${PART} .text in ${name} is ${text} bytes, over its budget of ${BUDGET} "
          "(GRT_RUNTIME_CORE_TEXT_BUDGET). Shrink it, or raise the budget in review with the reason.")
endif()
message(STATUS "size budget: ${PART} .text in ${name} is ${text} bytes, budget ${BUDGET}: ok")
