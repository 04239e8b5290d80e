// SPDX-License-Identifier: Apache-2.0
#pragma once

// The kernel scan: what a CUDA source file defines, found at the level
// of tokens. This is not a compiler: it reads code that does not compile, headers that are not
// there, and any bytes at all, and returns what it can. What it finds:
//   - every __global__ function and every __device__ (or __host__ __device__) function, defined
//     or only declared, in namespaces, classes and extern "C" blocks, with templates, attributes,
//     __launch_bounds__, parameters, spans and the identifiers its body uses;
//   - kernels defined by a macro: a function-like macro whose body declares a __global__
//     function named by one of the macro's parameters, e.g.
//       #define DEFINE_KERNEL(name) __global__ void name(float* x) { ... }
//       DEFINE_KERNEL(foo)          -> kernel "foo", from_macro, macro "DEFINE_KERNEL"
//     or whose body writes only the signature, the kernel's body following the invocation:
//       #define DEFINE_FWD(name, T) __global__ void name(T* x, int n)
//       DEFINE_FWD(fwd_f32, float) { ... }   -> kernel "fwd_f32" with that body
//     Limits: the macro must be defined in this source (or given in ScanOptions; RevisionSources
//     gives those of the headers a file includes); the name must
//     be passed as one plain identifier, not pasted (name##_f32); the invocation must stand at
//     namespace scope; macros that expand to other kernel-defining macros are not followed;
//   - explicit instantiations (template __global__ void k<64>(float*);), attached to the kernel;
//   - #define macros, #include directives, namespaces and aliases of types and namespaces.
// Preprocessor conditionals: #if 0 / #if 1 and their #elif and #else branches are honoured (a
// kernel inside #if 0 is not found); every other condition (#ifdef X, #if defined(X), #if N > 2)
// is unknown, so all of its branches are scanned and a kernel defined in both the #ifdef and the
// #else branch is found twice. Macros are not expanded, except that an object-like macro whose
// body holds __global__, __device__ or __host__ (#define DEVICE_INLINE __device__
// __forceinline__) counts as those specifiers, and so does an upper-case word with DEVICE in it
// that no macro in view defines (CUTLASS_DEVICE, CUTE_HOST_DEVICE: a library header a plain
// clone lacks). A macro call between the specifiers and the return type (__global__
// BOUNDS(256) void k(...)) is an attribute, not the function's name.
// Code that does not compile: an unclosed function body ends where the next __global__
// declaration starts (no kernel is defined inside a function), a stray '}' is ignored, and an
// unterminated comment, string or body ends at the end of the input.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::kernels {

// Bytes [begin, end) of the source, and the 1-based lines of its first and last byte.
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::uint32_t first_line = 0;
  std::uint32_t last_line = 0;

  bool empty() const { return begin == end; }
  bool operator==(const Span&) const = default;
};

enum class FunctionKind { global, device };  // __host__ __device__ is device, with `host` set

struct Parameter {
  std::string type;           // without the name: "const float* __restrict__", "float[16]"
  std::string name;           // empty for an unnamed parameter
  std::string default_value;  // empty when there is none
};

struct Function {
  std::string name;            // as declared, last component: "k", "operator()"
  std::string qualified_name;  // with enclosing named namespaces and classes: "ns::k"
  FunctionKind kind = FunctionKind::device;
  bool host = false;                // also __host__
  std::string template_parameters;  // "template <int BM, typename T>"; empty when not a template
  std::vector<Parameter> parameters;
  bool extern_c = false;
  bool has_body = true;       // false for a declaration only
  std::string launch_bounds;  // the arguments of __launch_bounds__, as written: "256, 2"
  Span signature;             // from the first specifier (or `template`) to before the body
  Span body;                  // the braces and what is between; empty (at whole.end) when none
  Span whole;                 // signature and body, or the declaration up to its ';'
  // Names used in the signature and the body (and in preprocessor conditions inside the body),
  // sorted and unique, keywords left out: the input for macro and constant use. Views: see
  // "Lifetimes" below.
  std::vector<std::string_view> referenced_identifiers;
  // Names called in the body: an identifier (or a qualified name) followed by ( or <...>( or
  // <<<. As written ("f", "ns::g"), sorted and unique; CallGraph resolves them. Views, as above.
  std::vector<std::string_view> calls;
  // The body calls through something other than a name (BodyUse::calls_indirectly): a table of
  // function pointers, a function that returns one, a functor. CallGraph::dispatches.
  bool calls_indirectly = false;
  // Explicit instantiations of this function, each as written without `template` and the
  // specifiers: "k<64, float>", or "k(float*)" when the arguments are deduced.
  std::vector<std::string> instantiations;
  bool from_macro = false;
  // For a function defined by a macro, the macro's name. All three spans are then those of the
  // invocation, and the referenced identifiers are the macro body's, arguments substituted,
  // with the macro's own name.
  std::string macro;
};

struct Macro {
  std::string name;
  std::vector<std::string> parameters;  // "..." for a variadic macro
  bool function_like = false;
  std::string body;  // tokens as written, whitespace, comments and continuations as one space
  Span span;         // the whole directive, continuation lines included
};

struct Include {
  std::string path;  // without quotes or brackets
  bool angled = false;
  std::uint32_t line = 0;
};

struct Namespace {
  std::string qualified_name;  // "outer::inner"; anonymous and inline namespaces are not listed
  Span span;                   // from `namespace` to the closing brace
};

struct ExplicitInstantiation {
  std::string name;  // the function's name as written, qualified when it was: "ns::k"
  std::string text;  // as in Function::instantiations
  std::uint32_t line = 0;
};

// A name given to a type or a namespace at namespace or class scope: `using F = ns::Foo<float>;`,
// `typedef ns::Foo<float> F;`, `namespace t = tex;`. A call through it (F::bar(...)) calls the
// target's member.
struct Alias {
  std::string name;    // qualified with the enclosing named scopes: "ns::F"
  std::string target;  // as written, template arguments left out: "ns::Foo"
};

// Text that a scan composed instead of finding it whole in the source: a qualified call written
// with spaces ("ns :: f" gives "ns::f"), the names of a kernel a macro defines (its arguments
// substituted). Written once into blocks that never move, so views of it stay valid as long as
// the store lives, however the ScannedSource that holds it is moved or copied.
class TextStore {
 public:
  std::string_view keep(std::string_view text);

 private:
  std::vector<std::unique_ptr<char[]>> m_blocks;
  char* m_free = nullptr;
  std::size_t m_left = 0;
};

// Lifetimes. A Function's referenced_identifiers and calls are views, not strings (a function
// names dozens of identifiers, and a string for each was a third of the scan's allocations):
// each views either the text given to scan_cuda_source or the ScannedSource's text_store. So
//   - the scanned text must outlive the ScannedSource and every copy of its Functions that
//     reads those two lists (RevisionSources keeps the SourceFiles it scanned, by reference,
//     for its own lifetime; lint and the CLI scan texts they hold for the whole command);
//   - copies of a ScannedSource share its text_store (a shared_ptr), so any copy keeps the
//     composed names alive; a Function copied out alone does not, so read its lists only while
//     the ScannedSource (or a copy of it) lives.
// Every other field owns its text.
struct ScannedSource {
  std::vector<Function> functions;  // in source order
  std::vector<Macro> macros;
  std::vector<Include> includes;
  std::vector<Namespace> namespaces;
  // Every explicit instantiation, also those of functions this source does not define.
  std::vector<ExplicitInstantiation> instantiations;
  std::vector<Alias> aliases;  // in source order
  // What composed names of `functions` view (set by every scan; holds no memory until needed).
  std::shared_ptr<TextStore> text_store;
};

struct Token;

struct ScanOptions {
  // Macros visible before the first line, e.g. those of headers the source includes: they let
  // DEFINE_KERNEL(foo) be found when DEFINE_KERNEL lives in a header.
  std::span<const Macro> known_macros;
  // Every token of the text as lex(text) gives them, when the caller needs them too (for
  // file_scope_declarations): the scan then reads these instead of lexing the text again.
  const std::vector<Token>* tokens = nullptr;
};

// Never fails: on any input it returns what it could find. `text` must outlive the result (see
// "Lifetimes" above).
ScannedSource scan_cuda_source(std::string_view text, const ScanOptions& options = {});
// A temporary string would die before the views into it are read: keep the text in a variable.
ScannedSource scan_cuda_source(std::string&& text, const ScanOptions& options = {}) = delete;
// String literals live for the whole program (and would be ambiguous between the two above).
inline ScannedSource scan_cuda_source(const char* text, const ScanOptions& options = {}) {
  return scan_cuda_source(std::string_view(text), options);
}

}  // namespace kforecast::kernels
