// graphrt keygen / sign / verify end to end through their command functions: files in a
// temporary folder, exit codes 0 / 1 / 2.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "integrity_fixture.h"
#include "zoo.h"

int run_keygen_command(const std::vector<std::string>& args);
int run_sign_command(const std::vector<std::string>& args);
int run_verify_command(const std::vector<std::string>& args);
int run_import_command(const std::vector<std::string>& args);

namespace grt::test {
namespace {

namespace fs = std::filesystem;

class SigningCommands : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("graphrt_signing_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const std::vector<uint8_t> model = small_model();
    std::ofstream(path("m.grt"), std::ios::binary).write(reinterpret_cast<const char*>(model.data()), static_cast<std::streamsize>(model.size()));
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(SigningCommands, KeygenSignVerifyRoundTrip) {
  ASSERT_EQ(run_keygen_command({"--out-private", path("k.pem"), "--out-public", path("p.pem"), "--out-public-der", path("p.der")}), 0);
  struct stat st{};
  ASSERT_EQ(::stat(path("k.pem").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(fs::file_size(path("p.der")), 91u);
  ASSERT_EQ(run_sign_command({path("m.grt"), "--key", path("k.pem"), "--key-id", "prod-1", "--model-version", "7", "-o", path("s.grt")}), 0);
  EXPECT_EQ(run_verify_command({path("s.grt"), "--pubkey", path("p.pem")}), 0);
  EXPECT_EQ(run_verify_command({path("s.grt"), "--pubkey", path("p.pem"), "--key-id", "prod-1", "--min-version", "7"}), 0);
  EXPECT_EQ(run_verify_command({path("s.grt"), "--pubkey", path("p.pem"), "--min-version", "8"}), 1);
  EXPECT_EQ(run_verify_command({path("s.grt"), "--pubkey", path("p.pem"), "--key-id", "dev-7"}), 1);
  EXPECT_EQ(run_verify_command({path("m.grt"), "--pubkey", path("p.pem")}), 1);  // not an envelope
}

TEST_F(SigningCommands, ImportSignsInTheSameStep) {
  GRT_REQUIRE_ZOO(zoo);
  const std::string tflite = (zoo / "models" / "hello_world_int8.tflite").string();
  ASSERT_EQ(run_keygen_command({"--out-private", path("k.pem"), "--out-public", path("p.pem")}), 0);
  ASSERT_EQ(run_import_command({tflite, "-o", path("s.grt"), "--sign", path("k.pem"), "--key-id", "fleet-2", "--model-version", "4"}), 0);
  EXPECT_EQ(run_verify_command({path("s.grt"), "--pubkey", path("p.pem"), "--key-id", "fleet-2", "--min-version", "4"}), 0);
  EXPECT_EQ(run_verify_command({path("s.grt"), "--pubkey", path("p.pem"), "--min-version", "5"}), 1);
  EXPECT_EQ(run_import_command({tflite, "-o", path("t.grt"), "--sign", path("k.pem")}), 2);        // no key id or version
  EXPECT_EQ(run_import_command({tflite, "-o", path("t.grt"), "--key-id", "fleet-2"}), 2);          // key id without --sign
  EXPECT_EQ(run_import_command({tflite, "-o", path("t.grt"), "--sign", path("none.pem"), "--key-id", "a", "--model-version", "1"}), 1);
  EXPECT_FALSE(fs::exists(path("t.grt")));
}

TEST_F(SigningCommands, VerifyWithAnotherKeyFails) {
  ASSERT_EQ(run_keygen_command({"--out-private", path("k.pem"), "--out-public", path("p.pem")}), 0);
  ASSERT_EQ(run_keygen_command({"--out-private", path("k2.pem"), "--out-public", path("p2.pem")}), 0);
  ASSERT_EQ(run_sign_command({path("m.grt"), "--key", path("k.pem"), "--key-id", "prod-1", "--model-version", "1", "-o", path("s.grt")}), 0);
  EXPECT_EQ(run_verify_command({path("s.grt"), "--pubkey", path("p2.pem")}), 1);
}

TEST_F(SigningCommands, KeygenNeverOverwritesAPrivateKey) {
  ASSERT_EQ(run_keygen_command({"--out-private", path("k.pem"), "--out-public", path("p.pem")}), 0);
  std::ifstream before(path("k.pem"));
  const std::string original((std::istreambuf_iterator<char>(before)), std::istreambuf_iterator<char>());
  EXPECT_EQ(run_keygen_command({"--out-private", path("k.pem"), "--out-public", path("p3.pem")}), 1);
  std::ifstream after(path("k.pem"));
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(after)), std::istreambuf_iterator<char>()), original);
}

TEST_F(SigningCommands, UsageErrorsExitTwo) {
  EXPECT_EQ(run_keygen_command({"--out-private", path("k.pem")}), 2);
  ASSERT_EQ(run_keygen_command({"--out-private", path("k.pem"), "--out-public", path("p.pem")}), 0);
  EXPECT_EQ(run_sign_command({path("m.grt"), "--key", path("k.pem"), "--key-id", "prod-1", "-o", path("s.grt")}), 2);
  EXPECT_EQ(run_sign_command({path("m.grt"), "--key", path("k.pem"), "--key-id", "prod-1", "--model-version", "x", "-o", path("s.grt")}), 2);
  EXPECT_EQ(run_sign_command({path("m.grt"), "--key", path("k.pem"), "--key-id", "bad'id", "--model-version", "1", "-o", path("s.grt")}), 2);
  EXPECT_EQ(run_verify_command({path("m.grt")}), 2);
  EXPECT_EQ(run_verify_command({path("m.grt"), "--pubkey", path("p.pem"), "--min-version", "-1"}), 2);
  EXPECT_EQ(run_verify_command({"--help"}), 0);
}

TEST_F(SigningCommands, SignRefusesWhatIsNotALoadableModel) {
  ASSERT_EQ(run_keygen_command({"--out-private", path("k.pem"), "--out-public", path("p.pem")}), 0);
  std::ofstream(path("junk.grt")) << "junk";
  EXPECT_EQ(run_sign_command({path("junk.grt"), "--key", path("k.pem"), "--key-id", "prod-1", "--model-version", "1", "-o", path("s.grt")}), 1);
  EXPECT_FALSE(fs::exists(path("s.grt")));
}

}  // namespace
}  // namespace grt::test
