// SPDX-License-Identifier: Apache-2.0
// Stand-in for libFuzzer's driver when building with GCC: runs each file of a seed corpus, then
// N deterministic mutations (byte flips, inserts, deletes, splices between seeds). A crash,
// sanitizer report or hang fails the CTest entry; the seed and mutation index are printed first
// so a failure can be reproduced.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// With KF_FUZZ_LAST_INPUT=FILE each input is written there before it runs, so after a crash the
// file holds the input that caused it.
void run_one(const std::string& input) {
  if (const char* path = std::getenv("KF_FUZZ_LAST_INPUT")) std::ofstream(path, std::ios::binary) << input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

std::string mutate(std::string input, const std::vector<std::string>& corpus, std::mt19937_64& rng) {
  static constexpr char interesting[] = {'\0', '\n', '\r', '"', '\'', '[', ']',    '{',
                                         '}',  '=',  '\\', '#', '.',  ',', '\xff', '\x80'};
  const int edits = 1 + static_cast<int>(rng() % 8);
  for (int e = 0; e < edits; ++e) {
    const std::size_t pos = input.empty() ? 0 : rng() % (input.size() + 1);
    switch (rng() % 5) {
      case 0:
        if (!input.empty() && pos < input.size()) input[pos] = static_cast<char>(rng());
        break;
      case 1:
        input.insert(pos, 1, interesting[rng() % sizeof interesting]);
        break;
      case 2:
        if (pos < input.size()) input.erase(pos, 1 + rng() % 16);
        break;
      case 3: {
        const std::string& other = corpus[rng() % corpus.size()];
        if (!other.empty()) {
          const std::size_t from = rng() % other.size();
          input.insert(pos, other.substr(from, 1 + rng() % 64));
        }
        break;
      }
      default:
        if (!input.empty()) input.insert(pos, input.substr(rng() % input.size(), 1 + rng() % 32));
        break;
    }
  }
  return input;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR [MUTATIONS]\n", argv[0]);
    return 2;
  }
  std::vector<std::string> corpus;
  for (const auto& entry : std::filesystem::directory_iterator(argv[1]))
    if (entry.is_regular_file()) corpus.push_back(read_file(entry.path()));
  if (corpus.empty()) {
    std::fprintf(stderr, "no seed files in %s\n", argv[1]);
    return 2;
  }
  for (const auto& seed : corpus) run_one(seed);
  const long mutations = argc > 2 ? std::stol(argv[2]) : 1000;
  std::mt19937_64 rng(20261121);
  for (long i = 0; i < mutations; ++i) {
    std::string input = mutate(corpus[i % corpus.size()], corpus, rng);
    run_one(input);
  }
  std::printf("%zu seeds and %ld mutations ran without a crash\n", corpus.size(), mutations);
  return 0;
}
