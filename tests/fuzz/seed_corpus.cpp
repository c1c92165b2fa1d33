// Writes seed inputs for the fuzz targets at run time (nothing large is committed):
// builder models bare and in envelopes (unsigned, signed, truncated) for the loader, and
// the zoo's small real models and a CALL_ONCE model of the test builders, imported for the
// loader and as they are for the importer, and a band plan with kept halos (views of one
// buffer that a copy node reads and writes, a scratch shared by two tensors).
// The same models feed the memory target bare and the CLI target inside command lines.
//   fuzz_seed_corpus OUT_DIR [ZOO_DIR]   ->  OUT_DIR/<target>/* for each fuzz target
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "graphrt/tools/signing.h"
#include "test_models.h"
#if GRT_FUZZ_HAVE_IMPORTER
#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"
#include "variable_models.h"
#endif
#if GRT_FUZZ_HAVE_BANDS
#include "band_chain_model.h"
#include "graphrt/tools/bands.h"
#include "graphrt/tools/memory_plan.h"
#endif

namespace fs = std::filesystem;

namespace {

// Real models above this size make each fuzz iteration slow; smaller ones cover the same code.
constexpr uintmax_t kMaxSeedBytes = 96 * 1024;

void write(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void write_model_and_envelopes(const fs::path& dir, const std::string& name, const std::vector<uint8_t>& model,
                               const grt::signing::KeyPair& key) {
  write(dir / (name + ".grt"), model);
  std::vector<uint8_t> envelope;
  std::string error;
  grt::signing::EnvelopeOptions unsigned_options;
  unsigned_options.model_version = 5;
  if (grt::signing::make_envelope(model, unsigned_options, &envelope, &error)) {
    write(dir / (name + ".unsigned.grte"), envelope);
    envelope.resize(envelope.size() / 2);
    write(dir / (name + ".truncated.grte"), envelope);
  }
  if (grt::signing::sign_model(model, key.private_key_pem, "fuzz-1", 7, &envelope, &error)) {
    write(dir / (name + ".signed.grte"), envelope);
  }
}

// The same blob for the targets that take bare blobs or command lines (see cli_fuzz.cpp
// for the format: arguments one per line, an empty line, the file "@in").
void write_blob_seeds(const fs::path& out, const std::string& name, const std::vector<uint8_t>& blob) {
  write(out / "memory_fuzz" / (name + ".grt"), blob);
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"inspect", "inspect\n@in\n--json"},
      {"plan", "plan\n@in\n--report\n-o\nout.grt"},
      {"plan_pools", "plan\n@in\n--algorithm\nsearch\n--pool\nfast:256\n--pool\nslow:0"},
      {"run", "run\n@in\n--input\nx.bin\n--strategy\npage"},
      {"bin2c", "bin2c\n@in\n--symbol\nm"},
      {"kernels", "kernels\n@in\n--symbol\nk"},
      {"verify", "verify\n@in\n--pubkey\n@in"},
  };
  for (const auto& [command, args] : commands) {
    std::vector<uint8_t> input(args.begin(), args.end());
    input.push_back('\n');
    input.push_back('\n');
    input.insert(input.end(), blob.begin(), blob.end());
    write(out / "cli_fuzz" / (name + "." + command), input);
  }
}

void write_import_seed(const fs::path& out, const std::string& name, const std::vector<uint8_t>& tflite) {
  const std::string args = "import\n@in\n-o\nm.grt\n\n";
  std::vector<uint8_t> input(args.begin(), args.end());
  input.insert(input.end(), tflite.begin(), tflite.end());
  write(out / "cli_fuzz" / (name + ".import"), input);
}

#if GRT_FUZZ_HAVE_IMPORTER
// A .tflite model as it is for the importer and the CLI's import, and imported (when it
// converts) for the loader and the blob targets. Returns how many seed models it wrote.
int write_tflite_seeds(const fs::path& out, const std::string& name, const std::vector<uint8_t>& tflite,
                       const grt::signing::KeyPair& key) {
  write(out / "importer_fuzz" / (name + ".tflite"), tflite);
  write_import_seed(out, name, tflite);
  grt::tools::ModelDef model;
  const grt::tools::ImportResult result = grt::tools::import_tflite(tflite.data(), tflite.size(), &model);
  if (!result.ok || !result.unsupported.empty()) return 1;
  grt::tools::plan_default(&model);
  const std::vector<uint8_t> blob = grt::tools::serialize(model);
  write_model_and_envelopes(out / "loader_fuzz", name, blob, key);
  write_blob_seeds(out, name, blob);
  return 2;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fuzz_seed_corpus OUT_DIR [ZOO_DIR]\n");
    return 2;
  }
  const fs::path out(argv[1]);
  const fs::path loader = out / "loader_fuzz";
  const fs::path importer = out / "importer_fuzz";
  fs::create_directories(loader);
  fs::create_directories(importer);
  fs::create_directories(out / "memory_fuzz");
  fs::create_directories(out / "cli_fuzz");
  grt::signing::KeyPair key;
  std::string error;
  if (!grt::signing::generate_key_pair(&key, &error)) {
    std::fprintf(stderr, "fuzz_seed_corpus: %s\n", error.c_str());
    return 1;
  }
  int seeds = 0;
  for (const auto& [copies, n] : std::vector<std::pair<int, int64_t>>{{1, 4}, {3, 16}, {8, 64}}) {
    const std::string name = "copy_chain_" + std::to_string(copies) + "x" + std::to_string(n);
    const std::vector<uint8_t> blob = grt::tools::serialize(grt::test::copy_chain(copies, n));
    write_model_and_envelopes(loader, name, blob, key);
    write_blob_seeds(out, name, blob);
    ++seeds;
  }
  {
    const std::vector<uint8_t> blob = grt::tools::serialize(grt::test::if_else_copy());
    write_model_and_envelopes(loader, "if_else_copy", blob, key);
    write_blob_seeds(out, "if_else_copy", blob);
    ++seeds;
  }
#if GRT_FUZZ_HAVE_BANDS
  // Kept bands; row by row into a fully connected tail (its sum and finish kernels); an LSTM
  // in bands of time steps into a float fully connected tail.
  const struct {
    const char* name;
    grt::tools::ModelDef model;
    grt::tools::BandStep step;
  } band_seeds[] = {
      {"band_chain_kept", grt::test::band_chain_model(), {grt::tools::BandChain{0, 3}, 8, grt::tools::BandHalo::kKeep}},
      {"band_tail_row_by_row", grt::test::band_tail_model(grt::test::Tail::kFullyConnected),
       {grt::tools::BandChain{0, 1, true}, 4, grt::tools::BandHalo::kKeepRowByRow}},
      {"band_lstm_sequence", grt::test::lstm_sequence_model(false), {grt::tools::BandChain{0, 0, true, true}, 4}},
  };
  for (const auto& seed : band_seeds) {
    grt::tools::ModelDef banded = seed.model;
    std::string band_error;
    if (!grt::tools::apply_bands(&banded, seed.step, nullptr, nullptr, &band_error) ||
        !grt::tools::plan_model(&banded, grt::tools::PlanOptions{}, nullptr, &band_error)) {
      std::fprintf(stderr, "fuzz_seed_corpus: the band seed %s: %s\n", seed.name, band_error.c_str());
      return 1;
    }
    const std::vector<uint8_t> blob = grt::tools::serialize(banded);
    write_model_and_envelopes(loader, seed.name, blob, key);
    write_blob_seeds(out, seed.name, blob);
    ++seeds;
  }
#endif
#if GRT_FUZZ_HAVE_IMPORTER
  // A CALL_ONCE whose initialiser computes (an ADD): the importer turns it into a call_once
  // node and a subgraph, a path mutation of the zoo's models would have to find by chance.
  seeds += write_tflite_seeds(out, "call_once_computing", grt::test::build_tflite(grt::test::computing_started_accumulator()), key);
#endif
  if (argc >= 3 && fs::is_directory(fs::path(argv[2]) / "models")) {
    for (const auto& entry : fs::directory_iterator(fs::path(argv[2]) / "models")) {
      if (entry.path().extension() != ".tflite" || entry.file_size() > kMaxSeedBytes) continue;
#if GRT_FUZZ_HAVE_IMPORTER
      std::ifstream in(entry.path(), std::ios::binary);
      const std::vector<uint8_t> tflite((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      seeds += write_tflite_seeds(out, entry.path().stem().string(), tflite, key);
#else
      fs::copy_file(entry.path(), importer / entry.path().filename(), fs::copy_options::overwrite_existing);
      ++seeds;
#endif
    }
  }
  std::printf("fuzz_seed_corpus: %d seed models in %s\n", seeds, out.c_str());
  return 0;
}
