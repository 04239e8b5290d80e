// SPDX-License-Identifier: Apache-2.0
#pragma once

// Kernel names as a reader wants them, and as base and head revisions can be paired by.
// nvcc names an anonymous namespace `_GLOBAL__N__<hash>_<n>_<file>_<hash>`, and the hashes
// change with the file's contents and name: without normalisation every edit of a file looks
// like a kernel templated on a file-local type was removed and another added.

#include <string>
#include <string_view>

namespace kforecast::cubin {

// `symbol` with every file-local namespace identifier (a length-prefixed `_GLOBAL__N_...`)
// replaced by the standard `12_GLOBAL__N_1`, which still demangles, as "(anonymous namespace)";
// and the prefix a relocatable build gives names of internal linkage,
// `__nv_static_<n>_<file hash and name>_`, reduced to `__nv_static__`. Works on any text that
// holds mangled names: symbols, section names, `$kernel$callee` clones.
std::string normalize_symbol(std::string_view symbol);

// The demangled form of a mangled name (without a normalised `__nv_static__` prefix); the name
// itself where it is not mangled (extern "C").
std::string demangle(const std::string& symbol);

struct KernelName {
  std::string name;                // "ns::k", "tiled": qualified, no template arguments or parameters
  std::string template_arguments;  // "<64>", or empty
};

// Splits a demangled signature such as "void tiled<64>(float*, float const*, int)".
KernelName split_signature(std::string_view signature);

}  // namespace kforecast::cubin
