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
#include "bench/launch_spec_reader.hpp"
#include "bench/resolved_launch.hpp"
#include "corpus/corpus.hpp"
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
  for (const auto& [family, count] : variants) {
    const auto spec_path = std::filesystem::path(out.path()) / family / "kforecast.toml";
    auto specs = bench::read_config_specs(testing::read_text(spec_path), spec_path.string());
    INFO(spec_path.string());
    REQUIRE(specs.has_value());
    for (const auto& spec : *specs) {
      INFO(spec.name);
      const std::string text = testing::read_text(spec_path.parent_path() / spec.file);  // the scan refers to it
      const auto scanned = kernels::scan_cuda_source(text);
      const auto kernel = std::ranges::find_if(scanned.functions, [&](const auto& f) { return f.name == spec.name; });
      REQUIRE(kernel != scanned.functions.end());
      for (const auto& size : spec.sizes) {
        auto launch = bench::resolve_launch(spec, size, kernel->parameters);
        INFO((launch ? std::string() : launch.error().message));
        CHECK(launch.has_value());
        ++bound;
      }
    }
  }
  CHECK(bound == kernels.size());
}
