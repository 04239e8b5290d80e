// SPDX-License-Identifier: Apache-2.0
#pragma once

// The CUDA sources of one revision, scanned once: what each file defines, which local headers it
// includes, and what a kernel's code depends on (its body, the device functions it reaches, the
// macros and file-scope declarations they name, across the file and the headers it includes).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/call_graph.hpp"
#include "kernels/canonical_tokens.hpp"
#include "kernels/file_scope.hpp"
#include "kernels/launch_sites.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::kernels {

using SourceFiles = std::map<std::string, std::string, std::less<>>;  // path -> contents

// One piece of source a kernel's code reaches: the kernel itself, a device function it calls
// (directly or not), a macro or a file-scope declaration its code names.
struct ReachedPiece {
  enum class Kind { kernel, device_function, macro, declaration };
  Kind kind = Kind::kernel;
  std::string name;  // qualified for functions: "ns::f"; the first declared name for declarations
  std::string file;  // the path it is in
  Span span;         // its text in that file
};

// One thing a kernel's code depends on, by name ("kernel", "device function ns::f", "macro
// TILE", "declaration table"), and a fingerprint of its tokens.
using Dependencies = std::map<std::string, std::uint64_t>;

class RevisionSources {
 public:
  explicit RevisionSources(const SourceFiles& files);

  const SourceFiles& files() const { return m_files; }
  const ScannedSource& scanned(const std::string& path) const { return m_scanned.at(path); }

  // The local headers `path` includes (resolve_include), in include order.
  const std::vector<std::string>& includes(const std::string& path) const { return m_includes.at(path); }

  // The repository file an #include of `includer` names, as a build with the project's include
  // folders would find it, or nullopt (a toolkit or system header, or one this revision lacks):
  // against the includer's directory, then the repository root, then, for a name with a folder
  // in it (<mylib/util.h>) or a quoted one, the one file whose path ends with the name (the
  // nearest to the includer where several do; none where that is a tie). The last is what a
  // build's -I folders do, inferred from the tree alone.
  std::optional<std::string> resolve_include(const std::string& includer, const Include& include) const;

  // The file-scope declarations of `path` (file_scope.hpp), in source order.
  const std::vector<FileScopeDeclaration>& declarations(const std::string& path) const {
    return m_declarations.at(path);
  }

  // `path` and every local header it reaches, `path` first.
  std::vector<std::string> closure(const std::string& path) const;

  // What the kernel `function_index` of `path` reaches, the kernel first, then device functions
  // (nearest first), macros, and declarations (those the code names, then those they name).
  std::vector<ReachedPiece> reach(const std::string& path, std::size_t function_index) const;

  // The kernel's dependencies: each reached piece by label, with a fingerprint of its tokens.
  Dependencies dependencies(const std::string& path, std::size_t function_index) const;

  // Every launch in `path` (launch_sites.hpp), in every form: <<<...>>>, the runtime's launch
  // functions, and the wrapper macros of `path` and the headers it includes. Read once.
  const std::vector<LaunchSite>& launches(const std::string& path) const;

 private:
  // A file's closure and the call graph over it, built once per file however many of its
  // kernels are asked about. The graph refers to `sources`, so the struct never moves.
  struct ClosureGraph {
    std::vector<std::string> files;
    std::vector<ScannedSource> sources;
    std::unique_ptr<CallGraph> graph;
    // The structs, classes and unions the files define: a parameter of one is called through
    // its operator(), not through a pointer (CallGraph::dispatches).
    std::set<std::string, std::less<>> class_names;
    // Device functions whose address a file-scope declaration takes (a table, a __device__
    // pointer host code copies out); found at the first kernel that calls through a value.
    mutable std::optional<std::vector<FunctionRef>> address_taken;
  };
  const ClosureGraph& closure_graph(const std::string& path) const;
  // The member functions a scan found in a declaration (a class's methods), in source order.
  std::vector<Span> member_functions(const std::string& path, Span declaration) const;
  const std::vector<FunctionRef>& address_taken(const ClosureGraph& closure) const;
  void rescan_with_header_macros();
  // A piece's fingerprint, a class's without its member functions' bodies where asked.
  std::uint64_t cached_fingerprint(const ReachedPiece& piece, bool without_members) const;

  // A copy only where some file ends its lines with a lone CR (made LF, byte for byte); null
  // otherwise, and m_files is the caller's map, never copied. On the heap, so that m_files still
  // refers to it after a move.
  std::unique_ptr<const SourceFiles> m_lf_files;
  const SourceFiles& m_files;
  std::map<std::string, ScannedSource, std::less<>> m_scanned;
  std::map<std::string, std::vector<std::string>, std::less<>> m_includes;
  // Every file by its last path component, for resolve_include's search of the tree.
  std::map<std::string, std::vector<std::string>, std::less<>> m_by_file_name;
  std::map<std::string, std::vector<FileScopeDeclaration>, std::less<>> m_declarations;
  mutable std::map<std::string, std::unique_ptr<ClosureGraph>, std::less<>> m_graphs;
  // Every file's macros, by what a call of one as a statement expands to: a formatter's braces
  // around such a call are no change only where it is one statement.
  MacroStatements m_statement_macros;
  mutable std::map<std::string, std::vector<LaunchSite>, std::less<>> m_launches;
  // Fingerprints by (file, span begin, span end, without members), as dependencies() reads them.
  mutable std::map<std::tuple<std::string, std::size_t, std::size_t, bool>, std::uint64_t> m_fingerprints;
};

// Whether a path is CUDA C++ kforecast reads: .cu, .cuh, and C++ headers (.h, .hpp, .hh, .hxx,
// .inl, .cuinl) that kernels may include.
bool is_cuda_source_path(std::string_view path);

}  // namespace kforecast::kernels
