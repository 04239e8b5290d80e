// SPDX-License-Identifier: Apache-2.0
// The generated corpus families (scripts/corpus-generate.py), written afresh into a scratch folder
// and read as kforecast reads them: unique kernel names, the scanner finds every kernel with the
// parameters its launch spec fills, every variant of a family has one signature, one set of
// arguments and sizes, and every spec binds with the benchmark runner's reader, so a corpus
// measurement cannot stop at a generator's mistake on the GPU machine.

#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "base/scratch_folder.hpp"
#include "base/subprocess.hpp"
#include "corpus/corpus.hpp"
#include "corpus/spec_binding.hpp"
#include "kernels/scanner.hpp"

using namespace kforecast;

TEST_CASE("generated corpus: every family the generator writes is one a corpus measurement can run") {
  const ScratchFolder out("kforecast-generated-corpus");
  auto generated = run_process({"python3", std::string(KF_SOURCE_DIR) + "/scripts/corpus-generate.py", out.path()});
  REQUIRE(generated.has_value());
  INFO(generated->err);
  REQUIRE(generated->exit_status == 0);

  const auto kernels = testing::load_corpus(out.path());
  std::set<std::string> names;
  std::map<std::string, std::size_t> variants;
  std::map<std::string, std::string> signature, arguments;
  for (const auto& k : kernels) {
    INFO(k.family << "/" << k.name);
    CHECK(names.insert(k.name).second);
    ++variants[k.family];
    const auto scanned = kernels::scan_cuda_source(k.source);
    const auto found = std::ranges::find_if(scanned.functions, [&](const auto& f) {
      return f.name == k.name && f.kind == kernels::FunctionKind::global && f.has_body;
    });
    REQUIRE(found != scanned.functions.end());
    CHECK(found->extern_c);
    std::vector<std::string> parameters;
    std::string types;
    for (const auto& p : found->parameters) parameters.push_back(p.name), types += p.type + " " + p.name + ", ";
    std::ranges::sort(parameters);
    CHECK(parameters == k.arg_names);
    // One signature and one set of arguments and sizes a family: any two variants are a pair.
    CHECK(signature.emplace(k.family, types).first->second == types);
    CHECK(arguments.emplace(k.family, k.args_text).first->second == k.args_text);
  }
  CHECK(variants.size() >= 13);
  for (const auto& [family, count] : variants) {
    INFO(family);
    CHECK(count >= 6);
  }

  std::size_t bound = 0;
  for (const auto& [family, count] : variants) bound += testing::check_specs_bind(std::filesystem::path(out.path()) / family);
  CHECK(bound == kernels.size());
}
