// SPDX-License-Identifier: Apache-2.0
#pragma once

// Declarations at file or namespace scope that are not function definitions: types, constants,
// __constant__ tables, aliases, variables. A kernel that names one depends on its text, so a
// change there is a change to the kernel.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/scanner.hpp"
#include "kernels/token.hpp"

namespace kforecast::kernels {

struct FileScopeDeclaration {
  std::vector<std::string> names;    // what it declares: "Tile", "kTileSize", "table"
  std::vector<std::string> classes;  // those of `names` a struct, class or union defines or declares
  Span span;
};

// Never fails. Function definitions (host, device or kernel) and preprocessor lines are skipped;
// namespace and extern "C" blocks are looked into.
std::vector<FileScopeDeclaration> file_scope_declarations(std::string_view source);
// The same from every token of `source`, as lex(source) gives them.
std::vector<FileScopeDeclaration> file_scope_declarations(std::string_view source, std::span<const Token> tokens);

// The identifiers in a piece of source (a declaration's or a macro's text), keywords included.
std::vector<std::string> identifiers_in(std::string_view text);

// The identifiers of the declaration at `declaration` in `source`, the functions it defines
// left out: `members` whole (the methods a scan found, signature and body; in source order,
// none inside another), and the body of any other (`) {`, `) const {`, an initializer list's
// `x{0} {`): what a class names as its layout, not what its methods use.
std::vector<std::string> identifiers_outside_function_bodies(std::string_view source, Span declaration,
                                                             std::span<const Span> members = {});

}  // namespace kforecast::kernels
