// A one-line progress indicator on stderr for long work ("run 37/100"), shown only when
// stderr is a terminal so that logs and pipes stay clean. Erased when done.
#ifndef GRAPHRT_TOOLS_CLI_PROGRESS_H_
#define GRAPHRT_TOOLS_CLI_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace grt::cli {

class Progress {
 public:
  Progress(std::string label, uint64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Redraws at most a few times a second: drawing must not cost what it measures.
  void update(uint64_t done);

 private:
  std::string label_;
  uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_PROGRESS_H_
