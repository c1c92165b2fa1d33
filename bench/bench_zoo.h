// Where the benchmarks find the model zoo, and reading its files.
#ifndef GRAPHRT_BENCH_BENCH_ZOO_H_
#define GRAPHRT_BENCH_BENCH_ZOO_H_

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace grt::bench {

// The folder given on the command line (may be null), else $GRT_MODEL_ZOO, else the zoo
// the build was configured with.
inline std::filesystem::path zoo_folder(const char* given = nullptr) {
  if (given != nullptr) return given;
  if (const char* env = std::getenv("GRT_MODEL_ZOO")) return env;
  return GRT_DEFAULT_MODEL_ZOO;
}

// A file's bytes (empty when it cannot be read).
inline std::vector<uint8_t> file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace grt::bench

#endif  // GRAPHRT_BENCH_BENCH_ZOO_H_
