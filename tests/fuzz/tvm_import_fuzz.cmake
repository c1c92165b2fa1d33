# The TVM importer's fuzz target (tvm_import_fuzz.cpp), built like the others in this folder:
# a libFuzzer binary under the fuzz preset, a replay of its committed corpus elsewhere.
# Included by CMakeLists.txt before it writes fuzz_targets.txt, so run.sh fuzzes it too.
if(TARGET grt_tvm_importer)
  list(APPEND GRT_FUZZ_TARGETS tvm_import_fuzz)
  if(GRT_FUZZ)
    add_executable(tvm_import_fuzz tvm_import_fuzz.cpp)
    target_link_options(tvm_import_fuzz PRIVATE -fsanitize=fuzzer)
  else()
    add_executable(tvm_import_fuzz tvm_import_fuzz.cpp replay_main.cpp)
    add_test(NAME tvm_import_fuzz_corpus COMMAND tvm_import_fuzz "${CMAKE_CURRENT_SOURCE_DIR}/corpus/tvm_import_fuzz")
  endif()
  target_link_libraries(tvm_import_fuzz PRIVATE grt_tvm_importer grt_planner grt_builder grt_runtime)
  grt_host_code(tvm_import_fuzz)
endif()
