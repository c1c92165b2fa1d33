// graphrt bin2c: the C text, and proof that it compiles as C99 with warnings as errors and
// puts the exact blob, aligned, where the firmware expects it.
#include <fstream>

#include "cli_runner.h"
#include "test_models.h"

namespace grt::test {
namespace {

using CliBin2c = CliTest;

// Links the generated array and checks, at run time, its alignment, size and bytes
// against a copy of the blob the test passes in as a second C array.
const char* const kCheckProgram = R"(#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
extern const unsigned char my_model[];
extern const size_t my_model_size;
extern const unsigned char expected[];
extern const size_t expected_size;
int main(void) {
  if (((uintptr_t)my_model) % 16 != 0) { puts("misaligned"); return 1; }
  if (my_model_size != expected_size) { puts("size differs"); return 1; }
  if (memcmp(my_model, expected, expected_size) != 0) { puts("bytes differ"); return 1; }
  puts("ok");
  return 0;
}
)";

TEST_F(CliBin2c, WritesAlignedArrayInDefaultSection) {
  const std::vector<uint8_t> blob = tools::serialize(copy_chain(2));
  write_bytes(path("m.grt"), blob);
  const CliResult r = run_graphrt({"bin2c", path("m.grt").string(), "--symbol", "my_model"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("__attribute__((aligned(16), section(\".rodata.graphrt_model\"), used))"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("const unsigned char my_model[" + std::to_string(blob.size()) + "] = {"), std::string::npos);
  EXPECT_NE(r.out.find("const size_t my_model_size = " + std::to_string(blob.size()) + ";"), std::string::npos);
  EXPECT_NE(r.out.find("0x47, 0x52, 0x54, 0x31"), std::string::npos);  // "GRT1"
}

TEST_F(CliBin2c, OutputCompilesAsStrictC99AndHoldsTheExactBlobAligned) {
  const std::vector<uint8_t> blob = tools::serialize(copy_chain(3));
  write_bytes(path("m.grt"), blob);
  const auto c_file = path("model.c");
  const CliResult r = run_graphrt({"bin2c", path("m.grt").string(), "--symbol", "my_model", "--section", ".flash.models", "-o", c_file.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");  // with -o nothing goes to stdout
  // The reference copy, written independently of bin2c.
  {
    std::ofstream expected(path("expected.c"));
    expected << "#include <stddef.h>\nextern const unsigned char expected[];\nextern const size_t expected_size;\n"
             << "const unsigned char expected[] = {";
    for (const uint8_t b : blob) expected << static_cast<int>(b) << ",";
    expected << "};\nconst size_t expected_size = sizeof expected;\n";
    std::ofstream(path("main.c")) << kCheckProgram;
  }
  const auto program = path("check");
  const CliResult cc = run_program(GRT_HOST_C_COMPILER, {"-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-o", program.string(),
                                                         c_file.string(), path("expected.c").string(), path("main.c").string()});
  ASSERT_EQ(cc.exit_code, 0) << cc.out << cc.err;
  const CliResult check = run_program(program.string(), {});
  EXPECT_EQ(check.exit_code, 0);
  EXPECT_EQ(check.out, "ok\n");
  // And the object file carries the section that was asked for.
  const CliResult object = run_program(GRT_HOST_C_COMPILER, {"-std=c99", "-c", "-o", path("model.o").string(), c_file.string()});
  ASSERT_EQ(object.exit_code, 0) << object.err;
  const std::vector<uint8_t> bytes = read_bytes(path("model.o"));
  EXPECT_NE(std::string(bytes.begin(), bytes.end()).find(".flash.models"), std::string::npos);
}

TEST_F(CliBin2c, RefusesBadSymbolsAndSections) {
  write_bytes(path("m.grt"), tools::serialize(copy_chain(1)));
  const std::string model = path("m.grt").string();
  const CliResult no_symbol = run_graphrt({"bin2c", model});
  EXPECT_EQ(no_symbol.exit_code, 2);
  EXPECT_TRUE(IsOneLineError(no_symbol, "bin2c"));
  EXPECT_NE(no_symbol.err.find("--symbol NAME is required"), std::string::npos) << no_symbol.err;
  for (const char* symbol : {"1model", "my-model", "a b", ""}) {
    const CliResult r = run_graphrt({"bin2c", model, "--symbol", symbol});
    EXPECT_EQ(r.exit_code, 2) << symbol;
    EXPECT_NE(r.err.find("is not a C identifier"), std::string::npos) << r.err;
  }
  for (const char* section : {"a\"b", "a b", "a\\b", ""}) {
    const CliResult r = run_graphrt({"bin2c", model, "--symbol", "m", "--section", section});
    EXPECT_EQ(r.exit_code, 2) << section;
    EXPECT_NE(r.err.find("is not a section name"), std::string::npos) << r.err;
  }
}

TEST_F(CliBin2c, RefusesWhatTheDeviceWouldRefuse) {
  write_bytes(path("junk.grt"), std::vector<uint8_t>(100, 0x5a));
  const CliResult r = run_graphrt({"bin2c", path("junk.grt").string(), "--symbol", "m", "-o", path("out.c").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "bin2c"));
  EXPECT_NE(r.err.find("junk.grt: not a graphrt model"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(path("out.c")));
}

TEST_F(CliBin2c, UnwritableOutputIsNamed) {
  write_bytes(path("m.grt"), tools::serialize(copy_chain(1)));
  const std::string out = path("no_such_dir/out.c").string();
  const CliResult r = run_graphrt({"bin2c", path("m.grt").string(), "--symbol", "m", "-o", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "bin2c"));
  EXPECT_NE(r.err.find(out + ": cannot create"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace grt::test
