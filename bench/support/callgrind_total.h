// The instructions a callgrind output file counted while collecting (its "totals:" or
// "summary:" line), or -1: what the instruction benchmarks read back from valgrind.
#ifndef GRAPHRT_BENCH_SUPPORT_CALLGRIND_TOTAL_H_
#define GRAPHRT_BENCH_SUPPORT_CALLGRIND_TOTAL_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

inline long long callgrind_total(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("totals:", 0) == 0 || line.rfind("summary:", 0) == 0) return std::atoll(line.c_str() + line.find(':') + 1);
  }
  return -1;
}

#endif  // GRAPHRT_BENCH_SUPPORT_CALLGRIND_TOTAL_H_
