// SPDX-License-Identifier: Apache-2.0
#include "context/setup_py_build.hpp"

#include <fmt/format.h>

#include "context/code_flags.hpp"
#include "context/python_tokens.hpp"

namespace kforecast::context {
namespace {

using Kind = PythonToken::Kind;

// A literal as the report shows it: an f-string's {expression} in braces again.
std::string shown(std::string_view text) {
  std::string out;
  for (char c : text) out += c == unknown_open ? '{' : c == unknown_close ? '}' : c;
  return out;
}

bool is(const std::vector<PythonToken>& tokens, std::size_t at, Kind kind, std::string_view text = {}) {
  return at < tokens.size() && tokens[at].kind == kind && (text.empty() || tokens[at].text == text);
}

// The ("NAME", value) tuples of the list that opens at `at`.
void read_define_macros(const std::vector<PythonToken>& tokens, std::size_t at, std::string_view name,
                        SetupPyBuild& build) {
  int depth = 0;
  for (; at < tokens.size(); ++at) {
    if (is(tokens, at, Kind::punctuation, "[")) ++depth;
    if (is(tokens, at, Kind::punctuation, "]") && --depth == 0) return;
    if (depth != 1 || !is(tokens, at, Kind::punctuation, "(") || !is(tokens, at + 1, Kind::string) ||
        !is(tokens, at + 2, Kind::punctuation, ",") || !is(tokens, at + 4, Kind::punctuation, ")"))
      continue;
    const PythonToken& macro = tokens[at + 1];
    const PythonToken& value = tokens[at + 3];
    const std::string where = fmt::format("{}:{}", name, macro.line);
    if (!macro.not_taken.empty()) {
      build.not_taken.push_back(fmt::format("-D{} ({}, {})", shown(macro.text), where, macro.not_taken));
    } else if (value.kind == Kind::name && value.text == "None") {
      build.defines.push_back({macro.text, where});
    } else if (value.kind == Kind::string || value.kind == Kind::number) {
      build.defines.push_back({macro.text + "=" + value.text, where});
    } else {
      build.defines.push_back({macro.text + "=" + unknown_reference(value.text), where});
    }
  }
}

// The name the first CUDAExtension( call gives, positionally or as name=: its last dotted part.
std::string extension_name(const std::vector<PythonToken>& tokens, std::size_t call) {
  std::size_t at = call + 2;
  if (is(tokens, at, Kind::name, "name") && is(tokens, at + 1, Kind::punctuation, "=")) at += 2;
  if (!is(tokens, at, Kind::string) || tokens[at].text.find_first_of("\x01\x02") != std::string::npos) return {};
  const std::string& full = tokens[at].text;
  const auto dot = full.rfind('.');
  return dot == std::string::npos ? full : full.substr(dot + 1);
}

// A string literal that is a compiler flag kforecast reads: -D, -U or a code flag.
void read_flag(const std::vector<PythonToken>& tokens, std::size_t at, std::string_view name, SetupPyBuild& build) {
  const PythonToken& token = tokens[at];
  const std::string where = fmt::format("{}:{}", name, token.line);
  const bool define = token.text.size() > 2 && token.text.starts_with("-D");
  const bool undefine = token.text.size() > 2 && token.text.starts_with("-U");
  const bool flag = !define && !undefine && code_flag(token.text) &&
                    token.text.find_first_of("\x01\x02") == std::string::npos;
  if (!define && !undefine && !flag) return;
  // "-DCMAKE_BUILD_TYPE={}" is an argument for the cmake a setup.py runs (vLLM's), a cache
  // variable and no macro: left out.
  if (define && token.text.starts_with("-DCMAKE_")) return;
  if (!token.not_taken.empty()) {
    build.not_taken.push_back(fmt::format("{} ({}, {})", shown(token.text), where, token.not_taken));
    return;
  }
  if (undefine) {
    build.undefines.push_back({token.text.substr(2), where});
  } else if (flag) {
    build.flags.push_back({token.text, where});
  } else {
    std::string text = token.text.substr(2);
    // Any other "-DX={}".format(v) has a value not known.
    const bool formatted = is(tokens, at + 1, Kind::punctuation, ".") && is(tokens, at + 2, Kind::name, "format");
    if (const std::size_t equals = text.find('='); formatted && equals != std::string::npos)
      text = text.substr(0, equals + 1) + unknown_reference(text.substr(0, equals));
    build.defines.push_back({std::move(text), where});
  }
}

}  // namespace

SetupPyBuild read_setup_py(std::string_view text, std::string_view name) {
  const std::vector<PythonToken> tokens = python_tokens(text);
  SetupPyBuild build;
  for (std::size_t at = 0; at < tokens.size(); ++at) {
    const PythonToken& token = tokens[at];
    if (token.kind == Kind::string) read_flag(tokens, at, name, build);
    if (token.kind == Kind::name &&
        (token.text.find("torch.utils.cpp_extension") != std::string::npos || token.text.ends_with("CUDAExtension")))
      build.torch_extension = true;
    if (token.kind == Kind::name && token.text.ends_with("CUDAExtension") && build.extension_name.empty() &&
        is(tokens, at + 1, Kind::punctuation, "("))
      build.extension_name = extension_name(tokens, at);
    const bool key = (token.kind == Kind::name || token.kind == Kind::string) && token.text == "define_macros";
    if (key && (is(tokens, at + 1, Kind::punctuation, "=") || is(tokens, at + 1, Kind::punctuation, ":")) &&
        is(tokens, at + 2, Kind::punctuation, "["))
      read_define_macros(tokens, at + 2, name, build);
  }
  return build;
}

}  // namespace kforecast::context
