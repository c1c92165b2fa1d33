// The evaluation server driven in-process through the host client: every request, every
// error frame (each names the problem and the numbers), and recovery from noise and
// corrupted frames. The same code runs in graphrt-eval-server on the device.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "client.h"
#include "crc32.h"
#include "graphrt/integrity.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/signing.h"
#include "loopback_link.h"
#include "test_models.h"

namespace grt::test {
namespace {

using std::chrono::milliseconds;
constexpr milliseconds kShort{50};

std::vector<uint8_t> frame(uint8_t command, uint8_t sequence, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> out(GRT_EVAL_HEADER_SIZE + payload.size() + GRT_EVAL_TRAILER_SIZE);
  EXPECT_NE(grt_eval_encode_frame(command, sequence, payload.data(), payload.size(), out.data(), out.size()), 0u);
  return out;
}

std::vector<uint8_t> u32(uint32_t v) { return {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)}; }

std::vector<uint8_t> cat(std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The frames the server sent, decoded: (command, payload).
std::vector<std::pair<uint8_t, std::vector<uint8_t>>> frames_from(const std::vector<uint8_t>& bytes) {
  grt_eval_parser parser;
  grt_eval_parser_init(&parser, GRT_EVAL_MAX_PAYLOAD);
  std::vector<std::pair<uint8_t, std::vector<uint8_t>>> out;
  for (const uint8_t b : bytes) {
    grt_eval_parser_push(&parser, b);
    grt_eval_event e;
    while (grt_eval_parser_next(&parser, &e) != GRT_EVAL_EVENT_NONE) {
      EXPECT_EQ(e.kind, GRT_EVAL_EVENT_FRAME);
      if (e.kind == GRT_EVAL_EVENT_FRAME) out.emplace_back(e.command, std::vector<uint8_t>(e.payload, e.payload + e.length));
    }
  }
  return out;
}

std::string error_text(const std::vector<uint8_t>& payload) {
  return payload.size() > 2 ? std::string(payload.begin() + 2, payload.end()) : "";
}

struct Fixture : ::testing::Test {
  LoopbackServer link;
  device::Client client{&link, kShort};

  void SetUp() override {
    device::Hello hello;
    ASSERT_TRUE(client.hello(&hello)) << client.error();
  }

  // Expects the request to be refused with `code` and a message holding every piece.
  void expect_refused(uint8_t command, const std::vector<uint8_t>& payload, grt_eval_error_code code,
                      const std::vector<std::string>& pieces) {
    std::vector<uint8_t> response;
    EXPECT_FALSE(client.request(command, payload, &response, kShort));
    EXPECT_EQ(client.error_code(), code) << client.error();
    for (const std::string& piece : pieces) EXPECT_NE(client.error().find(piece), std::string::npos) << client.error();
    device::Hello hello;
    EXPECT_TRUE(client.hello(&hello)) << "the server stopped serving: " << client.error();
  }

  void load_copy_chain(device::Loaded* loaded, int copies = 3, int64_t n = 16) {
    const tools::AlignedBytes blob = to_blob(copy_chain(copies, n));
    ASSERT_TRUE(client.load(blob.data(), blob.size(), loaded)) << client.error();
  }
};

TEST(EvalCrc32, MatchesTheStandardCheckValue) {
  EXPECT_EQ(grt_eval_crc32(0, "123456789", 9), 0xCBF43926u);
  EXPECT_EQ(grt_eval_crc32(grt_eval_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);
  EXPECT_EQ(grt_eval_crc32(0, "", 0), 0u);
}

TEST_F(Fixture, HelloNamesTheBoardAndListsEveryBuiltInKernel) {
  device::Hello hello;
  ASSERT_TRUE(client.hello(&hello));
  EXPECT_EQ(hello.protocol_version, GRT_EVAL_PROTOCOL_VERSION);
  EXPECT_EQ(hello.target, "loopback test board");
  EXPECT_EQ(hello.clock_hz, 1000000u);
  EXPECT_EQ(hello.ram_area_bytes, 1u << 20);
  EXPECT_EQ(hello.max_payload, GRT_EVAL_MAX_PAYLOAD);
  const grt_kernel_table* table = grt_builtin_kernels();
  ASSERT_EQ(hello.kernel_count, table->count);
  std::vector<std::string> names;
  ASSERT_TRUE(client.kernels(&names)) << client.error();
  ASSERT_EQ(names.size(), table->count);
  for (size_t k = 0; k < names.size(); ++k) EXPECT_EQ(names[k], table->entries[k].name);
}

TEST_F(Fixture, LoadsRunsAndReadsBackOutputsAndTheReport) {
  const tools::AlignedBytes blob = to_blob(copy_chain(3, 3000));  // input and output span several frames
  device::Loaded loaded;
  size_t progress = 0;
  ASSERT_TRUE(client.load(blob.data(), blob.size(), &loaded, [&](size_t sent) { progress = sent; })) << client.error();
  EXPECT_EQ(progress, blob.size());
  EXPECT_EQ(loaded.inputs, 1u);
  EXPECT_EQ(loaded.outputs, 1u);
  EXPECT_EQ(loaded.nodes, 3u);
  StaticRun reference(blob);
  ASSERT_EQ(reference.status, GRT_OK);
  EXPECT_EQ(loaded.bookkeeping_bytes, reference.requirements.bookkeeping_bytes);
  EXPECT_EQ(loaded.pool_bytes, reference.requirements.pool_bytes[0]);

  std::vector<uint8_t> input(3000);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i * 7 + 1);
  ASSERT_TRUE(client.set_input(0, input.data(), input.size())) << client.error();
  device::RunCycles cycles;
  ASSERT_TRUE(client.run(4, true, &cycles, kShort)) << client.error();
  EXPECT_EQ(cycles.runs, 4u);
  EXPECT_GT(cycles.min, 0u);
  EXPECT_LE(cycles.min, cycles.max);
  EXPECT_GE(cycles.total, 4 * cycles.min);
  std::vector<uint8_t> output;
  ASSERT_TRUE(client.read_output(0, &output)) << client.error();
  EXPECT_EQ(output, input);

  grt_eval_report report{};
  ASSERT_TRUE(client.report(&report)) << client.error();
  EXPECT_EQ(report.runs, 4u);
  EXPECT_EQ(report.profiled_runs, 4u);
  EXPECT_EQ(report.total_cycles, cycles.total);
  EXPECT_EQ(report.node_count, 3u);
  EXPECT_EQ(report.blob_bytes, blob.size());
  EXPECT_EQ(report.bookkeeping_bytes, loaded.bookkeeping_bytes);
  EXPECT_EQ(report.pool_bytes, loaded.pool_bytes);
  EXPECT_EQ(report.input_staging_bytes, 3008u);  // 3000 rounded up to 16
  EXPECT_EQ(report.ram_area_bytes, 1u << 20);
  // The fake counter advances 10 per read: a node is timed by two reads in a row (10
  // cycles); a run spans its start read, two per node and its end read (70 cycles).
  std::vector<uint64_t> nodes;
  ASSERT_TRUE(client.node_cycles(report.node_count, &nodes)) << client.error();
  ASSERT_EQ(nodes.size(), 3u);
  uint64_t node_total = 0;
  for (const uint64_t n : nodes) {
    EXPECT_EQ(n, 4u * 10u);
    node_total += n;
  }
  EXPECT_EQ(node_total, 4u * 3u * 10u);
  EXPECT_EQ(report.profiled_cycles, 4u * 70u);
}

TEST_F(Fixture, InputsAreRestoredBeforeEveryRun) {
  device::Loaded loaded;
  load_copy_chain(&loaded);
  const std::vector<uint8_t> input(16, 9);
  ASSERT_TRUE(client.set_input(0, input.data(), input.size()));
  // Scribble over the input tensor in the executor: the next run must use the copy again.
  std::memset(grt_input(link.server().executor, 0)->data, 0, 16);
  device::RunCycles cycles;
  ASSERT_TRUE(client.run(1, false, &cycles, kShort));
  std::vector<uint8_t> output;
  ASSERT_TRUE(client.read_output(0, &output));
  EXPECT_EQ(output, input);
}

TEST_F(Fixture, UnprofiledRunsLeaveTheNodeProfileAlone) {
  device::Loaded loaded;
  load_copy_chain(&loaded);
  device::RunCycles cycles;
  ASSERT_TRUE(client.run(2, false, &cycles, kShort));
  EXPECT_EQ(cycles.total, 2u * 10u);  // two reads per run, nothing per node
  std::vector<uint64_t> nodes;
  ASSERT_TRUE(client.node_cycles(loaded.nodes, &nodes));
  for (const uint64_t n : nodes) EXPECT_EQ(n, 0u);
}

TEST_F(Fixture, ResetDropsTheModel) {
  device::Loaded loaded;
  load_copy_chain(&loaded);
  ASSERT_TRUE(client.reset()) << client.error();
  expect_refused(GRT_EVAL_RUN, cat(u32(1), u32(0)), GRT_EVAL_ERR_OUT_OF_ORDER, {"RUN before a model is loaded"});
}

TEST_F(Fixture, AFrameWithABadCrcIsRefusedWithBothCrcs) {
  std::vector<uint8_t> bad = frame(GRT_EVAL_HELLO, 7, {});
  bad[bad.size() - 1] ^= 0x40;
  const size_t before = link.sent_by_server().size();
  ASSERT_TRUE(client.send_raw(bad));
  const auto sent = frames_from(std::vector<uint8_t>(link.sent_by_server().begin() + static_cast<long>(before), link.sent_by_server().end()));
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].first, GRT_EVAL_ERROR);
  EXPECT_EQ(grt_eval_get_u16(sent[0].second.data()), GRT_EVAL_ERR_CRC);
  const uint32_t good = grt_eval_get_u32(frame(GRT_EVAL_HELLO, 7, {}).data() + 6);
  char expected[64];
  std::snprintf(expected, sizeof expected, "frame's CRC-32 is 0x%08x, its bytes give 0x%08x", good ^ 0x40000000u, good);
  EXPECT_EQ(error_text(sent[0].second), expected);
  device::Hello hello;
  EXPECT_TRUE(client.hello(&hello)) << client.error();
}

TEST_F(Fixture, ALengthPastTheLimitIsRefusedWithBothNumbers) {
  const size_t before = link.sent_by_server().size();
  ASSERT_TRUE(client.send_raw({GRT_EVAL_SYNC0, GRT_EVAL_SYNC1, GRT_EVAL_LOAD_CHUNK, 3, 0x00, 0x30}));  // 12288
  const auto sent = frames_from(std::vector<uint8_t>(link.sent_by_server().begin() + static_cast<long>(before), link.sent_by_server().end()));
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(grt_eval_get_u16(sent[0].second.data()), GRT_EVAL_ERR_LENGTH);
  EXPECT_EQ(error_text(sent[0].second), "frame length 12288 is past the limit of 2048 bytes");
  device::Hello hello;
  EXPECT_TRUE(client.hello(&hello)) << client.error();
}

TEST_F(Fixture, UnknownCommandsAndWrongPayloadsAreRefused) {
  expect_refused(0x42, {}, GRT_EVAL_ERR_UNKNOWN_COMMAND, {"command 0x00000042 is not a request"});
  expect_refused(GRT_EVAL_HELLO | GRT_EVAL_RESPONSE, {}, GRT_EVAL_ERR_UNKNOWN_COMMAND, {"0x00000081"});
  expect_refused(GRT_EVAL_HELLO, {1, 2, 3}, GRT_EVAL_ERR_PAYLOAD, {"HELLO takes 0 payload bytes, 3 given"});
  expect_refused(GRT_EVAL_LOAD_CHUNK, {1}, GRT_EVAL_ERR_PAYLOAD, {"LOAD_CHUNK takes at least 4 payload bytes, 1 given"});
}

TEST_F(Fixture, RequestsOutOfOrderAreRefused) {
  expect_refused(GRT_EVAL_LOAD_CHUNK, cat(u32(0), {1, 2}), GRT_EVAL_ERR_OUT_OF_ORDER, {"LOAD_CHUNK without LOAD_BEGIN"});
  expect_refused(GRT_EVAL_LOAD_END, u32(0), GRT_EVAL_ERR_OUT_OF_ORDER, {"LOAD_END without LOAD_BEGIN"});
  expect_refused(GRT_EVAL_SET_INPUT, cat(u32(0), u32(0)), GRT_EVAL_ERR_OUT_OF_ORDER, {"SET_INPUT before a model is loaded"});
  expect_refused(GRT_EVAL_READ_OUTPUT, {0, 0, 0, 0, 0, 0, 0, 0, 16, 0}, GRT_EVAL_ERR_OUT_OF_ORDER, {"READ_OUTPUT before"});
  expect_refused(GRT_EVAL_NODE_CYCLES, u32(0), GRT_EVAL_ERR_OUT_OF_ORDER, {"NODE_CYCLES before"});
  std::vector<uint8_t> r;
  ASSERT_TRUE(client.request(GRT_EVAL_LOAD_BEGIN, u32(100), &r, kShort));
  expect_refused(GRT_EVAL_LOAD_CHUNK, cat(u32(8), {1, 2}), GRT_EVAL_ERR_OUT_OF_ORDER,
                 {"chunk of 2 bytes at offset 8, expected offset 0"});
  ASSERT_TRUE(client.request(GRT_EVAL_LOAD_CHUNK, cat(u32(0), std::vector<uint8_t>(60, 1)), &r, kShort));
  expect_refused(GRT_EVAL_LOAD_CHUNK, cat(u32(60), std::vector<uint8_t>(50, 1)), GRT_EVAL_ERR_RANGE,
                 {"chunk of 50 bytes at offset 60 goes past the blob's 100 bytes"});
  expect_refused(GRT_EVAL_RUN, cat(u32(1), u32(0)), GRT_EVAL_ERR_OUT_OF_ORDER, {"RUN while a blob is being loaded"});
  expect_refused(GRT_EVAL_LOAD_END, u32(0), GRT_EVAL_ERR_OUT_OF_ORDER, {"LOAD_END after 60 of the blob's 100 bytes"});
}

TEST_F(Fixture, ABlobBiggerThanTheRamAreaIsRefusedWithBothSizes) {
  expect_refused(GRT_EVAL_LOAD_BEGIN, u32(5u << 20), GRT_EVAL_ERR_TOO_BIG,
                 {"blob of 5242880 bytes does not fit the RAM area of 1048576 bytes"});
  expect_refused(GRT_EVAL_LOAD_BEGIN, u32(0), GRT_EVAL_ERR_RANGE, {"blob of 0 bytes"});
}

TEST(EvalServerMemory, AModelWhosePoolsDoNotFitIsRefusedWithEverySize) {
  LoopbackServer link(8192);
  device::Client client(&link, kShort);
  device::Hello hello;
  ASSERT_TRUE(client.hello(&hello));
  const tools::AlignedBytes blob = to_blob(copy_chain(2, 4000));  // two 4000-byte tensors live at once
  ASSERT_LT(blob.size(), 8192u);
  device::Loaded loaded;
  EXPECT_FALSE(client.load(blob.data(), blob.size(), &loaded));
  EXPECT_EQ(client.error_code(), GRT_EVAL_ERR_TOO_BIG) << client.error();
  EXPECT_NE(client.error().find("bytes of RAM (blob " + std::to_string(blob.size()) + ", bookkeeping "), std::string::npos) << client.error();
  EXPECT_NE(client.error().find("the RAM area has 8192"), std::string::npos) << client.error();
  // Small enough, and the server still serves.
  const tools::AlignedBytes small = to_blob(copy_chain(2, 16));
  EXPECT_TRUE(client.load(small.data(), small.size(), &loaded)) << client.error();
}

TEST_F(Fixture, ABlobTheLoaderRefusesIsReportedWithItsMessage) {
  std::vector<uint8_t> garbage(256, 0x11);
  device::Loaded loaded;
  EXPECT_FALSE(client.load(garbage.data(), garbage.size(), &loaded));
  EXPECT_EQ(client.error_code(), GRT_EVAL_ERR_LOAD) << client.error();
  EXPECT_NE(client.error().find("GRT_ERR_BLOB_IDENTIFIER"), std::string::npos) << client.error();
  expect_refused(GRT_EVAL_RUN, cat(u32(1), u32(0)), GRT_EVAL_ERR_OUT_OF_ORDER, {"before a model is loaded"});
}

TEST_F(Fixture, ABlobCorruptedInTransitIsCaughtByItsCrc) {
  const tools::AlignedBytes blob = to_blob(copy_chain(2, 16));
  std::vector<uint8_t> r;
  ASSERT_TRUE(client.request(GRT_EVAL_LOAD_BEGIN, u32(static_cast<uint32_t>(blob.size())), &r, kShort));
  std::vector<uint8_t> chunk = cat(u32(0), std::vector<uint8_t>(blob.data(), blob.data() + blob.size()));
  ASSERT_TRUE(client.request(GRT_EVAL_LOAD_CHUNK, chunk, &r, kShort));
  const uint32_t crc = grt_eval_crc32(0, blob.data(), blob.size());
  expect_refused(GRT_EVAL_LOAD_END, u32(crc ^ 1u), GRT_EVAL_ERR_CRC, {"blob's CRC-32 is", "LOAD_END says"});
}

// Loads an envelope and runs it: the model inside answers as the bare blob would.
bool load_and_copy(device::Client& client, const std::vector<uint8_t>& envelope) {
  device::Loaded loaded;
  if (!client.load(envelope.data(), envelope.size(), &loaded)) return false;
  const std::vector<uint8_t> input(16, 5);
  device::RunCycles cycles;
  std::vector<uint8_t> output;
  return client.set_input(0, input.data(), input.size()) && client.run(1, false, &cycles, kShort) &&
         client.read_output(0, &output) && output == input;
}

TEST_F(Fixture, EnvelopesAreCheckedAndOpened) {
  const std::vector<uint8_t> model = tools::serialize(copy_chain(2, 16));
  std::vector<uint8_t> unsigned_envelope;
  std::string error;
  ASSERT_TRUE(signing::make_envelope(model, {}, &unsigned_envelope, &error)) << error;
  EXPECT_TRUE(load_and_copy(client, unsigned_envelope)) << client.error();

  std::vector<uint8_t> corrupted = unsigned_envelope;
  corrupted.back() ^= 1;
  device::Loaded loaded;
  EXPECT_FALSE(client.load(corrupted.data(), corrupted.size(), &loaded));
  EXPECT_EQ(client.error_code(), GRT_EVAL_ERR_LOAD);
  EXPECT_NE(client.error().find("GRT_ERR_DIGEST_MISMATCH"), std::string::npos) << client.error();

  signing::KeyPair keys;
  ASSERT_TRUE(signing::generate_key_pair(&keys, &error)) << error;
  std::vector<uint8_t> signed_envelope, der;
  ASSERT_TRUE(signing::sign_model(model, keys.private_key_pem, "bench-1", 3, &signed_envelope, &error)) << error;
  EXPECT_FALSE(client.load(signed_envelope.data(), signed_envelope.size(), &loaded));
  EXPECT_NE(client.error().find("GRT_ERR_UNKNOWN_KEY"), std::string::npos) << client.error();
  ASSERT_TRUE(signing::public_key_der(keys.public_key_pem, &der, &error)) << error;
  const grt_trusted_key key = {"bench-1", der.data(), der.size()};
  const grt_trust_config trust = {&key, 1, 1, 0};
  link.set_trust(&trust);
  EXPECT_TRUE(load_and_copy(client, signed_envelope)) << client.error();
  link.set_trust(nullptr);
}

TEST_F(Fixture, IndicesAndOffsetsOutOfRangeAreRefused) {
  device::Loaded loaded;
  load_copy_chain(&loaded);
  expect_refused(GRT_EVAL_SET_INPUT, cat(cat(u32(1), u32(0)), {1}), GRT_EVAL_ERR_RANGE, {"input 1 asked for, the model has 1"});
  expect_refused(GRT_EVAL_SET_INPUT, cat(cat(u32(0), u32(10)), std::vector<uint8_t>(8, 1)), GRT_EVAL_ERR_RANGE,
                 {"input 0 has 16 bytes, bytes 10 to 18 asked for"});
  expect_refused(GRT_EVAL_READ_OUTPUT, {3, 0, 0, 0, 0, 0, 0, 0, 16, 0}, GRT_EVAL_ERR_RANGE, {"output 3 asked for, the model has 1"});
  expect_refused(GRT_EVAL_READ_OUTPUT, {0, 0, 0, 0, 17, 0, 0, 0, 16, 0}, GRT_EVAL_ERR_RANGE, {"output 0 has 16 bytes, bytes 17"});
  expect_refused(GRT_EVAL_RUN, cat(u32(0), u32(0)), GRT_EVAL_ERR_RANGE, {"RUN of 0 runs: from 1 to 1000000"});
  expect_refused(GRT_EVAL_NODE_CYCLES, u32(9), GRT_EVAL_ERR_RANGE, {"node 9 asked for, the model has 3"});
  expect_refused(GRT_EVAL_KERNELS, u32(100000), GRT_EVAL_ERR_RANGE, {"kernel 100000 asked for"});
}

TEST_F(Fixture, AFrameCutShortIsDroppedWhenTheLinkFallsSilent) {
  const std::vector<uint8_t> whole = frame(GRT_EVAL_HELLO, 9, {});
  ASSERT_TRUE(client.send_raw(std::vector<uint8_t>(whole.begin(), whole.begin() + 7)));
  const size_t before = link.sent_by_server().size();
  grt_eval_server_link_idle(&link.server());
  const auto sent = frames_from(std::vector<uint8_t>(link.sent_by_server().begin() + static_cast<long>(before), link.sent_by_server().end()));
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(grt_eval_get_u16(sent[0].second.data()), GRT_EVAL_ERR_CUT_SHORT);
  EXPECT_EQ(error_text(sent[0].second), "frame cut short: 7 bytes, then silence");
  device::Hello hello;
  EXPECT_TRUE(client.hello(&hello)) << client.error();
}

TEST_F(Fixture, RecoversFromNoiseAndFromAFalseSyncThatSwallowsARealFrame) {
  // Noise with sync bytes in it, then a real request.
  std::vector<uint8_t> noise;
  uint32_t state = 12345;
  for (int i = 0; i < 3000; ++i) {
    state = state * 1103515245u + 12345u;
    noise.push_back(static_cast<uint8_t>(state >> 16));
    if (i % 97 == 0) noise.insert(noise.end(), {GRT_EVAL_SYNC0, GRT_EVAL_SYNC1});
  }
  ASSERT_TRUE(client.send_raw(noise));
  device::Hello hello;
  // Noise may leave a false frame waiting for up to max_payload bytes; the client's retry
  // after a silent answer is what a host does.
  bool answered = client.hello(&hello);
  for (int attempt = 0; attempt < 3 && !answered; ++attempt) answered = client.hello(&hello);
  EXPECT_TRUE(answered) << client.error();

  // A false header announcing 200 bytes, then a whole real frame inside those 200 bytes:
  // when the false frame fails its CRC the parser looks again from just after its sync and
  // finds the real one.
  const size_t before = link.sent_by_server().size();
  std::vector<uint8_t> bytes = {GRT_EVAL_SYNC0, GRT_EVAL_SYNC1, GRT_EVAL_RUN, 1, 200, 0};
  const std::vector<uint8_t> real = frame(GRT_EVAL_HELLO, 77, {});
  bytes.insert(bytes.end(), real.begin(), real.end());
  bytes.resize(6 + 200 + 4, 0x00);
  ASSERT_TRUE(client.send_raw(bytes));
  const auto sent = frames_from(std::vector<uint8_t>(link.sent_by_server().begin() + static_cast<long>(before), link.sent_by_server().end()));
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].first, GRT_EVAL_ERROR);
  EXPECT_EQ(grt_eval_get_u16(sent[0].second.data()), GRT_EVAL_ERR_CRC);
  EXPECT_EQ(sent[1].first, GRT_EVAL_HELLO | GRT_EVAL_RESPONSE);
}

TEST(EvalClient, ASilentDeviceIsAOneLineErrorNotAHang) {
  LoopbackServer link;
  link.silent = true;
  device::Client client(&link, milliseconds(100));
  device::Hello hello;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(client.hello(&hello));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(client.error(), "no answer to HELLO within 0.1 s: the device is silent");
}

}  // namespace
}  // namespace grt::test
