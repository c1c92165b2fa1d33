// graphrt device info|run|bench: a model on a board (or qemu) running graphrt-eval-server,
// driven over a serial link (tools/device, docs/device.md). Outputs, cycles measured on the
// device, the per-node profile and memory; every wait has a deadline.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../args.h"
#include "../commands.h"
#include "../files.h"
#include "../format.h"
#include "../host_executor.h"
#include "../json.h"
#include "../resource_limits.h"
#include "../model_file.h"
#include "../report.h"
#include "../table.h"
#include "client.h"
#include "qemu_device.h"

namespace grt::cli {
namespace {

const std::vector<OptionSpec> kLinkOptions = {
    {"port", 0, "DEVICE", false, "the board's serial port, e.g. /dev/ttyACM0"},
    {"baud", 0, "N", false, "the serial port's baud rate (default 115200)"},
    {"qemu", 0, "MACHINE", false, "start qemu with the server image instead: mps2-an385, mps2-an386, mps2-an500 or mps2-an505"},
    {"firmware", 0, "IMAGE", false, "the server image for --qemu (default: the cortex-m4 build's graphrt-eval-server.elf)"},
    {"timeout", 0, "SECONDS", false, "how long to wait for any answer; RUN waits this per run (default 30)"},
};

std::vector<OptionSpec> with_link_options(std::vector<OptionSpec> options) {
  options.insert(options.end(), kLinkOptions.begin(), kLinkOptions.end());
  return options;
}

const CommandSpec kInfoSpec{
    "device info", "[M.grt] (--port DEVICE [--baud N] | --qemu MACHINE [--firmware IMAGE]) [--json]",
    "Shows what an evaluation server says about itself, and loads a model if given.",
    "Prints the protocol version, target, core clock, RAM area and the server's kernels. With\n"
    "a model, loads it and prints the memory it takes on the device.",
    {}, with_link_options({{"json", 0, "", false, "print it as JSON"}})};

const CommandSpec kRunSpec{
    "device run",
    "M.grt --input FILE... (--port DEVICE [--baud N] | --qemu MACHINE [--firmware IMAGE]) [--output-dir DIR] [--repeat N] [--profile] [--json]",
    "Runs a blob on a device and reports its outputs, cycles per inference and memory.",
    "As `graphrt run`, but on the device: the blob is sent over the serial link, checked by\n"
    "the device's loader and run on the static pool. Cycles are the device's: DWT's cycle\n"
    "counter, or SysTick at the core clock. Under qemu (-icount shift=0) instructions are\n"
    "shown too: one instruction per nanosecond, so instructions = cycles x 1e9 / clock.",
    {"M.grt"},
    with_link_options({
        {"input", 0, "FILE", true, "a model input's raw bytes; once per input, in order"},
        {"output-dir", 0, "DIR", false, "write outputs to DIR/out<j>.bin (DIR is created)"},
        {"repeat", 0, "N", false, "run N times and report the median cycles (default 1)"},
        {"profile", 0, "", false, "print cycles per node and per kernel"},
        {"json", 0, "", false, "print outputs, cycles and memory as JSON"},
    })};

const CommandSpec kBenchSpec{
    "device bench",
    "M.grt (--port DEVICE [--baud N] | --qemu MACHINE [--firmware IMAGE]) [--input FILE...] [--repeat N] [--json]",
    "Runs a blob on a device many times and prints min/median/max cycles per inference.",
    "Inputs default to zeros.", {"M.grt"},
    with_link_options({
        {"input", 0, "FILE", true, "a model input's raw bytes; once per input, in order"},
        {"repeat", 0, "N", false, "runs (default 20)"},
        {"json", 0, "", false, "print the figures as JSON"},
    })};

// The link the options ask for, open and greeted.
struct Session {
  std::unique_ptr<device::Link> serial;
  std::unique_ptr<device::QemuDevice> qemu;
  std::unique_ptr<device::Client> client;
  device::Hello hello;
  std::chrono::milliseconds timeout{30000};

  bool under_qemu() const { return qemu != nullptr; }
  // The device's error, plus how qemu ended if it did.
  std::string error() const {
    std::string message = client->error();
    std::string how;
    if (qemu != nullptr && qemu->exited(&how, std::chrono::milliseconds(500))) message += " (qemu " + how + ")";
    return message;
  }
};

bool open_session(const CommandSpec& spec, const ParsedArgs& args, Session* s, int* exit_code) {
  uint64_t seconds = 30, baud = 115200;
  if (!numeric_option(spec, args, "timeout", 1, 86400, &seconds) || !numeric_option(spec, args, "baud", 1, 4000000, &baud)) {
    *exit_code = kExitUsage;
    return false;
  }
  s->timeout = std::chrono::milliseconds(seconds * 1000);
  if (args.has("port") == args.has("qemu")) {
    *exit_code = usage_error(spec.name, "give either --port DEVICE or --qemu MACHINE");
    return false;
  }
  std::string error;
  device::Link* link = nullptr;
  if (args.has("port")) {
    s->serial = device::open_serial_port(*args.value("port"), static_cast<uint32_t>(baud), &error);
    link = s->serial.get();
  } else {
    device::QemuOptions options;
    options.machine = *args.value("qemu");
    options.firmware = args.value("firmware").value_or(device::default_firmware_path(options.machine));
    if (const char* qemu = std::getenv("GRT_QEMU"); qemu != nullptr && *qemu != '\0') options.qemu = qemu;
    s->qemu = std::make_unique<device::QemuDevice>();
    if (s->qemu->start(options, &error)) link = s->qemu->link();
  }
  if (link == nullptr) {
    *exit_code = fail(spec.name, error);
    return false;
  }
  s->client = std::make_unique<device::Client>(link, s->timeout);
  if (!s->client->hello(&s->hello)) {
    *exit_code = fail(spec.name, s->error());
    return false;
  }
  return true;
}

double to_instructions(const Session& s, double cycles) {
  return s.hello.clock_hz == 0 ? 0.0 : cycles * 1e9 / static_cast<double>(s.hello.clock_hz);
}

std::string cycles_text(const Session& s, double cycles) {
  char text[96];
  if (s.under_qemu()) {
    std::snprintf(text, sizeof text, "%.0f cycles (%.0f instructions)", cycles, to_instructions(s, cycles));
  } else {
    std::snprintf(text, sizeof text, "%.0f cycles (%s at %.1f MHz)", cycles,
                  format_duration(cycles * 1e9 / std::max(1u, s.hello.clock_hz)).c_str(), s.hello.clock_hz / 1e6);
  }
  return text;
}

// Sends the model file's blob to the device.
bool load_model(const CommandSpec& spec, Session* s, const std::string& path, const ModelFile& file, device::Loaded* loaded,
                int* exit_code) {
  if (!s->client->load(file.blob.data(), file.blob.size(), loaded)) {
    *exit_code = fail(spec.name, path + ": " + s->error());
    return false;
  }
  return true;
}

// Each input from its file (or zeros), checked against the model's sizes before anything
// is sent: a wrong file is found in a moment, not after the blob's transfer.
bool read_inputs(const CommandSpec& spec, const ModelFile& file, const std::vector<std::string>& paths, bool zeros_allowed,
                 std::vector<tools::AlignedBytes>* inputs, int* exit_code) {
  const auto& model = file.model;
  if (paths.size() != model.inputs.size() && !(zeros_allowed && paths.empty())) {
    *exit_code = fail(spec.name, "the model has " + std::to_string(model.inputs.size()) + " input(s), " +
                                     std::to_string(paths.size()) + " --input file(s) given");
    return false;
  }
  for (uint32_t i = 0; i < model.inputs.size(); ++i) {
    const size_t expected = model.tensors[model.inputs[i]].bytes();
    tools::AlignedBytes bytes(expected);
    std::string error;
    if (!paths.empty()) {
      if (!read_file(paths[i], Limits{}.max_input_bytes, &bytes, &error)) {
        *exit_code = fail(spec.name, error);
        return false;
      }
      if (bytes.size() != expected) {
        *exit_code = fail(spec.name, paths[i] + ": input " + std::to_string(i) + " '" + model.tensors[model.inputs[i]].name +
                                         "' needs " + std::to_string(expected) + " bytes, the file has " + std::to_string(bytes.size()));
        return false;
      }
    }
    inputs->push_back(std::move(bytes));
  }
  return true;
}

// One RUN request per inference, so each inference's cycles are known (for medians).
bool run_inferences(const CommandSpec& spec, Session* s, uint64_t repeat, bool profile, std::vector<double>* cycles,
                    int* exit_code) {
  for (uint64_t r = 0; r < repeat; ++r) {
    device::RunCycles run;
    if (!s->client->run(1, profile, &run, s->timeout)) {
      *exit_code = fail(spec.name, "run " + std::to_string(r + 1) + ": " + s->error());
      return false;
    }
    cycles->push_back(static_cast<double>(run.total));
  }
  return true;
}

void memory_json(Json& j, const grt_eval_report& report) {
  j["memory"] = Json{{"blob_bytes", uint64_t{report.blob_bytes}},
                     {"bookkeeping_bytes", uint64_t{report.bookkeeping_bytes}},
                     {"pool_bytes", uint64_t{report.pool_bytes}},
                     {"input_copy_bytes", uint64_t{report.input_staging_bytes}},
                     {"ram_area_bytes", uint64_t{report.ram_area_bytes}},
                     {"stack_high_water_bytes", uint64_t{report.stack_high_water_bytes}},
                     {"stack_bytes", uint64_t{report.stack_size_bytes}}};
}

void device_json(Json& j, const Session& s) {
  j["device"] = Json{{"target", s.hello.target},
                     {"clock_hz", uint64_t{s.hello.clock_hz}},
                     {"ram_area_bytes", uint64_t{s.hello.ram_area_bytes}},
                     {"protocol_version", uint64_t{s.hello.protocol_version}},
                     {"qemu", s.under_qemu()}};
}

void print_memory(const grt_eval_report& r) {
  std::printf("memory: %s: bookkeeping %s, pools %s (blob %s, input copies %s, RAM area %s)\n",
              format_bytes(uint64_t{r.bookkeeping_bytes} + r.pool_bytes).c_str(), format_bytes(r.bookkeeping_bytes).c_str(),
              format_bytes(r.pool_bytes).c_str(), format_bytes(r.blob_bytes).c_str(), format_bytes(r.input_staging_bytes).c_str(),
              format_bytes(r.ram_area_bytes).c_str());
  if (r.stack_size_bytes != 0) {
    std::printf("stack: %s deepest of %s\n", format_bytes(r.stack_high_water_bytes).c_str(), format_bytes(r.stack_size_bytes).c_str());
  }
}

void print_profile(const ModelFile& file, const std::vector<uint64_t>& nodes, uint64_t runs, uint64_t whole) {
  uint64_t total = 0;
  for (const uint64_t n : nodes) total += n;
  const auto share = [&](uint64_t c) { return total == 0 ? 0.0 : 100.0 * static_cast<double>(c) / static_cast<double>(total); };
  std::printf("\nprofile per node (cycles per run, mean of %llu):\n", static_cast<unsigned long long>(runs));
  Table table({{"node", true}, {"name"}, {"kernel"}, {"cycles", true}, {"share", true}});
  for (size_t n = 0; n < nodes.size() && n < file.model.nodes.size(); ++n) {
    const auto& node = file.model.nodes[n];
    char cycles[32], percent[16];
    std::snprintf(cycles, sizeof cycles, "%.0f", static_cast<double>(nodes[n]) / static_cast<double>(runs));
    std::snprintf(percent, sizeof percent, "%.1f%%", share(nodes[n]));
    table.add_row({std::to_string(n), node.name, file.model.kernels[node.kernel], cycles, percent});
  }
  std::fputs(table.text().c_str(), stdout);
  if (whole != 0) std::printf("the nodes add up to %.2f%% of the runs\n", 100.0 * static_cast<double>(total) / static_cast<double>(whole));
}

int device_info(std::vector<std::string> args) {
  int exit_code = kExitOk;
  // The model is an optional positional, which the parser does not know: it goes first.
  std::optional<std::string> model_path;
  if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
    model_path = args[0];
    args.erase(args.begin());
  }
  const auto parsed = parse_or_exit(kInfoSpec, args, &exit_code);
  if (!parsed) return exit_code;
  ModelFile file;
  std::string error;
  if (model_path && !load_model_file(*model_path, Limits{}, &file, &error)) return fail(kInfoSpec.name, error);
  Session s;
  if (!open_session(kInfoSpec, *parsed, &s, &exit_code)) return exit_code;
  std::vector<std::string> kernels;
  if (!s.client->kernels(&kernels)) return fail(kInfoSpec.name, s.error());
  std::optional<grt_eval_report> report;
  if (model_path) {
    device::Loaded loaded;
    if (!load_model(kInfoSpec, &s, *model_path, file, &loaded, &exit_code)) return exit_code;
    report.emplace();
    if (!s.client->report(&*report)) return fail(kInfoSpec.name, s.error());
  }
  if (parsed->has("json")) {
    Json j = Json::object();
    device_json(j, s);
    j["kernels"] = kernels;
    if (report) memory_json(j, *report);
    std::printf("%s\n", json_text(j).c_str());
    return kExitOk;
  }
  std::printf("device: %s\nprotocol: version %u, frames of up to %u bytes\ncore clock: %.3f MHz\nRAM area: %s\nkernels (%zu):",
              s.hello.target.c_str(), s.hello.protocol_version, s.hello.max_payload, s.hello.clock_hz / 1e6,
              format_bytes(s.hello.ram_area_bytes).c_str(), kernels.size());
  for (size_t k = 0; k < kernels.size(); ++k) std::printf("%s%s", k % 6 == 0 ? "\n  " : " ", kernels[k].c_str());
  std::printf("\n");
  if (report) print_memory(*report);
  return kExitOk;
}

int device_run_or_bench(const CommandSpec& spec, bool bench, const std::vector<std::string>& args) {
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(spec, args, &exit_code);
  if (!parsed) return exit_code;
  uint64_t repeat = bench ? 20 : 1;
  if (!numeric_option(spec, *parsed, "repeat", 1, 1000000, &repeat)) return kExitUsage;
  const bool profile = parsed->has("profile");
  const std::string& path = parsed->positionals()[0];
  ModelFile file;
  std::string error;
  if (!load_model_file(path, Limits{}, &file, &error)) return fail(spec.name, error);
  std::vector<tools::AlignedBytes> inputs;
  if (!read_inputs(spec, file, parsed->values("input"), bench, &inputs, &exit_code)) return exit_code;
  Session s;
  if (!open_session(spec, *parsed, &s, &exit_code)) return exit_code;
  device::Loaded loaded;
  if (!load_model(spec, &s, path, file, &loaded, &exit_code)) return exit_code;
  for (uint32_t i = 0; i < inputs.size(); ++i) {
    if (!s.client->set_input(i, inputs[i].data(), inputs[i].size())) return fail(spec.name, s.error());
  }
  std::vector<double> cycles;
  if (!run_inferences(spec, &s, repeat, profile, &cycles, &exit_code)) return exit_code;
  grt_eval_report report{};
  if (!s.client->report(&report)) return fail(spec.name, s.error());
  std::vector<uint64_t> nodes;
  if (profile && !s.client->node_cycles(report.node_count, &nodes)) return fail(spec.name, s.error());

  // Outputs' dtypes and shapes, as the host's runtime lays them out.
  HostExecutor host;
  if (!bench && !host.init(file.blob, HostExecutor::Options{}, &error)) return fail(spec.name, path + ": " + error);
  std::vector<std::vector<uint8_t>> outputs(bench ? 0 : loaded.outputs);
  for (uint32_t o = 0; o < outputs.size(); ++o) {
    if (!s.client->read_output(o, &outputs[o])) return fail(spec.name, s.error());
  }
  const std::optional<std::string> output_dir = parsed->value("output-dir");
  std::vector<std::string> written(outputs.size());
  if (output_dir) {
    std::error_code ec;
    std::filesystem::create_directories(*output_dir, ec);
    if (ec) return fail(spec.name, *output_dir + ": cannot create folder (" + ec.message() + ")");
    for (uint32_t o = 0; o < outputs.size(); ++o) {
      written[o] = (std::filesystem::path(*output_dir) / ("out" + std::to_string(o) + ".bin")).string();
      if (!write_file(written[o], outputs[o].data(), outputs[o].size(), &error)) return fail(spec.name, error);
    }
  }
  const double med = median(cycles);
  const double lo = *std::min_element(cycles.begin(), cycles.end());
  const double hi = *std::max_element(cycles.begin(), cycles.end());

  if (parsed->has("json")) {
    Json j = Json::object();
    device_json(j, s);
    Json output_list = Json::array();
    for (uint32_t o = 0; o < outputs.size(); ++o) {
      output_list.push_back(Json{{"name", file.model.tensors[file.model.outputs[o]].name},
                                 {"bytes", uint64_t{outputs[o].size()}},
                                 {"path", written[o].empty() ? Json(nullptr) : Json(written[o])}});
    }
    j["outputs"] = output_list;
    j["runs"] = repeat;
    j["cycles_per_run"] = Json{{"min", lo}, {"median", med}, {"max", hi}};
    if (s.under_qemu()) j["instructions_per_run"] = to_instructions(s, med);
    if (profile) {
      Json node_list = Json::array();
      for (size_t n = 0; n < nodes.size(); ++n) {
        node_list.push_back(Json{{"node", uint64_t{n}}, {"kernel", file.model.kernels[file.model.nodes[n].kernel]}, {"cycles", nodes[n]}});
      }
      j["nodes"] = node_list;
      j["profiled_cycles"] = report.profiled_cycles;
    }
    memory_json(j, report);
    std::printf("%s\n", json_text(j).c_str());
    return kExitOk;
  }
  std::printf("device: %s\n", s.hello.target.c_str());
  for (uint32_t o = 0; o < outputs.size(); ++o) {
    const std::string label = "output " + std::to_string(o) + " '" + file.model.tensors[file.model.outputs[o]].name + "'";
    if (!written[o].empty()) {
      std::printf("%s -> %s (%zu bytes)\n", label.c_str(), written[o].c_str(), outputs[o].size());
    } else {
      const DLTensor* t = grt_output(host.get(), o);
      std::printf("%s %s %s: %s\n", label.c_str(), format_dtype(t->dtype).c_str(),
                  format_shape(std::vector<int64_t>(t->shape, t->shape + t->ndim)).c_str(),
                  format_values(outputs[o].data(), outputs[o].size(), t->dtype, 16).c_str());
    }
  }
  if (bench) {
    std::printf("per inference over %llu runs: min %s, median %s, max %s\n", static_cast<unsigned long long>(repeat),
                cycles_text(s, lo).c_str(), cycles_text(s, med).c_str(), cycles_text(s, hi).c_str());
  } else {
    std::printf("per inference: %s (median of %llu)\n", cycles_text(s, med).c_str(), static_cast<unsigned long long>(repeat));
  }
  print_memory(report);
  if (profile) print_profile(file, nodes, report.profiled_runs, report.profiled_cycles);
  return kExitOk;
}

}  // namespace
}  // namespace grt::cli

int run_device_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  const std::string sub = args.empty() ? "" : args[0];
  const std::vector<std::string> rest = args.empty() ? args : std::vector<std::string>(args.begin() + 1, args.end());
  if (sub == "info") return device_info(rest);
  if (sub == "run") return device_run_or_bench(kRunSpec, false, rest);
  if (sub == "bench") return device_run_or_bench(kBenchSpec, true, rest);
  if (sub == "--help" || sub == "-h") {
    std::printf("usage: graphrt device info|run|bench ... (graphrt device SUBCOMMAND --help)\n\n%s\n%s\n%s\n",
                help_text(kInfoSpec).c_str(), help_text(kRunSpec).c_str(), help_text(kBenchSpec).c_str());
    return kExitOk;
  }
  return usage_error("device", sub.empty() ? "give a subcommand: info, run or bench" : "'" + sub + "' is not one of info, run, bench");
}
