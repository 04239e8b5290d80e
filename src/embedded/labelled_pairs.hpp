// SPDX-License-Identifier: Apache-2.0
#pragma once

// The labelled-pairs dataset (`kforecast eval`, `kforecast train`): one JSON object
// per line, a reference and a candidate kernel (source, kernel name, optional launch) and the
// measured speedup. Untrusted input (a fuzz target): every problem is an error that names the
// file, the line and the field.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "base/shared_text.hpp"
#include "embedded/kernel_features.hpp"

namespace kforecast::embedded {

struct KernelText {
  SharedText source;                     // shared: every kernel of a file reads the same text
  std::string kernel;                    // "name" or "name<instantiation>"
  std::optional<LaunchGeometry> launch;  // grid, block, shared_bytes when given
};

struct LabelledPair {
  std::string id;
  std::string family;    // may be empty
  std::string hardware;  // may be empty
  KernelText reference;
  KernelText candidate;
  double speedup = 1.0;  // t_reference / t_candidate, > 0
  std::size_t line = 0;  // 1-based line in the file
};

// Blank lines are skipped. `origin` names the file in messages.
Result<std::vector<LabelledPair>> parse_labelled_pairs(std::string_view text, std::string_view origin);
// The dataset file at `path`, read and parsed.
Result<std::vector<LabelledPair>> read_labelled_pairs(const std::string& path);

}  // namespace kforecast::embedded
