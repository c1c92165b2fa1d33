// Converters for TFLM's signal library (the audio front end), custom operators registered
// by name: SignalWindow, SignalFftAutoScale, SignalRfft, SignalEnergy, SignalFilterBank,
// SignalFilterBankSquareRoot, SignalFilterBankSpectralSubtraction, SignalPCAN and
// SignalFilterBankLog, and SignalIrfft. Their options are a FlexBuffers map in custom_options; their uint32
// and uint64 tensors are carried as int32 / int64 words (kernels/src/signal/). The stateful
// Delay, Framer, Stacker and OverlapAdd are in signal_stream_ops.cpp.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <string>
#include <vector>

#include "signal_common.h"

namespace grt::tools {
namespace {

using namespace grt::tools::signal;

bool convert_window(ImportContext& ctx) {
  if (!expect_counts(ctx, 2, 1)) return false;
  SignalOptions options(ctx);
  int64_t shift = 0;
  if (!options.integer("shift", 0, 31, &shift)) return false;
  if (!expect_type(ctx, ctx.input_index(0), TensorType::INT16, "input") ||
      !expect_type(ctx, ctx.input_index(1), TensorType::INT16, "window") ||
      !expect_type(ctx, ctx.output_index(0), TensorType::INT16, "output")) {
    return false;
  }
  ctx.add_node("signal_window", {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0)), ArgDef::integer(shift)});
  return ctx.error().empty();
}

bool convert_fft_auto_scale(ImportContext& ctx) {
  if (!expect_counts(ctx, 1, 2)) return false;
  if (!expect_type(ctx, ctx.input_index(0), TensorType::INT16, "input") ||
      !expect_type(ctx, ctx.output_index(0), TensorType::INT16, "output") ||
      !expect_type(ctx, ctx.output_index(1), TensorType::INT32, "scale_bits")) {
    return false;
  }
  ctx.add_node("signal_fft_auto_scale", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::output(ctx.output(1))});
  return ctx.error().empty();
}

// kiss_fft's factoring of the inner FFT length: fours first, then twos, then odd primes.
std::vector<int32_t> fft_stages(int64_t n) {
  std::vector<int32_t> stages;
  int64_t p = 4;
  while (n > 1) {
    while (n % p != 0) {
      p = p == 4 ? 2 : (p == 2 ? 3 : p + 2);
      if (p * p > n) p = n;  // no factor up to sqrt(n): n is prime
    }
    n /= p;
    stages.push_back(static_cast<int32_t>(p));
    stages.push_back(static_cast<int32_t>(n));
  }
  return stages;
}

// kiss_fft's twiddles: in fixed point floor(0.5 + max * cos/sin(phase)) with max 32767 or
// 2^31 - 1, in float32 the rounded cos/sin.
template <typename T>
void push_twiddle(std::vector<T>& table, double phase) {
  if constexpr (std::is_floating_point_v<T>) {
    table.push_back(static_cast<T>(std::cos(phase)));
    table.push_back(static_cast<T>(std::sin(phase)));
  } else {
    constexpr double kMax = static_cast<double>(std::numeric_limits<T>::max());
    table.push_back(static_cast<T>(std::floor(0.5 + kMax * std::cos(phase))));
    table.push_back(static_cast<T>(std::floor(0.5 + kMax * std::sin(phase))));
  }
}

template <typename T>
std::vector<uint8_t> twiddle_bytes(int64_t n, double sign) {
  std::vector<T> twiddles;
  constexpr double kPi = 3.141592653589793238462643383279502884197169399375105820974944;
  for (int64_t i = 0; i < n; ++i) push_twiddle(twiddles, sign * -2 * kPi * static_cast<double>(i) / static_cast<double>(n));
  for (int64_t i = 0; i < n / 2; ++i) {
    push_twiddle(twiddles, sign * -3.14159265358979323846264338327 * (static_cast<double>(i + 1) / static_cast<double>(n) + .5));
  }
  std::vector<uint8_t> bytes(twiddles.size() * sizeof(T));
  std::memcpy(bytes.data(), twiddles.data(), bytes.size());
  return bytes;
}

// The kiss_fft fixed-point tables of an (inverse) real FFT of fft_length 2^k: the
// twiddles of the inner complex FFT of N = fft_length / 2, then the N / 2 super twiddles,
// as constants; the stage table; or a failure naming what does not fit.
struct FftTables {
  uint32_t twiddles = 0;
  uint32_t stages = 0;
};

bool fft_tables(ImportContext& ctx, int64_t fft_length, bool inverse, DType dtype, FftTables* tables) {
  if (fft_length % 2 != 0) return ctx.fail("fft_length " + std::to_string(fft_length) + " is odd");
  const int64_t n = fft_length / 2;
  const std::vector<int32_t> stages = fft_stages(n);
  for (size_t s = 0; s < stages.size(); s += 2) {
    if (stages[s] != 2 && stages[s] != 4) {
      return ctx.fail("fft_length " + std::to_string(fft_length) + " needs a radix-" + std::to_string(stages[s]) +
                      " stage; graphrt's FFTs take fft_length = 2^k");
    }
  }
  if (!ctx.fits_written(static_cast<uint64_t>(3 * n) * dtype_bytes(dtype) + stages.size() * sizeof(int32_t), "its FFT tables")) {
    return false;
  }
  // kiss_fft's inverse tables turn every phase the other way.
  const double sign = inverse ? -1.0 : 1.0;
  std::vector<uint8_t> bytes = dtype == DType::Float32 ? twiddle_bytes<float>(n, sign)
                               : dtype == DType::Int32 ? twiddle_bytes<int32_t>(n, sign)
                                                       : twiddle_bytes<int16_t>(n, sign);
  const std::string name = ctx.op_name();
  tables->twiddles = ctx.constant(name + " twiddles", dtype, {3 * n}, std::move(bytes));
  tables->stages = ctx.int_array(name + " stages", stages);
  return true;
}

// TFLM's FFTs take T = int16, int32 or float32: the tensors' dtype, or none.
std::optional<DType> fft_dtype(ImportContext& ctx, int64_t type, const char* op) {
  const auto tensor_type = static_cast<TensorType>(type);
  if (tensor_type == TensorType::INT16) return DType::Int16;
  if (tensor_type == TensorType::INT32) return DType::Int32;
  if (tensor_type == TensorType::FLOAT32) return DType::Float32;
  ctx.fail("T is " + std::to_string(type) + "; TFLM's " + op + " takes int16, int32 and float32");
  return std::nullopt;
}

const char* fft_kernel(bool inverse, DType dtype) {
  static const char* const kNames[2][3] = {{"signal_rfft_s16", "signal_rfft_s32", "signal_rfft_f32"},
                                           {"signal_irfft_s16", "signal_irfft_s32", "signal_irfft_f32"}};
  return kNames[inverse ? 1 : 0][dtype == DType::Int16 ? 0 : (dtype == DType::Int32 ? 1 : 2)];
}

bool convert_rfft(ImportContext& ctx) {
  if (!expect_counts(ctx, 1, 1)) return false;
  SignalOptions options(ctx);
  int64_t type = 0;
  int64_t fft_length = 0;
  if (!options.integer("T", INT32_MIN, INT32_MAX, &type) || !options.integer("fft_length", 4, 1 << 20, &fft_length)) return false;
  const std::optional<DType> dtype = fft_dtype(ctx, type, "RFFT");
  if (!dtype) return false;
  const auto tensor_type = static_cast<TensorType>(type);
  if (!expect_type(ctx, ctx.input_index(0), tensor_type, "input") || !expect_type(ctx, ctx.output_index(0), tensor_type, "output")) {
    return false;
  }
  const int64_t n = fft_length / 2;
  const std::vector<int64_t> in_shape = ctx.shape(ctx.input_index(0));
  const std::vector<int64_t> out_shape = ctx.shape(ctx.output_index(0));
  if (in_shape.empty() || in_shape.size() != out_shape.size()) return ctx.fail("input and output ranks differ or are 0");
  if (in_shape.back() > fft_length) return ctx.fail("frames of " + std::to_string(in_shape.back()) + " samples are longer than fft_length");
  if (out_shape.back() != 2 * (n + 1)) {
    return ctx.fail("output's last dimension " + std::to_string(out_shape.back()) + " is not fft_length + 2");
  }
  if (in_shape.back() > 0 && elements(in_shape) / static_cast<uint64_t>(in_shape.back()) != elements(out_shape) / static_cast<uint64_t>(2 * (n + 1))) {
    return ctx.fail("input and output hold different numbers of frames");
  }
  FftTables tables;
  if (!fft_tables(ctx, fft_length, false, *dtype, &tables)) return false;
  ctx.add_node(fft_kernel(false, *dtype), {ArgDef::input(ctx.input(0)), ArgDef::input(tables.twiddles), ArgDef::int_array(tables.stages),
                                            ArgDef::output(ctx.output(0)), ArgDef::integer(fft_length)});
  return ctx.error().empty();
}

bool convert_irfft(ImportContext& ctx) {
  if (!expect_counts(ctx, 1, 1)) return false;
  SignalOptions options(ctx);
  int64_t type = 0;
  int64_t fft_length = 0;
  if (!options.integer("T", INT32_MIN, INT32_MAX, &type) || !options.integer("fft_length", 4, 1 << 20, &fft_length)) return false;
  const std::optional<DType> fft_type = fft_dtype(ctx, type, "IRFFT");
  if (!fft_type) return false;
  const DType dtype = *fft_type;
  const auto tensor_type = static_cast<TensorType>(type);
  if (!expect_type(ctx, ctx.input_index(0), tensor_type, "input") || !expect_type(ctx, ctx.output_index(0), tensor_type, "output")) {
    return false;
  }
  const std::vector<int64_t> in_shape = ctx.shape(ctx.input_index(0));
  const std::vector<int64_t> out_shape = ctx.shape(ctx.output_index(0));
  if (in_shape.empty() || in_shape.size() != out_shape.size()) return ctx.fail("input and output ranks differ or are 0");
  if (in_shape.back() != fft_length + 2) return ctx.fail("input's last dimension " + std::to_string(in_shape.back()) + " is not fft_length + 2");
  if (out_shape.back() != fft_length) return ctx.fail("output's last dimension " + std::to_string(out_shape.back()) + " is not fft_length");
  if (elements(in_shape) / static_cast<uint64_t>(fft_length + 2) != elements(out_shape) / static_cast<uint64_t>(fft_length)) {
    return ctx.fail("input and output hold different numbers of frames");
  }
  FftTables tables;
  if (!fft_tables(ctx, fft_length, true, dtype, &tables)) return false;
  // The folded spectrum: N complex values from the workspace, at a stack allocator's cost
  // (GRT_STACK_ALLOCATION_BYTES: rounded up to 16, plus a 16-byte header).
  const uint64_t folded = static_cast<uint64_t>(fft_length / 2) * 2 * dtype_bytes(dtype);
  ctx.add_node(fft_kernel(true, dtype),
               {ArgDef::input(ctx.input(0)), ArgDef::input(tables.twiddles), ArgDef::int_array(tables.stages),
                ArgDef::output(ctx.output(0)), ArgDef::integer(fft_length)},
               (folded + 15) / 16 * 16 + 16);
  return ctx.error().empty();
}

bool convert_energy(ImportContext& ctx) {
  if (!expect_counts(ctx, 1, 1)) return false;
  ctx.accept_unsigned_words();
  SignalOptions options(ctx);
  int64_t start = 0;
  int64_t end = 0;
  if (!options.integer("start_index", 0, INT32_MAX, &start) || !options.integer("end_index", 0, INT32_MAX, &end)) return false;
  if (!expect_type(ctx, ctx.input_index(0), TensorType::INT16, "input") ||
      !expect_type(ctx, ctx.output_index(0), TensorType::UINT32, "output")) {
    return false;
  }
  const uint64_t bins = elements(ctx.shape(ctx.output_index(0)));
  if (elements(ctx.shape(ctx.input_index(0))) != 2 * bins) return ctx.fail("input is not one complex pair per output bin");
  if (start > end || static_cast<uint64_t>(end) > bins) {
    return ctx.fail("bins [" + std::to_string(start) + ", " + std::to_string(end) + ") are not inside the " + std::to_string(bins) + " outputs");
  }
  ctx.add_node("signal_energy", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::integer(start), ArgDef::integer(end)});
  return ctx.error().empty();
}

bool convert_filter_bank(ImportContext& ctx) {
  if (!expect_counts(ctx, 6, 1)) return false;
  ctx.accept_unsigned_words();
  SignalOptions options(ctx);
  int64_t channels = 0;
  if (!options.integer("num_channels", 1, INT16_MAX, &channels)) return false;
  if (!expect_type(ctx, ctx.input_index(0), TensorType::UINT32, "input") ||
      !expect_type(ctx, ctx.output_index(0), TensorType::UINT64, "output")) {
    return false;
  }
  const char* tables[] = {"weights", "unweights", "channel_frequency_starts", "channel_weight_starts", "channel_widths"};
  for (int i = 1; i <= 5; ++i) {
    if (!expect_type(ctx, ctx.input_index(i), TensorType::INT16, tables[i - 1]) || !expect_constant(ctx, ctx.input_index(i), tables[i - 1])) {
      return false;
    }
  }
  if (elements(ctx.shape(ctx.output_index(0))) != static_cast<uint64_t>(channels)) return ctx.fail("output size is not num_channels");
  std::vector<ArgDef> args;
  for (int i = 0; i <= 5; ++i) args.push_back(ArgDef::input(ctx.input(i)));
  args.push_back(ArgDef::output(ctx.output(0)));
  ctx.add_node("signal_filter_bank", std::move(args));
  return ctx.error().empty();
}

bool convert_filter_bank_square_root(ImportContext& ctx) {
  if (!expect_counts(ctx, 2, 1)) return false;
  ctx.accept_unsigned_words();
  if (!expect_type(ctx, ctx.input_index(0), TensorType::UINT64, "input") ||
      !expect_type(ctx, ctx.input_index(1), TensorType::INT32, "scale_bits") ||
      !expect_type(ctx, ctx.output_index(0), TensorType::UINT32, "output")) {
    return false;
  }
  ctx.add_node("signal_filter_bank_square_root", {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0))});
  return ctx.error().empty();
}

bool convert_spectral_subtraction(ImportContext& ctx) {
  if (!expect_counts(ctx, 1, 2)) return false;
  ctx.accept_unsigned_words();
  SignalOptions options(ctx);
  int64_t values[8] = {};
  const char* keys[8] = {"smoothing", "one_minus_smoothing", "alternate_smoothing", "alternate_one_minus_smoothing",
                         "min_signal_remaining", "smoothing_bits", "spectral_subtraction_bits", "clamping"};
  const int64_t highs[8] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, 31, 63, 1};
  for (int i = 0; i < 8; ++i) {
    if (!options.integer(keys[i], 0, highs[i], &values[i])) return false;
  }
  for (const int32_t t : {ctx.input_index(0), ctx.output_index(0), ctx.output_index(1)}) {
    if (!expect_type(ctx, t, TensorType::UINT32, "input, output and noise estimate")) return false;
  }
  std::vector<ArgDef> args = {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::output(ctx.output(1))};
  for (const int64_t v : values) args.push_back(ArgDef::integer(v));
  // The noise estimate is state TFLM keeps across invocations: a State tensor of its own (the
  // output tensor is a plain activation the plan may reuse after this run's readers).
  const int64_t channels = static_cast<int64_t>(elements(ctx.shape(ctx.input_index(0))));
  args.push_back(ArgDef::output(zero_state(ctx, "noise estimate", DType::Int32, channels)));
  ctx.add_node("signal_filter_bank_spectral_subtraction", std::move(args));
  return ctx.error().empty();
}

bool convert_pcan(ImportContext& ctx) {
  if (!expect_counts(ctx, 3, 1)) return false;
  ctx.accept_unsigned_words();
  SignalOptions options(ctx);
  int64_t snr_shift = 0;
  if (!options.integer("snr_shift", 0, 63, &snr_shift)) return false;
  if (!expect_type(ctx, ctx.input_index(0), TensorType::UINT32, "input") ||
      !expect_type(ctx, ctx.input_index(1), TensorType::UINT32, "noise estimate") ||
      !expect_type(ctx, ctx.input_index(2), TensorType::INT16, "gain table") ||
      !expect_constant(ctx, ctx.input_index(2), "gain table") ||
      !expect_type(ctx, ctx.output_index(0), TensorType::UINT32, "output")) {
    return false;
  }
  if (elements(ctx.shape(ctx.input_index(2))) < 125) return ctx.fail("gain table has fewer than 125 entries");
  ctx.add_node("signal_pcan", {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::input(ctx.input(2)),
                               ArgDef::output(ctx.output(0)), ArgDef::integer(snr_shift)});
  return ctx.error().empty();
}

bool convert_filter_bank_log(ImportContext& ctx) {
  if (!expect_counts(ctx, 1, 1)) return false;
  ctx.accept_unsigned_words();
  SignalOptions options(ctx);
  int64_t correction_bits = 0;
  int64_t output_scale = 0;
  if (!options.integer("input_correction_bits", 0, 31, &correction_bits) || !options.integer("output_scale", 0, UINT32_MAX, &output_scale)) {
    return false;
  }
  if (!expect_type(ctx, ctx.input_index(0), TensorType::UINT32, "input") ||
      !expect_type(ctx, ctx.output_index(0), TensorType::INT16, "output")) {
    return false;
  }
  ctx.add_node("signal_filter_bank_log", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::integer(correction_bits),
                                          ArgDef::integer(output_scale)});
  return ctx.error().empty();
}

}  // namespace

void register_signal_ops(ConverterTable& table) {
  table.add_custom("SignalWindow", convert_window, {"int16"});
  table.add_custom("SignalFftAutoScale", convert_fft_auto_scale, {"int16 (int32 scale bits)"});
  table.add_custom("SignalRfft", convert_rfft, {"int16 (fft_length 2^k)", "int32 (fft_length 2^k)", "float32 (fft_length 2^k)"});
  table.add_custom("SignalIrfft", convert_irfft, {"int16 (fft_length 2^k)", "int32 (fft_length 2^k)", "float32 (fft_length 2^k)"});
  table.add_custom("SignalEnergy", convert_energy, {"int16 to uint32"});
  table.add_custom("SignalFilterBank", convert_filter_bank, {"uint32 to uint64 (int16 tables)"});
  table.add_custom("SignalFilterBankSquareRoot", convert_filter_bank_square_root, {"uint64 to uint32"});
  table.add_custom("SignalFilterBankSpectralSubtraction", convert_spectral_subtraction, {"uint32 (state kept across runs)"});
  table.add_custom("SignalPCAN", convert_pcan, {"uint32 (int16 gain table)"});
  table.add_custom("SignalFilterBankLog", convert_filter_bank_log, {"uint32 to int16"});
  signal::register_stream_ops(table);
}

}  // namespace grt::tools
