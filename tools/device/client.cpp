#include "client.h"

#include <algorithm>
#include <cstdio>

#include "crc32.h"

namespace grt::device {
namespace {

void put_u32(std::vector<uint8_t>* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

}  // namespace

bool Client::fail(std::string message) {
  error_ = std::move(message);
  return false;
}

bool Client::send_raw(const std::vector<uint8_t>& bytes) {
  std::string error;
  if (!link_->send(bytes.data(), bytes.size(), &error)) return fail(error);
  return true;
}

// Looks through what the parser holds for the answer to `sequence`: 1 found (in *response),
// -1 an error frame (the call has failed), 0 not yet. Answers to earlier requests (after a
// timeout) and damaged frames are skipped.
int Client::take_answer(uint8_t command, uint8_t sequence, std::vector<uint8_t>* response) {
  grt_eval_event event;
  while (grt_eval_parser_next(&parser_, &event) != GRT_EVAL_EVENT_NONE) {
    if (event.kind != GRT_EVAL_EVENT_FRAME || event.sequence != sequence) continue;
    if (event.command == GRT_EVAL_ERROR) {
      error_code_ = event.length >= 2 ? grt_eval_get_u16(event.payload) : 0;
      const std::string message = event.length > 2 ? std::string(reinterpret_cast<const char*>(event.payload) + 2, event.length - 2) : "";
      fail(std::string("the device refused ") + grt_eval_command_name(command) + ": " + message);
      return -1;
    }
    if (event.command != (command | GRT_EVAL_RESPONSE)) continue;
    response->assign(event.payload, event.payload + event.length);
    return 1;
  }
  return 0;
}

bool Client::request(uint8_t command, const std::vector<uint8_t>& payload, std::vector<uint8_t>* response,
                     std::chrono::milliseconds timeout) {
  error_code_ = 0;
  const uint8_t sequence = ++sequence_;
  std::vector<uint8_t> frame(GRT_EVAL_HEADER_SIZE + payload.size() + GRT_EVAL_TRAILER_SIZE);
  if (grt_eval_encode_frame(command, sequence, payload.data(), payload.size(), frame.data(), frame.size()) == 0) {
    return fail(std::string(grt_eval_command_name(command)) + ": payload of " + std::to_string(payload.size()) + " bytes is too long");
  }
  std::string error;
  if (!link_->send(frame.data(), frame.size(), &error)) return fail(std::string(grt_eval_command_name(command)) + ": " + error);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  uint8_t bytes[512];
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%.1f", std::chrono::duration<double>(timeout).count());
      return fail(std::string("no answer to ") + grt_eval_command_name(command) + " within " + seconds + " s: the device is silent");
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now) + std::chrono::milliseconds(1);
    const long n = link_->receive(bytes, sizeof bytes, left, &error);
    if (n < 0) return fail(std::string("waiting for the answer to ") + grt_eval_command_name(command) + ": " + error);
    for (long i = 0; i < n; ++i) {
      grt_eval_parser_push(&parser_, bytes[i]);
      // Drained after every byte: the parser holds one frame at a time.
      const int found = take_answer(command, sequence, response);
      if (found != 0) {
        grt_eval_parser_reset(&parser_);
        return found > 0;
      }
    }
  }
}

bool Client::resync() {
  // Zeros hold no sync byte: they complete any frame the device's parser is waiting on (a
  // false sync in noise, a frame a previous host left half sent), which then fails its CRC.
  const std::vector<uint8_t> zeros(GRT_EVAL_MAX_FRAME, 0);
  if (!send_raw(zeros)) return false;
  grt_eval_parser_reset(&parser_);
  return true;
}

bool Client::hello(Hello* out) {
  std::vector<uint8_t> r;
  // A short first try: a device in the middle of a stale frame answers only after resync().
  const auto first_try = std::min(timeout_, std::chrono::milliseconds(2000));
  if (!request(GRT_EVAL_HELLO, {}, &r, first_try)) {
    if (error_code_ != 0 || !resync() || !request(GRT_EVAL_HELLO, {}, &r, timeout_)) return false;
  }
  if (r.size() < 17 || r.size() < 17u + r[16]) return fail("HELLO: answer of " + std::to_string(r.size()) + " bytes is too short");
  out->protocol_version = grt_eval_get_u16(r.data());
  out->max_payload = grt_eval_get_u16(r.data() + 2);
  out->clock_hz = grt_eval_get_u32(r.data() + 4);
  out->ram_area_bytes = grt_eval_get_u32(r.data() + 8);
  out->kernel_count = grt_eval_get_u32(r.data() + 12);
  out->target.assign(reinterpret_cast<const char*>(r.data()) + 17, r[16]);
  if (out->protocol_version != GRT_EVAL_PROTOCOL_VERSION) {
    return fail("the device speaks protocol version " + std::to_string(out->protocol_version) + ", this graphrt " +
                std::to_string(GRT_EVAL_PROTOCOL_VERSION));
  }
  if (out->max_payload < 64) return fail("the device's frames hold " + std::to_string(out->max_payload) + " bytes, at least 64 are needed");
  max_payload_ = std::min<size_t>(out->max_payload, GRT_EVAL_MAX_PAYLOAD);
  return true;
}

bool Client::kernels(std::vector<std::string>* names) {
  names->clear();
  for (;;) {
    std::vector<uint8_t> payload, r;
    put_u32(&payload, static_cast<uint32_t>(names->size()));
    if (!request(GRT_EVAL_KERNELS, payload, &r, timeout_)) return false;
    if (r.size() < 6) return fail("KERNELS: short answer");
    const uint16_t count = grt_eval_get_u16(r.data() + 4);
    size_t at = 6;
    for (uint16_t k = 0; k < count; ++k) {
      if (at >= r.size() || at + 1 + r[at] > r.size()) return fail("KERNELS: answer cut inside a name");
      names->emplace_back(reinterpret_cast<const char*>(r.data()) + at + 1, r[at]);
      at += 1 + r[at];
    }
    if (count == 0) return true;
  }
}

bool Client::load(const uint8_t* blob, size_t size, Loaded* out, const std::function<void(size_t)>& progress) {
  std::vector<uint8_t> payload, r;
  put_u32(&payload, static_cast<uint32_t>(size));
  if (!request(GRT_EVAL_LOAD_BEGIN, payload, &r, timeout_)) return false;
  const size_t chunk = max_payload() - 4;
  for (size_t offset = 0; offset < size; offset += chunk) {
    const size_t n = std::min(chunk, size - offset);
    payload.clear();
    put_u32(&payload, static_cast<uint32_t>(offset));
    payload.insert(payload.end(), blob + offset, blob + offset + n);
    if (!request(GRT_EVAL_LOAD_CHUNK, payload, &r, timeout_)) {
      return fail(error_ + " (blob bytes " + std::to_string(offset) + " to " + std::to_string(offset + n) + " of " + std::to_string(size) + ")");
    }
    if (progress) progress(offset + n);
  }
  payload.clear();
  put_u32(&payload, grt_eval_crc32(0, blob, size));
  if (!request(GRT_EVAL_LOAD_END, payload, &r, timeout_)) return false;
  if (r.size() < 24) return fail("LOAD_END: short answer");
  out->inputs = grt_eval_get_u32(r.data());
  out->outputs = grt_eval_get_u32(r.data() + 4);
  out->nodes = grt_eval_get_u32(r.data() + 8);
  out->bookkeeping_bytes = grt_eval_get_u32(r.data() + 12);
  out->pool_bytes = grt_eval_get_u32(r.data() + 16);
  out->ram_used_bytes = grt_eval_get_u32(r.data() + 20);
  return true;
}

bool Client::set_input(uint32_t index, const uint8_t* bytes, size_t size) {
  const size_t chunk = max_payload() - 8;
  size_t offset = 0;
  do {
    const size_t n = std::min(chunk, size - offset);
    std::vector<uint8_t> payload, r;
    put_u32(&payload, index);
    put_u32(&payload, static_cast<uint32_t>(offset));
    payload.insert(payload.end(), bytes + offset, bytes + offset + n);
    if (!request(GRT_EVAL_SET_INPUT, payload, &r, timeout_)) return false;
    offset += n;
  } while (offset < size);
  return true;
}

bool Client::run(uint32_t count, bool profile, RunCycles* out, std::chrono::milliseconds run_timeout) {
  std::vector<uint8_t> payload, r;
  put_u32(&payload, count);
  put_u32(&payload, profile ? GRT_EVAL_RUN_PROFILE : 0u);
  if (!request(GRT_EVAL_RUN, payload, &r, run_timeout)) return false;
  if (r.size() < 28) return fail("RUN: short answer");
  out->runs = grt_eval_get_u32(r.data());
  out->min = grt_eval_get_u64(r.data() + 4);
  out->max = grt_eval_get_u64(r.data() + 12);
  out->total = grt_eval_get_u64(r.data() + 20);
  return true;
}

bool Client::read_output(uint32_t index, std::vector<uint8_t>* bytes) {
  bytes->clear();
  const uint16_t chunk = static_cast<uint16_t>(max_payload() - 4);
  for (;;) {
    std::vector<uint8_t> payload, r;
    put_u32(&payload, index);
    put_u32(&payload, static_cast<uint32_t>(bytes->size()));
    payload.push_back(static_cast<uint8_t>(chunk));
    payload.push_back(static_cast<uint8_t>(chunk >> 8));
    if (!request(GRT_EVAL_READ_OUTPUT, payload, &r, timeout_)) return false;
    if (r.size() < 4) return fail("READ_OUTPUT: short answer");
    const uint32_t total = grt_eval_get_u32(r.data());
    bytes->insert(bytes->end(), r.begin() + 4, r.end());
    if (bytes->size() >= total) return true;
    if (r.size() == 4) return fail("READ_OUTPUT: the device sent no bytes at offset " + std::to_string(bytes->size()));
  }
}

bool Client::report(grt_eval_report* out) {
  std::vector<uint8_t> r;
  if (!request(GRT_EVAL_REPORT, {}, &r, timeout_)) return false;
  if (r.size() < GRT_EVAL_REPORT_WIRE_SIZE) return fail("REPORT: short answer");
  const uint8_t* p = r.data();
  out->runs = grt_eval_get_u32(p);
  out->last_cycles = grt_eval_get_u64(p + 4);
  out->min_cycles = grt_eval_get_u64(p + 12);
  out->max_cycles = grt_eval_get_u64(p + 20);
  out->total_cycles = grt_eval_get_u64(p + 28);
  out->profiled_cycles = grt_eval_get_u64(p + 36);
  uint32_t* words[] = {&out->profiled_runs,     &out->node_count,     &out->blob_bytes,
                       &out->bookkeeping_bytes, &out->pool_bytes,     &out->input_staging_bytes,
                       &out->ram_area_bytes,    &out->stack_high_water_bytes,
                       &out->stack_size_bytes,  &out->cycle_source};
  for (size_t w = 0; w < std::size(words); ++w) *words[w] = grt_eval_get_u32(p + 44 + 4 * w);
  return true;
}

bool Client::node_cycles(uint32_t nodes, std::vector<uint64_t>* cycles) {
  cycles->clear();
  while (cycles->size() < nodes) {
    std::vector<uint8_t> payload, r;
    put_u32(&payload, static_cast<uint32_t>(cycles->size()));
    if (!request(GRT_EVAL_NODE_CYCLES, payload, &r, timeout_)) return false;
    if (r.size() < 6) return fail("NODE_CYCLES: short answer");
    const uint16_t count = grt_eval_get_u16(r.data() + 4);
    if (count == 0 || r.size() < 6u + 8u * count) return fail("NODE_CYCLES: short answer");
    for (uint16_t n = 0; n < count; ++n) cycles->push_back(grt_eval_get_u64(r.data() + 6 + 8 * n));
  }
  return true;
}

bool Client::reset() {
  std::vector<uint8_t> r;
  return request(GRT_EVAL_RESET, {}, &r, timeout_);
}

}  // namespace grt::device
