// graphrt aot as users run it: the built binary in a child process. Its C and header compile
// as strict C99; what it refuses exits 1 with the loader's message, bad command lines 2.
#include <string>

#include "cli_runner.h"
#include "test_models.h"

namespace grt::test {
namespace {

using CliAot = CliTest;

TEST_F(CliAot, WritesCAndHeaderThatCompileAsStrictC99) {
  write_bytes(path("m.grt"), tools::serialize(copy_chain(2)));
  const CliResult r = run_graphrt({"aot", path("m.grt").string(), "--symbol", "kws", "-o", path("kws.c").string(), "-H",
                                   path("kws.h").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  const std::vector<uint8_t> header = read_bytes(path("kws.h"));
  const std::string header_text(header.begin(), header.end());
  EXPECT_NE(header_text.find("#define KWS_POOL0_BYTES "), std::string::npos) << header_text;
  EXPECT_NE(header_text.find("int kws_run(const char** message);"), std::string::npos);
  const std::vector<uint8_t> source = read_bytes(path("kws.c"));
  EXPECT_NE(std::string(source.begin(), source.end()).find("#include \"kws.h\""), std::string::npos);
  for (const char* hooks : {"-UGRT_AOT_HOOKS", "-DGRT_AOT_HOOKS"}) {
    const CliResult cc = run_program(GRT_HOST_C_COMPILER, {"-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", hooks, "-c",
                                                           "-I" GRT_RUNTIME_INCLUDE_DIR, "-I" GRT_AOT_INCLUDE_DIR,
                                                           "-I" GRT_THIRD_PARTY_INCLUDE_DIR, "-I", dir_.string(), "-o",
                                                           path("kws.o").string(), path("kws.c").string()});
    EXPECT_EQ(cc.exit_code, 0) << hooks << "\n" << cc.out << cc.err;
  }
}

TEST_F(CliAot, WithoutOutputOrHeaderEverythingGoesToStandardOutput) {
  write_bytes(path("m.grt"), tools::serialize(copy_chain(1)));
  const CliResult r = run_graphrt({"aot", path("m.grt").string(), "--symbol", "solo", "--define-pools"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("#define SOLO_POOL0_BYTES "), std::string::npos);
  EXPECT_NE(r.out.find("uint8_t solo_pool0[SOLO_POOL0_BYTES]"), std::string::npos);
  EXPECT_NE(r.out.find("int solo_run(const char** message) {"), std::string::npos);
}

TEST_F(CliAot, ConstantsGoToTheNamedSectionOrToTheSymbolsByDefault) {
  write_bytes(path("m.grt"), tools::serialize(add_constant_f32(-1.0, 1.0)));
  const CliResult by_default = run_graphrt({"aot", path("m.grt").string(), "--symbol", "kws"});
  ASSERT_EQ(by_default.exit_code, 0) << by_default.err;
  EXPECT_NE(by_default.out.find("__attribute__((section(\".rodata.graphrt_aot.kws\"), aligned(16)))"), std::string::npos);
  const CliResult named = run_graphrt({"aot", path("m.grt").string(), "--symbol", "kws", "--section", ".ext_flash.kws$1"});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_NE(named.out.find("__attribute__((section(\".ext_flash.kws$1\"), aligned(16)))"), std::string::npos);
  EXPECT_EQ(named.out.find(".rodata.graphrt_aot"), std::string::npos);
  EXPECT_NE(named.out.find("static const uint8_t kws_c0[16] KWS_CONST = {"), std::string::npos) << named.out;

  for (const char* bad : {"", "a\"b", "sec tion", ".data)"}) {
    const CliResult refused = run_graphrt({"aot", path("m.grt").string(), "--symbol", "kws", "--section", bad});
    EXPECT_EQ(refused.exit_code, 2) << bad;
    EXPECT_TRUE(IsOneLineError(refused, "aot"));
    EXPECT_NE(refused.err.find("is not a section name"), std::string::npos) << refused.err;
  }
}

TEST_F(CliAot, RefusesBadSymbolsAndWhatTheLoaderRefuses) {
  write_bytes(path("m.grt"), tools::serialize(copy_chain(1)));
  const CliResult no_symbol = run_graphrt({"aot", path("m.grt").string()});
  EXPECT_EQ(no_symbol.exit_code, 2);
  EXPECT_TRUE(IsOneLineError(no_symbol, "aot"));
  const CliResult bad_symbol = run_graphrt({"aot", path("m.grt").string(), "--symbol", "a-b"});
  EXPECT_EQ(bad_symbol.exit_code, 2);
  EXPECT_NE(bad_symbol.err.find("is not a C identifier"), std::string::npos) << bad_symbol.err;
  const CliResult bad_header = run_graphrt({"aot", path("m.grt").string(), "--symbol", "m", "-H", path("a\"b.h").string()});
  EXPECT_EQ(bad_header.exit_code, 2);
  EXPECT_NE(bad_header.err.find("cannot be named in an #include"), std::string::npos) << bad_header.err;

  tools::ModelDef too_small = copy_chain(2);
  too_small.pools[0].size = 8;
  grt_error loader{};
  ASSERT_NE(init_status(to_blob(too_small), &loader), GRT_OK);
  write_bytes(path("bad.grt"), tools::serialize(too_small));
  const CliResult refused = run_graphrt({"aot", path("bad.grt").string(), "--symbol", "m", "-o", path("m.c").string()});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(refused, "aot"));
  EXPECT_NE(refused.err.find(loader.message), std::string::npos) << refused.err;
  EXPECT_FALSE(std::filesystem::exists(path("m.c")));

  tools::ModelDef foreign = copy_chain(1);
  foreign.kernels[foreign.nodes[0].kernel] = "my_copy";
  write_bytes(path("foreign.grt"), tools::serialize(foreign));
  const CliResult not_built_in = run_graphrt({"aot", path("foreign.grt").string(), "--symbol", "m"});
  EXPECT_EQ(not_built_in.exit_code, 1);
  EXPECT_NE(not_built_in.err.find("kernel 'my_copy' is not built in"), std::string::npos) << not_built_in.err;
}

}  // namespace
}  // namespace grt::test
