// libFuzzer target: the evaluation server's frame parser and state machine, fed what a
// hostile or broken serial link could send. The input is a script of operations, so the
// fuzzer reaches past the CRC: raw bytes (noise, cut frames), well-formed requests with any
// command and payload, the link falling silent, and loading a small valid model so that
// SET_INPUT/RUN/READ_OUTPUT reach a loaded executor. Every byte the server sends back must
// parse as a frame with a good CRC within the size limit; nothing may crash or hang.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "crc32.h"
#include "eval_server.h"
#include "frame_parser.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"
#include "graphrt/tools/planner.h"

namespace {

struct Board {
  grt_eval_board board{};
  grt_eval_parser check{};
  uint64_t cycles = 0;
  grt::tools::AlignedBytes area{64 * 1024};
};

uint64_t board_cycles(void* context) { return static_cast<Board*>(context)->cycles += 3; }

void board_write(void* context, const uint8_t* bytes, size_t size) {
  Board* b = static_cast<Board*>(context);
  if (size > GRT_EVAL_MAX_FRAME) std::abort();
  for (size_t i = 0; i < size; ++i) {
    grt_eval_parser_push(&b->check, bytes[i]);
    grt_eval_event e;
    while (grt_eval_parser_next(&b->check, &e) != GRT_EVAL_EVENT_NONE) {
      if (e.kind != GRT_EVAL_EVENT_FRAME) std::abort();  // the server sent a broken frame
    }
  }
}

// x (int8 [1, 8]) -> copy -> y: a blob the loader accepts.
const std::vector<uint8_t>& small_blob() {
  static const std::vector<uint8_t> blob = [] {
    grt::tools::ModelDef m;
    m.name = "fuzz";
    const uint32_t x = m.add_activation("x", grt::tools::DType::Int8, {1, 8});
    const uint32_t y = m.add_activation("y", grt::tools::DType::Int8, {1, 8});
    m.inputs.push_back(x);
    m.outputs.push_back(y);
    m.add_node("copy", {grt::tools::ArgDef::input(x), grt::tools::ArgDef::output(y)}, "copy");
    grt::tools::plan_default(&m);
    return grt::tools::serialize(m);
  }();
  return blob;
}

void send_frame(grt_eval_server* server, uint8_t command, uint8_t sequence, const uint8_t* payload, size_t size) {
  std::vector<uint8_t> frame(GRT_EVAL_HEADER_SIZE + size + GRT_EVAL_TRAILER_SIZE);
  if (grt_eval_encode_frame(command, sequence, payload, size, frame.data(), frame.size()) == 0) return;
  grt_eval_server_receive(server, frame.data(), frame.size());
}

void load_small_blob(grt_eval_server* server) {
  const std::vector<uint8_t>& blob = small_blob();
  uint8_t p[4];
  grt_eval_put_u32(p, static_cast<uint32_t>(blob.size()));
  send_frame(server, GRT_EVAL_LOAD_BEGIN, 1, p, 4);
  std::vector<uint8_t> chunk(4 + blob.size());
  grt_eval_put_u32(chunk.data(), 0);
  std::copy(blob.begin(), blob.end(), chunk.begin() + 4);
  send_frame(server, GRT_EVAL_LOAD_CHUNK, 2, chunk.data(), chunk.size());
  grt_eval_put_u32(p, grt_eval_crc32(0, blob.data(), blob.size()));
  send_frame(server, GRT_EVAL_LOAD_END, 3, p, 4);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Board b;
  b.board.target = "fuzz";
  b.board.core_clock_hz = 1000;
  b.board.cycles = board_cycles;
  b.board.write = board_write;
  b.board.context = &b;
  b.board.ram_area = b.area.data();
  b.board.ram_area_size = b.area.size();
  b.board.kernels = grt_builtin_kernels();
  grt_eval_parser_init(&b.check, GRT_EVAL_MAX_PAYLOAD);
  static grt_eval_server server;  // 4 KiB of buffers: not on the fuzzer's stack
  grt_eval_server_init(&server, &b.board);

  size_t at = 0;
  while (at < size) {
    const uint8_t op = data[at++];
    const size_t length = at < size ? data[at++] : 0;
    const size_t n = length < size - at ? length : size - at;
    switch (op & 3u) {
      case 0:  // raw bytes
        grt_eval_server_receive(&server, data + at, n);
        break;
      case 1:  // a well-formed request: command, then payload
        if (n >= 1) send_frame(&server, data[at], static_cast<uint8_t>(op), data + at + 1, n - 1);
        break;
      case 2:
        grt_eval_server_link_idle(&server);
        break;
      default:
        load_small_blob(&server);
        break;
    }
    at += n;
  }
  return 0;
}
