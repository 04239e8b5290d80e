// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the names a launch uses mean in one revision of the launching file (launch_inputs.hpp):
// its macros and file-scope declarations and those of its headers, the declarations in the host
// function around the launch, and the template arguments that the calls of a lambda or a function
// template around it give its template parameters. Internal to launch_inputs.cpp; split over
// launch_definitions.cpp (names declared) and launch_bindings.cpp (template parameters bound at
// call sites).

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/launch_sites.hpp"
#include "kernels/revision_sources.hpp"
#include "kernels/token.hpp"

namespace kforecast::kernel_changes {

enum class LaunchPart { template_argument, configuration };

struct Definition {
  std::string text;                // its canonical tokens joined by single spaces: layout is no change
  std::vector<std::string> names;  // the names it uses, to follow in turn
  // Where a template parameter's value comes from: "the calls of launch_variant.template
  // operator()". Empty for a name declared in the source.
  std::string bound_by;
};

// The names a piece of code uses, in order: members (`.x`, `->x`) and keywords left out.
std::vector<std::string> names_used(std::string_view code);

class Definitions {
 public:
  Definitions(const kernels::RevisionSources& sources, const std::string& path);

  // What `name` means at the token `at` (a launch's), looked up as the preprocessor and the
  // compiler would: a macro, a local or parameter of the function around `at` (with the
  // assignments to its members before `at`: `cfg.blockDim = 256;`), a template parameter of a
  // lambda or function template around `at` (the template arguments its calls give), a
  // file-scope declaration; and, for a template argument, a class (a kernel instantiated with a
  // struct runs other code when the struct changes). Empty where nothing the scanner sees
  // defines it (a toolkit type, a name from a system header). Each definition is read once,
  // however many launches name it.
  const Definition& find(std::string_view name, std::size_t at, LaunchPart part);

  // The class a local or parameter named `name` is declared with at `at`, by its name, or
  // nothing (`const BackwardParams params{...}` gives BackwardParams where that is a class).
  std::optional<std::string> declared_class(std::string_view name, std::size_t at);
  // The definition of a class of the file or its headers; empty where there is none.
  const Definition& find_class(std::string_view name);

  // The index of the token at `offset` in the text.
  std::size_t token_at(std::size_t offset) const;
  // Where a launch runs: at its token, or, for a launch in a macro's #define inside a function
  // (DeepEP's `#define CASE(r) LAUNCH_KERNEL(&cfg, k<r>, ...)` before `SETUP_LAUNCH_CONFIG(...);
  // SWITCH_RANKS(CASE);`), where the function last uses the macro.
  std::size_t where_run(const kernels::LaunchSite& launch) const;

 private:
  // A lambda or function template with template parameters, around launches.
  struct TemplateScope {
    std::size_t open = 0;  // the body's braces
    std::size_t close = 0;
    std::vector<std::string_view> parameters;  // the template parameters' names, in order
    bool lambda = false;
    std::string_view name;  // the lambda's variable, or the function
    // Where its calls are looked for: the function around a lambda, the whole file for a function.
    std::size_t search_begin = 0;
    std::size_t search_end = 0;
  };
  using Index = std::map<std::string_view, std::vector<std::size_t>>;

  const Definition& read(std::string_view code);
  // The definitions of a macro of the file or its headers, or nothing.
  const Definition* macro(std::string_view name);
  void find_function_bodies();
  std::optional<std::pair<std::size_t, std::size_t>> body_around(std::size_t at) const;
  std::optional<std::size_t> local_declaration(std::string_view name, std::size_t at);
  const Definition* find_local(std::string_view name, std::size_t at);
  void index_parameters(std::size_t body, Index& index);
  void index_locals(std::size_t begin, std::size_t end, Index& index);
  std::string_view text_of(std::size_t first, std::size_t last) const;
  std::pair<std::size_t, std::size_t> statement_around(std::size_t name) const;
  // launch_bindings.cpp:
  // The template parameter `name` of the innermost lambda or function template around `at`
  // that has one, and where its body opens (`scope_open`).
  const Definition* find_template_parameter(std::string_view name, std::size_t at, std::size_t& scope_open);
  void find_template_scopes();
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> call_arguments(const TemplateScope& scope) const;

  const std::string& m_text;
  std::vector<kernels::Token> m_tokens;
  std::map<std::string, std::vector<const kernels::Macro*>, std::less<>> m_macro_sources;  // every #define of a name
  std::map<std::string, Definition, std::less<>> m_macros;                        // read at their first use
  std::map<std::string_view, Definition> m_read;                      // by the source text read
  std::map<std::string, std::string_view, std::less<>> m_file_scope;  // the first declaration of a name
  std::map<std::string, std::string_view, std::less<>> m_classes;     // the first definition of a class
  std::vector<std::pair<std::size_t, std::size_t>> m_bodies;          // function bodies: '{' and '}' token indices
  std::map<std::size_t, std::pair<std::size_t, std::size_t>> m_parameters;   // a parameter's name -> its tokens
  std::map<std::size_t, Index> m_locals;                                     // per body
  std::map<std::pair<std::size_t, std::size_t>, Definition> m_with_members;  // (declaration, launch)
  std::optional<std::vector<TemplateScope>> m_template_scopes;
  std::map<std::pair<std::size_t, std::size_t>, Definition> m_bound;  // (scope, parameter)
};

}  // namespace kforecast::kernel_changes
