// SPDX-License-Identifier: Apache-2.0
#pragma once

// Every place a translation unit asks the preprocessor to read a file: #include and its
// relatives, #embed, and __has_include probes. Code under review may be hostile, so this errs
// towards seeing too much: bare CR counts as a line end, a backslash followed by blanks before the
// line end is read both as a splice and as not one, comments keep their line ends, `??=` and
// `%:` stand for `#`, and directives inside #if 0 are still found. What it misses, the compiler
// would have to see as a directive while this reader does not; the tests in
// tests/cuda/include_directives_test.cpp try every spelling we know of.

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::cuda {

enum class IncludeForm {
  quoted,    // #include "name"
  angled,    // #include <name>
  computed,  // #include MACRO, or anything that is not a literal header name
};

struct IncludeDirective {
  std::string directive;  // "include", "include_next", "import", "embed", "__has_include", ...
  IncludeForm form = IncludeForm::computed;
  std::string name;      // the header name without its delimiters; the raw text when computed
  std::size_t line = 0;  // 1-based, counted in the file as given
};

std::vector<IncludeDirective> find_include_directives(std::string_view source);

// find_include_directives of texts that stay in place for the memo's life (a revision's files),
// each found once however many units reach it: one header shared by a hundred units is read once
// per run, not a hundred times. Safe to use from several threads.
class IncludeDirectiveMemo {
 public:
  const std::vector<IncludeDirective>& of(const std::string& text);

 private:
  std::mutex m_mutex;
  std::map<const std::string*, std::vector<IncludeDirective>> m_found;  // a map's elements never move
};

}  // namespace kforecast::cuda
