// The evaluation server under qemu, through links that fail: run by the cross build's CTest
// (tests/device/qemu) with the server image.
//   eval_qemu_check corrupted-stream IMAGE
//       noise, a false sync that swallows a real frame, a frame cut short and a corrupted
//       frame; the server must answer each with an error frame and go on serving.
//   eval_qemu_check killed-mid-transfer IMAGE BLOB
//       qemu is killed while the blob is being sent: the load must fail with a message
//       saying the link closed and how qemu ended, within seconds, not hang.
// Exit code 0 when everything held, 1 otherwise (what went wrong on stderr).
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "client.h"
#include "qemu_device.h"

namespace {

using namespace grt::device;
using std::chrono::milliseconds;

int failed(const std::string& what) {
  std::fprintf(stderr, "eval_qemu_check: %s\n", what.c_str());
  return 1;
}

std::vector<uint8_t> frame(uint8_t command, uint8_t sequence) {
  std::vector<uint8_t> out(GRT_EVAL_HEADER_SIZE + GRT_EVAL_TRAILER_SIZE);
  grt_eval_encode_frame(command, sequence, nullptr, 0, out.data(), out.size());
  return out;
}

// A HELLO must be answered, allowing a few tries: after noise the server may hold a false
// frame until enough bytes arrive or the link falls silent (2 s of the device's time).
bool hello_answered(Client& client) {
  Hello hello;
  for (int attempt = 0; attempt < 6; ++attempt) {
    if (client.hello(&hello)) return true;
    std::fprintf(stderr, "  (attempt %d: %s)\n", attempt + 1, client.error().c_str());
  }
  return false;
}

int corrupted_stream(const std::string& image) {
  QemuOptions options;
  options.firmware = image;
  QemuDevice qemu;
  std::string error;
  if (!qemu.start(options, &error)) return failed(error);
  Client client(qemu.link(), milliseconds(5000));
  Hello hello;
  if (!client.hello(&hello)) return failed("first HELLO: " + client.error());

  // 1. Noise with sync bytes in it.
  std::vector<uint8_t> noise;
  uint32_t state = 2024;
  for (int i = 0; i < 4000; ++i) {
    state = state * 1664525u + 1013904223u;
    noise.push_back(static_cast<uint8_t>(state >> 24));
    if (i % 101 == 0) noise.insert(noise.end(), {GRT_EVAL_SYNC0, GRT_EVAL_SYNC1});
  }
  if (!client.send_raw(noise)) return failed(client.error());
  if (!hello_answered(client)) return failed("no HELLO answered after noise");

  // 2. A false header announcing 300 bytes with a whole real request inside them.
  std::vector<uint8_t> bytes = {GRT_EVAL_SYNC0, GRT_EVAL_SYNC1, GRT_EVAL_RUN, 200, 0x2C, 0x01};
  const std::vector<uint8_t> real = frame(GRT_EVAL_RESET, 201);
  bytes.insert(bytes.end(), real.begin(), real.end());
  bytes.resize(6 + 300 + 4, 0);
  if (!client.send_raw(bytes)) return failed(client.error());
  if (!hello_answered(client)) return failed("no HELLO answered after a false sync");

  // 3. Half a frame (its header whole), then the next request: the cut frame fails its CRC
  // and the parser finds the request inside it.
  std::vector<uint8_t> half = frame(GRT_EVAL_HELLO, 99);
  half.resize(7);
  if (!client.send_raw(half)) return failed(client.error());
  if (!hello_answered(client)) return failed("no HELLO answered after a frame cut short");

  // 4. A frame with one CRC byte flipped: refused with a CRC error, then served again.
  std::vector<uint8_t> corrupted = frame(GRT_EVAL_HELLO, 0);
  corrupted[corrupted.size() - 2] ^= 0x10;
  if (!client.send_raw(corrupted)) return failed(client.error());
  if (!hello_answered(client)) return failed("no HELLO answered after a corrupted frame");
  std::printf("the server answered after noise, a false sync, a frame cut short and a corrupted frame\n");
  return 0;
}

int killed_mid_transfer(const std::string& image, const std::string& blob_path) {
  std::ifstream in(blob_path, std::ios::binary);
  const std::vector<uint8_t> blob((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (blob.size() < 20000) return failed(blob_path + ": expected a blob of more than 20000 bytes");
  QemuOptions options;
  options.firmware = image;
  QemuDevice qemu;
  std::string error;
  if (!qemu.start(options, &error)) return failed(error);
  Client client(qemu.link(), milliseconds(20000));
  Hello hello;
  if (!client.hello(&hello)) return failed("HELLO: " + client.error());
  Loaded loaded;
  bool killed = false;
  const auto start = std::chrono::steady_clock::now();
  const bool ok = client.load(blob.data(), blob.size(), &loaded, [&](size_t sent) {
    if (!killed && sent > 10000) {
      ::kill(qemu.pid(), SIGKILL);
      killed = true;
    }
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (ok) return failed("the load succeeded although qemu was killed");
  std::string how;
  qemu.exited(&how, milliseconds(1000));
  std::printf("load failed after %.1f s: %s (qemu %s)\n", seconds, client.error().c_str(), how.c_str());
  if (client.error().find("closed") == std::string::npos) return failed("the message does not say the link closed");
  if (how != "killed by signal 9") return failed("qemu should have been killed by signal 9, it " + how);
  if (seconds > 15) return failed("the failure took more than 15 s to be noticed");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 2 && args[0] == "corrupted-stream") return corrupted_stream(args[1]);
  if (args.size() == 3 && args[0] == "killed-mid-transfer") return killed_mid_transfer(args[1], args[2]);
  std::fprintf(stderr, "usage: eval_qemu_check corrupted-stream IMAGE | killed-mid-transfer IMAGE BLOB\n");
  return 2;
}
