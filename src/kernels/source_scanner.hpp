// SPDX-License-Identifier: Apache-2.0
#pragma once

// The scanner's second pass, over the code tokens that preprocess() leaves: a walk from one
// declaration to the next at namespace and class scope that records functions, skips other
// bodies whole, and keeps the stack of enclosing scopes for qualified names. Internal to
// scan_cuda_source; split over scanner.cpp (the walk) and function_record.cpp (the records).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "kernels/body_use.hpp"
#include "kernels/macro_table.hpp"
#include "kernels/preprocessor.hpp"
#include "kernels/scanner.hpp"
#include "kernels/token.hpp"

namespace kforecast::kernels {

enum class ScopeKind { name_space, class_body, extern_c };

struct Scope {
  ScopeKind kind;
  std::string name;  // empty for anonymous and inline namespaces and extern "C" blocks
  std::size_t first = 0;
};

struct BodyExtent {
  std::size_t last = 0;    // the closing brace, or the last token of a body that never closes
  std::size_t resume = 0;  // where the walk goes on
  bool closed = false;
};

struct PendingInstantiation {
  std::string scope;  // the qualified scope it appeared in
  std::size_t index = 0;
};

// "ns" + "k" -> "ns::k"; a name that starts with "::" is already complete.
inline std::string join_scope(const std::string& prefix, std::string_view name) {
  if (name.starts_with("::")) return std::string(name.substr(2));
  return prefix.empty() ? std::string(name) : prefix + "::" + std::string(name);
}

inline std::string_view last_component(std::string_view qualified) {
  const std::size_t colons = qualified.rfind("::");
  return colons == std::string_view::npos ? qualified : qualified.substr(colons + 2);
}

class SourceScanner {
 public:
  SourceScanner(std::string_view source, const ScanOptions& options);
  ScannedSource run();

 private:
  std::size_t declaration(std::size_t start);
  std::size_t head_end(std::size_t start) const;
  BodyExtent body_extent(std::size_t open) const;
  std::optional<std::size_t> function(std::size_t from, std::size_t end, std::size_t specifier_at,
                                      Specifiers specifiers);
  // Records the kernel a macro invocation defines. Where the macro writes only the signature
  // and a body follows the invocation, the body is the kernel's: returns where the walk goes on.
  std::optional<std::size_t> macro_kernel(const MacroMeaning& meaning, std::size_t name_at, std::size_t close);
  void instantiation(std::size_t from, std::size_t end);
  // Records `using N = T;`, `typedef T N;` or `namespace N = T;` in [from, end).
  void alias(std::size_t from, std::size_t end);
  void resolve_instantiations();
  std::optional<std::string> class_name(std::size_t from, std::size_t end) const;
  std::string namespace_name(std::size_t from, std::size_t end) const;
  void open_scope(ScopeKind kind, std::string name, std::size_t first);
  void close_scope(std::size_t close);
  bool in_extern_c() const;
  // Whether the source or the known macros define `macro_name` (then it means what they say).
  bool defines(std::string_view macro_name);
  std::span<const Token> conditions_within(const Token& open, const Token& last) const;

  std::string_view m_source;
  Preprocessed m_pre;
  std::span<const Token> m_code;
  std::span<const Macro> m_known_macros;
  MacroTable m_macros;
  std::optional<std::unordered_set<std::string_view>> m_defined_names;  // made at the first need
  std::vector<Scope> m_scopes;
  std::string m_prefix;  // the qualified name of the innermost named scope
  std::vector<PendingInstantiation> m_pending;
  NameSet m_names;
  ScannedSource m_result;
};

}  // namespace kforecast::kernels
