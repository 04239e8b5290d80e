// SPDX-License-Identifier: Apache-2.0
// The on-disk cache of compiler facts without NVRTC: the entry format round-trips, bad entries
// are misses, keys follow the request, and concurrent writers leave one valid entry.

#include <catch2/catch.hpp>

#include <fstream>
#include <thread>
#include <vector>

#include "embedded/facts_cache.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::embedded;

namespace {

CompilerFacts sample_facts(int registers = 40) {
  CompilerFacts facts;
  facts.resources.name = "_Z5scaleILi4EEvPfS0_i";
  facts.resources.source_name = "scale<4>";
  facts.resources.arch = "sm_90";
  facts.resources.registers = registers;
  facts.resources.barriers = 1;
  facts.resources.stack_frame_bytes = 16;
  facts.resources.spill_store_bytes = 8;
  facts.resources.spill_load_bytes = 12;
  facts.resources.shared_bytes = 4096;
  facts.resources.constant_bytes = 380;
  facts.mix = {.found = true,
               .instructions = 123,
               .global_loads = 7,
               .global_loads_128 = 2,
               .global_stores = 3,
               .fma = 0.1 + 0.2,  // not a short decimal: must still read back bit for bit
               .branches = 5};
  return facts;
}

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

}  // namespace

TEST_CASE("facts cache: an entry reads back as the facts written") {
  const CompilerFacts facts = sample_facts();
  const auto read = read_facts_entry(write_facts_entry(facts));
  REQUIRE(read.has_value());
  REQUIRE(read->has_value());
  CHECK(**read == facts);
}

TEST_CASE("facts cache: a compile error is kept too, log lines and all") {
  const std::string log = "kernel.cu(3): error: identifier \"undeclared\" is undefined\r\n  x[0] = un\\declared;\n";
  const auto read = read_facts_entry(write_facts_failure(log));
  REQUIRE(read.has_value());
  REQUIRE_FALSE(read->has_value());
  CHECK(read->error().message == log);
  CHECK_FALSE(read_facts_entry("kforecast-facts 2\nerror bad\\x escape\nend\n").has_value());
  CHECK_FALSE(read_facts_entry("kforecast-facts 2\nerror \nend\n").has_value());
  CHECK_FALSE(read_facts_entry("kforecast-facts 2\nerror e\nregisters 3\nend\n").has_value());

  kforecast::testing::TempDir dir;
  const FactsCache cache(dir.path());
  cache.store_failure("0123456789abcdef0123456789abcdef", log);
  const auto found = cache.find("0123456789abcdef0123456789abcdef");
  REQUIRE(found.has_value());
  REQUIRE_FALSE(found->has_value());
  CHECK(found->error().message == log);
}

TEST_CASE("facts cache: a stored entry is found, a missing one is not") {
  kforecast::testing::TempDir dir;
  const FactsCache cache(dir.path() / "facts");
  CHECK_FALSE(cache.find("0123456789abcdef0123456789abcdef").has_value());
  cache.store("0123456789abcdef0123456789abcdef", sample_facts());
  const auto found = cache.find("0123456789abcdef0123456789abcdef");
  REQUIRE(found.has_value());
  REQUIRE(found->has_value());
  CHECK(**found == sample_facts());
  // Nothing but the entry is left behind (no temporary files).
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path() / "facts"), {}) == 1);
}

TEST_CASE("facts cache: corrupt, truncated or foreign entries are misses, and storing again repairs them") {
  const std::string good = write_facts_entry(sample_facts());
  std::vector<std::string> bad{
      "",
      good.substr(0, good.size() / 2),                     // truncated mid-way
      good.substr(0, good.size() - 4),                     // "end" missing
      good.substr(0, good.size() - 1),                     // last line unterminated
      good + "extra 1\n",                                  // bytes after "end"
      "kforecast-facts 3" + good.substr(good.find('\n')),  // a newer format
      "kforecast-facts 1" + good.substr(good.find('\n')),  // an older one (fewer PTX-mix fields)
      std::string(good).replace(good.find("registers 40"), 12, "registers -4"),
      std::string(good).replace(good.find("registers 40"), 12, "registers 4x"),
      std::string(good).replace(good.find("registers 40"), 12, "registers 99999999999999999999"),
      std::string(good).replace(good.find("mix.fma "), 8, "mix.fma nan"),
      std::string(good).replace(good.find("kind kernel"), 11, "kind other"),
      std::string(good).insert(good.find("end\n"), "unknown_field 3\n"),
      std::string(good).insert(good.find("end\n"), "registers 3\n"),  // a field twice
      std::string(good).replace(good.find("name "), 5, "nome "),
      std::string(good.size(), '\0'),
  };
  for (const auto& text : bad) {
    INFO(text);
    CHECK_FALSE(read_facts_entry(text).has_value());
  }

  kforecast::testing::TempDir dir;
  const FactsCache cache(dir.path());
  const std::string key = "fedcba9876543210fedcba9876543210";
  write_all(cache.entry_path(key), good.substr(0, good.size() / 3));
  CHECK_FALSE(cache.find(key).has_value());
  cache.store(key, sample_facts());
  CHECK(read_all(cache.entry_path(key)) == good);
  const auto repaired = cache.find(key);
  REQUIRE(repaired.has_value());
  REQUIRE(repaired->has_value());
  CHECK(**repaired == sample_facts());
}

TEST_CASE("facts cache: the key changes with the text, kernel, arch, options and NVRTC version") {
  const cuda::CompileRequest request{.source = "__global__ void k(float* x) { x[0] = 1; }", .arch = "sm_90"};
  const cuda::NvrtcVersion version{13, 0};
  const std::string key = FactsCache::key(request, "k", version);
  CHECK(key.size() == 32);
  CHECK(FactsCache::key(request, "k", version) == key);  // stable

  auto changed = request;
  changed.source += " ";
  CHECK(FactsCache::key(changed, "k", version) != key);
  CHECK(FactsCache::key(request, "k2", version) != key);
  changed = request;
  changed.arch = "sm_80";
  CHECK(FactsCache::key(changed, "k", version) != key);
  changed = request;
  changed.options.push_back("-lineinfo");
  CHECK(FactsCache::key(changed, "k", version) != key);
  changed = request;
  changed.name_expressions.push_back("k");
  CHECK(FactsCache::key(changed, "k", version) != key);
  CHECK(FactsCache::key(request, "k", cuda::NvrtcVersion{12, 8}) != key);
}

TEST_CASE("facts cache: concurrent writers of one key leave a valid entry and no temporary files") {
  kforecast::testing::TempDir dir;
  const FactsCache cache(dir.path());
  const std::string key = "00112233445566778899aabbccddeeff";
  std::vector<std::thread> writers;
  for (int t = 0; t < 8; ++t)
    writers.emplace_back([&cache, &key, t] {
      for (int i = 0; i < 50; ++i) {
        cache.store(key, sample_facts(32 + t));
        // A reader racing the writers sees either a miss or a whole entry, never a torn one.
        if (auto found = cache.find(key)) CHECK((*found)->resources.registers >= 32);
      }
    });
  for (auto& writer : writers) writer.join();
  const auto found = cache.find(key);
  REQUIRE(found.has_value());
  REQUIRE(found->has_value());
  CHECK((*found)->resources.registers >= 32);
  CHECK((*found)->resources.registers < 40);
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 1);
}

TEST_CASE("facts cache: a directory that cannot be created is skipped, not an error") {
  kforecast::testing::TempDir dir;
  write_all(dir.path() / "file", "not a directory");
  const FactsCache cache(dir.path() / "file" / "facts");
  cache.store("00112233445566778899aabbccddeeff", sample_facts());
  CHECK_FALSE(cache.find("00112233445566778899aabbccddeeff").has_value());
}

TEST_CASE("facts cache: the fuzz seed is a valid entry (so mutations start from one)") {
  const auto seed = read_all(std::filesystem::path(KF_SOURCE_DIR) / "fixtures/fuzz/facts_entry/valid");
  const auto facts = read_facts_entry(seed);
  REQUIRE(facts.has_value());
  REQUIRE(facts->has_value());
  CHECK(write_facts_entry(**facts) == seed);
}
