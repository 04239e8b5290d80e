// SPDX-License-Identifier: Apache-2.0
#include "cubin/symbol_name.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace kforecast::cubin {

namespace {

constexpr std::string_view file_local_marker = "_GLOBAL__N_";
constexpr std::string_view standard_anonymous_namespace = "12_GLOBAL__N_1";
// nvcc names the scope of a file's static device functions `_INTERNAL_<hash>_<n>_<file>_<hash>`;
// the hashes change with the file's other contents, so `apply<&op_copy>` of a static op_copy
// never matched across revisions once anything else in its file changed (ggml's cpy kernels).
constexpr std::string_view internal_marker = "_INTERNAL_";
constexpr std::string_view standard_internal_scope = "9_INTERNAL";
// A relocatable (-rdc=true) build prefixes names of internal linkage with the file's hash and name.
constexpr std::string_view static_marker = "__nv_static_";
constexpr std::string_view normalized_static_prefix = "__nv_static__";

constexpr std::size_t max_demangled_length = std::size_t{64} * 1024;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Where the bracketed group that ends just before `end` opens: `text[result]` is the `open`
// that matches `text[end - 1]`, counting both kinds of bracket; npos where none matches.
std::size_t matching_open(std::string_view text, std::size_t end, char open, char close) {
  int depth = 0;
  for (std::size_t i = end; i-- > 0;) {
    const char c = text[i];
    if (c == ')' || c == '>') ++depth;
    if (c == '(' || c == '<') --depth;
    if (depth == 0) return c == open && text[end - 1] == close ? i : std::string_view::npos;
  }
  return std::string_view::npos;
}

// `__nv_static_<n>_<n characters of file hash and name>_<name>` -> `__nv_static__<name>`.
std::string drop_static_prefix_hashes(std::string_view symbol) {
  std::string normalized;
  normalized.reserve(symbol.size());
  std::size_t copied = 0;
  for (auto at = symbol.find(static_marker); at != std::string_view::npos; at = symbol.find(static_marker, at + 1)) {
    auto digits_end = at + static_marker.size();
    std::size_t length = 0;
    bool too_long = false;
    while (digits_end < symbol.size() && is_digit(symbol[digits_end])) {
      length = length * 10 + static_cast<std::size_t>(symbol[digits_end] - '0');
      if (length > symbol.size()) too_long = true;
      ++digits_end;
    }
    const auto digits = digits_end - at - static_marker.size();
    const auto id = digits_end + 1;  // past the '_' that ends the length
    if (digits == 0 || too_long || id + length >= symbol.size() || symbol[digits_end] != '_' ||
        symbol[id + length] != '_')
      continue;
    normalized.append(symbol.substr(copied, at + static_marker.size() - copied));
    copied = id + length;  // the '_' before the name stays
    at = copied - 1;
  }
  normalized.append(symbol.substr(copied));
  return normalized;
}

// Each identifier that starts with `marker` (`<n>marker<n - marker's length characters>`) ->
// `standard`: `<n>_GLOBAL__N_...` -> `12_GLOBAL__N_1`, `<n>_INTERNAL_...` -> `9_INTERNAL`.
std::string standardize_identifiers(std::string_view symbol, std::string_view marker, std::string_view standard) {
  std::string normalized;
  normalized.reserve(symbol.size());
  std::size_t copied = 0;
  for (auto at = symbol.find(marker); at != std::string_view::npos; at = symbol.find(marker, at + 1)) {
    // The identifier's length prefix ends where the marker starts.
    auto digits = at;
    while (digits > copied && is_digit(symbol[digits - 1])) --digits;
    if (digits == at) continue;
    std::size_t length = 0;
    bool too_long = false;
    for (auto i = digits; i < at; ++i) {
      length = length * 10 + static_cast<std::size_t>(symbol[i] - '0');
      if (length > symbol.size()) too_long = true;
    }
    if (too_long || length < marker.size() || length > symbol.size() - at) continue;
    normalized.append(symbol.substr(copied, digits - copied));
    normalized.append(standard);
    copied = at + length;
    at = copied - 1;
  }
  normalized.append(symbol.substr(copied));
  return normalized;
}

}  // namespace

std::string normalize_symbol(std::string_view symbol) {
  return standardize_identifiers(
      standardize_identifiers(drop_static_prefix_hashes(symbol), file_local_marker, standard_anonymous_namespace),
      internal_marker, standard_internal_scope);
}

std::string demangle(const std::string& symbol) {
  // A static kernel of a relocatable build is signed as its source declares it.
  auto mangled = symbol.starts_with(normalized_static_prefix) && symbol.size() > normalized_static_prefix.size()
                     ? symbol.substr(normalized_static_prefix.size())
                     : symbol;
  // The demangler's time and output grow with the name; the longest names real template code
  // gets are around 10 KB, and a longer one (a hostile cubin's) stays mangled.
  if (mangled.size() > max_demangled_length) return mangled;
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || !demangled) return mangled;
  return demangled.get();
}

KernelName split_signature(std::string_view signature) {
  // The parameter list is the bracketed group that ends the signature.
  auto head = signature;
  if (!head.empty() && head.back() == ')') {
    const auto open = matching_open(head, head.size(), '(', ')');
    if (open != std::string_view::npos && open > 0) head = head.substr(0, open);
  }
  KernelName result;
  if (!head.empty() && head.back() == '>') {
    const auto open = matching_open(head, head.size(), '<', '>');
    if (open != std::string_view::npos && open > 0) {
      result.template_arguments = std::string(head.substr(open));
      head = head.substr(0, open);
    }
  }
  // A function template's signature starts with its return type: the name is the last word
  // outside brackets ("(anonymous namespace)::k" holds a space inside them).
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const char c = head[i];
    if (c == '(' || c == '<') ++depth;
    if (c == ')' || c == '>') --depth;
    if (c == ' ' && depth == 0) start = i + 1;
  }
  result.name = std::string(head.substr(start));
  return result;
}

}  // namespace kforecast::cubin
