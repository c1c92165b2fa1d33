// The evaluation server in the test's own process, behind a Link: what the client sends is
// handed to grt_eval_server_receive, what the server writes comes back on receive. The
// board has a RAM area in host memory and a fake cycle counter that advances by a fixed
// step on each read.
#ifndef GRAPHRT_TESTS_DEVICE_LOOPBACK_LINK_H_
#define GRAPHRT_TESTS_DEVICE_LOOPBACK_LINK_H_

#include <deque>
#include <string>
#include <vector>

#include "eval_server.h"
#include "graphrt/tools/aligned_bytes.h"
#include "link.h"

namespace grt::test {

class LoopbackServer : public device::Link {
 public:
  explicit LoopbackServer(size_t ram_area_bytes = 1u << 20);
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  bool send(const uint8_t* bytes, size_t size, std::string* error) override;
  long receive(uint8_t* bytes, size_t capacity, std::chrono::milliseconds timeout, std::string* error) override;

  grt_eval_server& server() { return server_; }
  // The trust configuration envelopes are opened with (must outlive the server).
  void set_trust(const grt_trust_config* trust) { board_.trust = trust; }
  // Every frame the server sent so far, raw.
  const std::vector<uint8_t>& sent_by_server() const { return all_written_; }
  uint64_t cycle_reads() const { return cycles_; }
  // When set, the server answers nothing (a dead device).
  bool silent = false;

 private:
  static uint64_t cycles(void* context);
  static void write(void* context, const uint8_t* bytes, size_t size);

  tools::AlignedBytes ram_area_;
  grt_eval_board board_{};
  grt_eval_server server_{};
  std::deque<uint8_t> pending_;
  std::vector<uint8_t> all_written_;
  uint64_t cycles_ = 0;
};

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_DEVICE_LOOPBACK_LINK_H_
