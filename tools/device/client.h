// The host side of graphrt's evaluation protocol (integrations/eval_server/protocol): one
// request at a time over a Link, each answer awaited with a deadline. A device that stays
// silent, closes the link or answers with an error frame makes the call fail with one line
// saying what happened.
#ifndef GRAPHRT_TOOLS_DEVICE_CLIENT_H_
#define GRAPHRT_TOOLS_DEVICE_CLIENT_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "frame_parser.h"
#include "link.h"
#include "protocol.h"

namespace grt::device {

struct Hello {
  uint32_t protocol_version = 0;
  uint32_t max_payload = 0;
  uint32_t clock_hz = 0;
  uint32_t ram_area_bytes = 0;
  uint32_t kernel_count = 0;
  std::string target;
};

struct Loaded {
  uint32_t inputs = 0, outputs = 0, nodes = 0;
  uint32_t bookkeeping_bytes = 0, pool_bytes = 0, ram_used_bytes = 0;
};

struct RunCycles {
  uint32_t runs = 0;
  uint64_t min = 0, max = 0, total = 0;
};

class Client {
 public:
  explicit Client(Link* link, std::chrono::milliseconds timeout = std::chrono::milliseconds(10000))
      : link_(link), timeout_(timeout) {
    grt_eval_parser_init(&parser_, GRT_EVAL_MAX_PAYLOAD);
  }

  // The error of the last call that failed.
  const std::string& error() const { return error_; }
  // The error code of the last error frame (0 when the failure was not one).
  uint16_t error_code() const { return error_code_; }

  // Greets the device; if it stays silent, resyncs once and asks again.
  bool hello(Hello* out);
  // Sends a frame's worth of zeros so that the device's parser drops whatever it was in
  // the middle of (its error frames for that are skipped).
  bool resync();
  bool kernels(std::vector<std::string>* names);
  // Sends the blob in chunks; progress (may be empty) gets the bytes sent so far.
  bool load(const uint8_t* blob, size_t size, Loaded* out, const std::function<void(size_t)>& progress = {});
  bool set_input(uint32_t index, const uint8_t* bytes, size_t size);
  // RUN may take long: its deadline is run_timeout.
  bool run(uint32_t count, bool profile, RunCycles* out, std::chrono::milliseconds run_timeout);
  bool read_output(uint32_t index, std::vector<uint8_t>* bytes);
  bool report(grt_eval_report* out);
  bool node_cycles(uint32_t nodes, std::vector<uint64_t>* cycles);
  bool reset();

  // One request and its response payload (not an error frame). For tests and the above.
  bool request(uint8_t command, const std::vector<uint8_t>& payload, std::vector<uint8_t>* response,
               std::chrono::milliseconds timeout);
  // Sends raw bytes (tests: noise, cut frames).
  bool send_raw(const std::vector<uint8_t>& bytes);

 private:
  bool fail(std::string message);
  int take_answer(uint8_t command, uint8_t sequence, std::vector<uint8_t>* response);
  size_t max_payload() const { return max_payload_; }

  Link* link_;
  std::chrono::milliseconds timeout_;
  grt_eval_parser parser_;
  uint8_t sequence_ = 0;
  size_t max_payload_ = 256;  // until HELLO says more
  std::string error_;
  uint16_t error_code_ = 0;
};

}  // namespace grt::device

#endif  // GRAPHRT_TOOLS_DEVICE_CLIENT_H_
