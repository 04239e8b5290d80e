// SPDX-License-Identifier: Apache-2.0
#pragma once

// One kernel's features (the catalogue's), from what is known about it: always its source;
// compiler facts where NVRTC compiled it; launch features where a launch was given. A pair's
// features are the candidate's against the reference's (FeatureDelta), the model's input.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/error.hpp"
#include "cuda/compiler.hpp"
#include "embedded/feature_catalogue.hpp"
#include "embedded/occupancy.hpp"
#include "embedded/ptx_mix.hpp"
#include "embedded/source_features.hpp"

namespace kforecast::embedded {

class FactsCache;

struct LaunchGeometry {
  std::array<std::int64_t, 3> grid{1, 1, 1};
  std::array<std::int64_t, 3> block{1, 1, 1};
  std::int64_t shared_bytes = 0;  // dynamic
};

struct CompilerFacts {
  cuda::KernelResources resources;
  PtxMix mix;
  friend bool operator==(const CompilerFacts&, const CompilerFacts&) = default;
};

struct FeatureVector {
  std::array<double, feature_count> values{};
  bool source = false;  // the kernel was found in its source
  bool compiler = false;
  bool launch = false;

  double operator[](Feature feature) const { return values[index(feature)]; }
  bool has(FeatureGroup group) const;
};

FeatureVector kernel_features(const SourceFeatures& source, const std::optional<CompilerFacts>& compiler,
                              const std::optional<LaunchGeometry>& launch, const Gpu& gpu);

// The candidate's features against the reference's, on each feature's scale; a group counts as
// present only where both sides have it (its differences are 0 otherwise).
struct FeatureDelta {
  std::array<double, feature_count> values{};
  bool source = false;
  bool compiler = false;
  bool launch = false;

  double operator[](Feature feature) const { return values[index(feature)]; }
  bool has(FeatureGroup group) const;
};

FeatureDelta feature_delta(const FeatureVector& reference, const FeatureVector& candidate);

// Which of NVRTC's built-in headers a facts compile uses. `minimal_when_possible`: -minimal
// (NVRTC 12.4+: no texture, surface or device-runtime declarations; about a third less front-end
// time, the same PTX and ptxas report) for a text without #include, and the full header again
// where that fails. `full`: always the full header (what the facts are checked against).
enum class BuiltinHeader { minimal_when_possible, full };

// Compiles `source` with `compiler` for `arch` and reads the kernel's ptxas report and PTX mix.
// `kernel` is the name as the dataset or report gives it ("k", "ns::k", "k<64>"); a kernel that
// is not extern "C" is found through an NVRTC name expression. An error (source does not compile,
// kernel not found) says why, for the rationale. With `cache`, facts already on disk for the same
// request are read instead of compiled (`*from_cache` says which), and new ones are stored; the
// key is the full-header request's, whichever header compiled it (the facts are the same).
// Thread-safe: a pair's two texts are compiled concurrently (NVRTC allows concurrent programs).
Result<CompilerFacts> compile_facts(const cuda::Compiler& compiler, const std::string& source, std::string_view kernel,
                                    const std::string& arch, const FactsCache* cache = nullptr,
                                    bool* from_cache = nullptr,
                                    BuiltinHeader header = BuiltinHeader::minimal_when_possible);

// Whether `source` has an #include directive (a line whose first token is `#include`): such a
// text may need declarations -minimal leaves out, so it is compiled with the full header.
bool has_include_directive(std::string_view source);

}  // namespace kforecast::embedded
