// graphrt_main never lets an exception out: here the host "runs out of memory" (this test
// binary's aligned operator new refuses 8 GiB and more) while `run` allocates a pool the
// memory limit was raised to allow, and the command ends in one line and exit status 1.
// Its own executable, since it replaces the global aligned operator new.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>

#include "cli.h"
#include "cli_runner.h"
#include "test_models.h"

namespace {
constexpr std::size_t kRefuseFrom = std::size_t{1} << 33;
}  // namespace

void* operator new(std::size_t size, std::align_val_t alignment) {
  const auto align = static_cast<std::size_t>(alignment);
  if (size >= kRefuseFrom) throw std::bad_alloc();
  void* p = std::aligned_alloc(align, (size + align - 1) / align * align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace grt::test {
namespace {

using CliGuard = CliTest;

TEST_F(CliGuard, OutOfMemoryEndsInOneLineAndExitStatus1) {
  tools::ModelDef def = copy_chain(2);
  def.pools[0].size = uint64_t{1} << 34;  // 16 GiB: past what operator new gives here
  const std::string model = write_model("big.grt", def);
  write_bytes(path("x.bin"), std::vector<uint8_t>(16, 1));

  testing::internal::CaptureStderr();
  const int status = cli::graphrt_main({"run", model, "--input", path("x.bin").string(), "--max-memory", "1000000000000"});
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, 1);
  EXPECT_EQ(err, "graphrt: out of memory (std::bad_alloc)\n");
}

}  // namespace
}  // namespace grt::test
