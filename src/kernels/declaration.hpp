// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading one function declaration from its tokens: where its name and parameter list are, its
// template header and its parameters. The tokens are a declaration's head, from its first
// specifier to before its body or ';'.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/scanner.hpp"
#include "kernels/token.hpp"

namespace kforecast::kernels {

struct FunctionHead {
  std::size_t name_first = 0;  // the declarator's name, qualification included: ns :: k
  std::size_t name_last = 0;
  std::size_t params_open = 0;   // '('
  std::size_t params_close = 0;  // ')', or head.size() when the list is not closed
};

// The first function declarator at or after `from`: a name followed by a parameter list,
// skipping attributes, __launch_bounds__(...) and the like. Nothing when an '=' comes first
// (a variable with an initializer) or no name precedes a parameter list.
std::optional<FunctionHead> find_function_head(std::span<const Token> head, std::size_t from);

// "ns::S::f" from the declarator's name tokens, template arguments of qualifiers left out.
std::string declarator_name(std::span<const Token> head, const FunctionHead& found);

// The type or namespace a declaration names first, qualified, template arguments left out:
// "ns::Foo" from `typename ns::Foo<float>::type` is "ns::Foo::type"; `const`, `struct` and
// `typename` before it are skipped. Empty where the tokens start with no name.
std::string qualified_type_name(std::span<const Token> tokens);

// The index after the leading template headers (template <...> ...) at `from`, or `from`.
std::size_t skip_template_headers(std::span<const Token> head, std::size_t from);

// The parameters between a parameter list's parentheses; "(void)" has none.
std::vector<Parameter> parse_parameters(std::span<const Token> inside);

// The arguments of the first __launch_bounds__(...) in the head, or an empty string.
std::string launch_bounds_of(std::span<const Token> head);

// Attribute-like words whose parenthesised arguments belong to a declaration's specifiers:
// __attribute__, __declspec, alignas, __align__, __launch_bounds__, decltype, noexcept, ...
bool is_attribute_word(std::string_view word);

// Whether a word reads as a library's macro for CUDA specifiers that the source does not define
// (its header is absent in a plain clone): upper case, with DEVICE in it, as CUTLASS_DEVICE,
// CUTE_HOST_DEVICE, HOST_DEVICE. Such a word before a declaration counts as __device__ (and as
// __host__ too where HOST is in it).
bool is_device_macro_name(std::string_view word);

}  // namespace kforecast::kernels
