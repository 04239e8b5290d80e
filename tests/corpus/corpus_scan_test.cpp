// SPDX-License-Identifier: Apache-2.0
// fixtures/corpus, read as kforecast reads it: the scanner finds every kernel its launch specs
// name, with the parameters the specs give arguments for, and the specs hold the corpus's
// contracts (README.md there): at least 15 families of at
// least 6 variants, one signature and one set of arguments per family.

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>

#include "corpus/corpus.hpp"
#include "embedded/kernel_features.hpp"
#include "kernels/scanner.hpp"

using namespace kforecast;

namespace {

const kernels::Function* find_kernel(const kernels::ScannedSource& scanned, const std::string& name) {
  for (const auto& f : scanned.functions)
    if (f.name == name && f.kind == kernels::FunctionKind::global && f.has_body) return &f;
  return nullptr;
}

std::string signature_of(const kernels::Function& f) {
  std::string text;
  for (const auto& p : f.parameters) text += p.type + " " + p.name + ", ";
  return text;
}

}  // namespace

TEST_CASE("corpus: at least 15 families of at least 6 variants, each variant in its own file") {
  const auto corpus = testing::load_corpus();
  std::map<std::string, std::set<std::string>> files_by_family;
  std::set<std::string> names;
  for (const auto& k : corpus) {
    files_by_family[k.family].insert(k.file);
    CHECK(names.insert(k.name).second);  // kernel names are unique across the corpus
  }
  CHECK(files_by_family.size() >= 15);
  for (const auto& [family, files] : files_by_family) {
    INFO(family);
    CHECK(files.size() >= 6);
  }
}

TEST_CASE("corpus: the scanner finds every kernel with the parameters its launch spec fills") {
  for (const auto& k : testing::load_corpus()) {
    INFO(k.family << "/" << k.file << ": " << k.name);
    const auto scanned = kernels::scan_cuda_source(k.source);
    const kernels::Function* f = find_kernel(scanned, k.name);
    REQUIRE(f != nullptr);
    CHECK(f->extern_c);
    std::vector<std::string> parameters;
    for (const auto& p : f->parameters) parameters.push_back(p.name);
    std::sort(parameters.begin(), parameters.end());
    CHECK(parameters == k.arg_names);
    int kernel_count = 0;
    for (const auto& g : scanned.functions) kernel_count += g.kind == kernels::FunctionKind::global;
    CHECK(kernel_count == 1);
  }
}

TEST_CASE("corpus: every variant of a family has the same signature, arguments and sizes") {
  std::map<std::string, std::string> signature_by_family, args_by_family;
  for (const auto& k : testing::load_corpus()) {
    INFO(k.family << ": " << k.name);
    const auto scanned = kernels::scan_cuda_source(k.source);
    const kernels::Function* f = find_kernel(scanned, k.name);
    REQUIRE(f != nullptr);
    // Types compared without qualifiers that do not change the argument: const and __restrict__.
    std::string signature = signature_of(*f);
    for (const std::string_view noise : {"const ", "__restrict__ ", " __restrict__"})
      for (auto at = signature.find(noise); at != std::string::npos; at = signature.find(noise))
        signature.erase(at, noise.size());
    const auto [it, first] = signature_by_family.emplace(k.family, signature);
    if (!first) CHECK(it->second == signature);
    const auto [args, first_args] = args_by_family.emplace(k.family, k.args_text);
    if (!first_args) CHECK(args->second == k.args_text);
  }
}

TEST_CASE("corpus: the embedded forecaster finds every kernel and tells every two variants of a family apart") {
  const auto corpus = testing::load_corpus();
  const auto gpu = *embedded::find_gpu("H100");
  std::vector<embedded::FeatureVector> features;
  for (const auto& k : corpus) {
    INFO(k.family << ": " << k.name);
    const auto source = embedded::extract_source_features(k.source, k.name);
    CHECK(source.kernel_found);
    features.push_back(embedded::kernel_features(source, std::nullopt, std::nullopt, gpu));
  }
  for (std::size_t a = 0; a < corpus.size(); ++a)
    for (std::size_t b = a + 1; b < corpus.size(); ++b) {
      if (corpus[a].family != corpus[b].family) continue;
      INFO(corpus[a].name << " vs " << corpus[b].name);
      CHECK(features[a].values != features[b].values);
    }
}
