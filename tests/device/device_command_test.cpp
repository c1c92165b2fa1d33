// `graphrt device` end to end without qemu: the evaluation server runs in a thread behind a
// pseudo-terminal, so --port goes through the real serial-port code (termios, poll, the
// deadlines). Also the command's usage errors and a silent device.
#include <gtest/gtest.h>
#include <pty.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli.h"
#include "eval_server.h"
#include "graphrt/kernels.h"
#include "test_models.h"

namespace grt::test {
namespace {

struct Result {
  int exit_code;
  std::string out, err;
};

Result graphrt(const std::vector<std::string>& args) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = grt::cli::graphrt_main(args);
  Result r{code, testing::internal::GetCapturedStdout(), testing::internal::GetCapturedStderr()};
  return r;
}

// A pseudo-terminal whose far end is either silent or an evaluation server in a thread.
class PtyDevice {
 public:
  explicit PtyDevice(bool serve) : area_(1u << 20) {
    int slave = -1;
    char name[256];
    EXPECT_EQ(::openpty(&master_, &slave, name, nullptr, nullptr), 0);
    path_ = name;
    ::close(slave);  // graphrt opens it by name
    if (!serve) return;
    board_.target = "pty test board";
    board_.core_clock_hz = 1000000;
    board_.cycle_source = 2;
    board_.cycles = [](void* c) { return static_cast<PtyDevice*>(c)->cycles_ += 7; };
    board_.write = [](void* c, const uint8_t* b, size_t n) {
      const int fd = static_cast<PtyDevice*>(c)->master_;
      while (n > 0) {
        const ssize_t w = ::write(fd, b, n);
        if (w <= 0) return;
        b += w;
        n -= static_cast<size_t>(w);
      }
    };
    board_.context = this;
    board_.ram_area = area_.data();
    board_.ram_area_size = area_.size();
    board_.kernels = grt_builtin_kernels();
    grt_eval_server_init(&server_, &board_);
    thread_ = std::thread([this] {
      uint8_t bytes[256];
      while (!stop_) {
        pollfd p{master_, POLLIN, 0};
        if (::poll(&p, 1, 20) <= 0) continue;
        const ssize_t n = ::read(master_, bytes, sizeof bytes);
        if (n > 0) grt_eval_server_receive(&server_, bytes, static_cast<size_t>(n));
      }
    });
  }
  ~PtyDevice() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    ::close(master_);
  }
  const std::string& path() const { return path_; }

 private:
  int master_ = -1;
  std::string path_;
  tools::AlignedBytes area_;
  grt_eval_board board_{};
  grt_eval_server server_{};
  uint64_t cycles_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

struct DeviceCommand : ::testing::Test {
  std::filesystem::path dir;
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("graphrt-device-test-" + std::to_string(::getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  std::string write(const std::string& name, const std::vector<uint8_t>& bytes) {
    std::ofstream((dir / name).string(), std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return (dir / name).string();
  }
};

TEST_F(DeviceCommand, RunsAModelOverASerialPortAndWritesItsOutputs) {
  PtyDevice device(true);
  const tools::AlignedBytes blob = to_blob(copy_chain(3, 40));
  const std::string model = write("m.grt", std::vector<uint8_t>(blob.data(), blob.data() + blob.size()));
  std::vector<uint8_t> input(40);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(3 * i);
  const std::string in = write("in0.bin", input);
  const Result r = graphrt({"device", "run", model, "--port", device.path(), "--input", in, "--output-dir", (dir / "out").string(),
                            "--repeat", "3", "--profile", "--timeout", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream out((dir / "out" / "out0.bin").string(), std::ios::binary);
  EXPECT_EQ(std::vector<uint8_t>(std::istreambuf_iterator<char>(out), {}), input);
  EXPECT_NE(r.out.find("device: pty test board"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(median of 3)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("profile per node (cycles per run, mean of 3)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("copy2"), std::string::npos) << r.out;

  const Result bench = graphrt({"device", "bench", model, "--port", device.path(), "--repeat", "4", "--json", "--timeout", "5"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_NE(bench.out.find("\"runs\":4"), std::string::npos) << bench.out;
  EXPECT_NE(bench.out.find("\"median\":"), std::string::npos) << bench.out;

  const Result info = graphrt({"device", "info", "--port", device.path(), "--timeout", "5"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("conv2d_s8"), std::string::npos) << info.out;
  const Result memory = graphrt({"device", "info", model, "--port", device.path(), "--json", "--timeout", "5"});
  ASSERT_EQ(memory.exit_code, 0) << memory.err;
  EXPECT_NE(memory.out.find("\"blob_bytes\":" + std::to_string(blob.size())), std::string::npos) << memory.out;
}

// The device resets the model's state before each of the N runs, as graphrt run does: the
// outputs are one run's.
TEST_F(DeviceCommand, EveryRepeatedRunStartsFromTheInitialState) {
  PtyDevice device(true);
  const tools::AlignedBytes blob = to_blob(remembers_last_input());
  const std::string model = write("m.grt", std::vector<uint8_t>(blob.data(), blob.data() + blob.size()));
  const std::string in = write("in0.bin", {9, 9, 9, 9});
  for (const char* repeat : {"1", "3"}) {
    const auto out = dir / ("out" + std::string(repeat));
    const Result r = graphrt({"device", "run", model, "--port", device.path(), "--input", in, "--output-dir", out.string(), "--repeat",
                              repeat, "--timeout", "5"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream bytes((out / "out0.bin").string(), std::ios::binary);
    EXPECT_EQ(std::vector<uint8_t>(std::istreambuf_iterator<char>(bytes), {}), (std::vector<uint8_t>{1, 2, 3, 4})) << "--repeat " << repeat;
  }
}

TEST_F(DeviceCommand, ASilentDeviceIsOneLineAndExitCodeOne) {
  PtyDevice device(false);
  const auto start = std::chrono::steady_clock::now();
  const Result r = graphrt({"device", "info", "--port", device.path(), "--timeout", "1"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "graphrt device info: no answer to HELLO within 1.0 s: the device is silent\n");
}

TEST_F(DeviceCommand, BadCommandLinesAreUsageErrors) {
  EXPECT_EQ(graphrt({"device"}).exit_code, 2);
  EXPECT_EQ(graphrt({"device", "fly"}).err, "graphrt device: 'fly' is not one of info, run, bench (see 'graphrt device --help')\n");
  EXPECT_EQ(graphrt({"device", "info"}).err, "graphrt device info: give either --port DEVICE or --qemu MACHINE (see 'graphrt device info --help')\n");
  EXPECT_EQ(graphrt({"device", "info", "--port", "/dev/null", "--qemu", "mps2-an386"}).exit_code, 2);
  const Result machine = graphrt({"device", "info", "--qemu", "lm3s6965evb"});
  EXPECT_EQ(machine.exit_code, 1);
  EXPECT_NE(machine.err.find("'lm3s6965evb' is not a machine graphrt's server runs on (mps2-an385, mps2-an386, mps2-an500, mps2-an505)"),
            std::string::npos)
      << machine.err;
  // Each board's image comes from its core's preset.
  const Result m33 = graphrt({"device", "info", "--qemu", "mps2-an505", "--firmware", (dir / "none.elf").string()});
  EXPECT_EQ(m33.exit_code, 1);
  EXPECT_NE(m33.err.find("cmake --preset cortex-m33 && cmake --build build/cortex-m33 --target graphrt-eval-server"), std::string::npos)
      << m33.err;
  const Result image = graphrt({"device", "info", "--qemu", "mps2-an386", "--firmware", (dir / "none.elf").string()});
  EXPECT_EQ(image.exit_code, 1);
  EXPECT_NE(image.err.find("no server image at " + (dir / "none.elf").string()), std::string::npos) << image.err;
  const Result port = graphrt({"device", "info", "--port", (dir / "ttyNONE").string()});
  EXPECT_EQ(port.exit_code, 1);
  EXPECT_NE(port.err.find("cannot open"), std::string::npos) << port.err;
  EXPECT_EQ(graphrt({"device", "info", "--port", "/dev/null", "--baud", "12345"}).exit_code, 1);
}

TEST_F(DeviceCommand, InputsAreCheckedBeforeTheDeviceIsContacted) {
  const tools::AlignedBytes blob = to_blob(copy_chain(1, 40));
  const std::string model = write("m.grt", std::vector<uint8_t>(blob.data(), blob.data() + blob.size()));
  const std::string in = write("short.bin", std::vector<uint8_t>(39, 1));
  // The port does not exist: the input's size is what must be reported.
  const Result r = graphrt({"device", "run", model, "--port", (dir / "ttyNONE").string(), "--input", in});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "graphrt device run: " + in + ": input 0 'x' needs 40 bytes, the file has 39\n");
}

}  // namespace
}  // namespace grt::test
