// Writes the tiny TVM model's graph JSON and params into a folder, for the build-time import
// that graphrt_tvm_model (GraphrtTvm.cmake) makes of it.
#include <cstdio>
#include <fstream>
#include <string>

#include "tiny_model.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tvm_write_tiny_model DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  const auto artifacts = grt::test::tvm::tiny_artifacts();
  std::ofstream(dir + "/tiny_graph.json", std::ios::binary) << artifacts.graph_json;
  std::ofstream params(dir + "/tiny_params.bin", std::ios::binary);
  params.write(reinterpret_cast<const char*>(artifacts.params.data()), static_cast<std::streamsize>(artifacts.params.size()));
  return params.good() ? 0 : 1;
}
