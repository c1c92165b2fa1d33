# cmake -DNM=arm-none-eabi-nm -DIMAGE=fw.elf -DSYMBOL=name -DLINKED=ON|OFF -P symbol_linked.cmake
# Fails unless the linked image defines SYMBOL (LINKED=ON) or does not (LINKED=OFF): what an
# image keeps after --gc-sections, read from its symbol table rather than inferred from sizes.
execute_process(COMMAND "${NM}" --defined-only "${IMAGE}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "symbol check: ${NM} could not read ${IMAGE} (exit ${rc})")
endif()
get_filename_component(name "${IMAGE}" NAME_WE)
set(linked OFF)
if(symbols MATCHES "[ \t][A-Za-z][ \t]${SYMBOL}\n")
  set(linked ON)
endif()
if(LINKED AND NOT linked)
  message(FATAL_ERROR "symbol check: ${name} does not link ${SYMBOL}, which it should")
elseif(NOT LINKED AND linked)
  message(FATAL_ERROR "symbol check: ${name} links ${SYMBOL}, which it should not")
endif()
message(STATUS "symbol check: ${name} ${SYMBOL} linked: ${linked}, as expected")
