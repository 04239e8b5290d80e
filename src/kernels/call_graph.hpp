// SPDX-License-Identifier: Apache-2.0
#pragma once

// Who calls whom among the functions of one or more scanned sources (a .cu file and the local
// headers it includes), and which macros each one uses. Names are resolved the way a reader
// would, without types: a call "f" from a function in namespace ns means ns::f if there is one,
// else the f of the nearest enclosing namespace, else every function named f (overloads and
// methods included). It may find calls that do not happen; it should not miss one that does,
// which is the safe side for deciding whether a kernel changed. So calls that name no function
// resolve wide: Runner::Run(...) where Runner is the caller's template parameter calls every
// function named Run, and f(x) where f is a parameter or a template parameter (a functor) calls
// every operator(). A call through an alias (using F = ns::Foo<float>; F::bar(...)) calls the
// target's member. Calls through pointers are the caller's to follow (dispatches()).

#include <compare>
#include <cstddef>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kernels/scanner.hpp"

namespace kforecast::kernels {

// A function or a macro by position: which source (an index into the sources given), which entry.
struct FunctionRef {
  std::size_t source = 0;
  std::size_t index = 0;
  auto operator<=>(const FunctionRef&) const = default;
};
struct MacroRef {
  std::size_t source = 0;
  std::size_t index = 0;
  auto operator<=>(const MacroRef&) const = default;
};

// Whether a function's macro use includes that of the functions it reaches.
enum class MacroReach { function_only, with_callees };

class CallGraph {
 public:
  // The sources must outlive the graph: it refers to them.
  explicit CallGraph(std::span<const ScannedSource> sources);
  explicit CallGraph(const ScannedSource& source) : CallGraph(std::span<const ScannedSource>(&source, 1)) {}

  const Function& function(FunctionRef ref) const { return m_sources[ref.source].functions[ref.index]; }
  const Macro& macro(MacroRef ref) const { return m_sources[ref.source].macros[ref.index]; }

  // Functions whose qualified name is `name`, or else whose name is; in source order.
  std::vector<FunctionRef> find(std::string_view name) const;
  // The scanned functions that `caller` calls directly by name, sorted (wide calls through a
  // template parameter or a functor are followed by reachable_from only).
  std::span<const FunctionRef> callees(FunctionRef caller) const;
  // Everything `from` reaches through calls, sorted; `from` itself only when it is recursive.
  std::vector<FunctionRef> reachable_from(FunctionRef from) const;
  // Whether `function` calls through a value rather than a name (a table of function pointers,
  // a function that returns one, a functor parameter): it may then reach any function whose
  // address its code takes, which only the caller can tell (it sees the file-scope tables too).
  // A parameter whose type is one of `class_names` (the classes the sources define) is an
  // object whose operator() runs, not a function pointer.
  bool dispatches(FunctionRef function, const std::set<std::string, std::less<>>& class_names) const;
  // The macros that a function's identifiers name, and those their bodies name in turn, sorted.
  std::vector<MacroRef> macros_used(FunctionRef function, MacroReach reach) const;

 private:
  std::vector<FunctionRef> resolve(FunctionRef caller, std::string_view call, int alias_depth = 0) const;
  // Ns::f where Ns is an alias (using Ns = ns::Foo<float>; namespace Ns = ns;): the calls it
  // stands for, the target in place of the alias ("ns::Foo::f").
  std::vector<std::string> through_aliases(std::string_view call) const;
  // The name every function of which a call may reach (Runner::Run -> "Run", op(x) ->
  // "operator()"), for a call through a template parameter or a parameter.
  std::optional<std::string_view> wide_call(FunctionRef caller, std::string_view call,
                                            std::span<const std::string_view> template_names) const;
  std::size_t slot(FunctionRef ref) const { return m_first_slot[ref.source] + ref.index; }

  std::span<const ScannedSource> m_sources;
  std::vector<std::size_t> m_first_slot;            // per source, the slot of its first function
  std::vector<std::vector<FunctionRef>> m_callees;  // per slot
  // Per slot, sorted: names whose every function a call through a template parameter or a
  // functor may reach. Kept as names, not edges: a hundred functors times a hundred callers
  // would be ten thousand edges.
  std::vector<std::vector<std::string_view>> m_wide_calls;
  std::unordered_map<std::string_view, std::vector<FunctionRef>> m_by_name;  // by last component
  std::unordered_map<std::string_view, std::vector<FunctionRef>> m_by_qualified_name;
  std::unordered_map<std::string_view, std::vector<MacroRef>> m_macros_by_name;
  // Aliases by the last component of their name: (qualified name, target). Views of the sources.
  std::unordered_map<std::string_view, std::vector<std::pair<std::string_view, std::string_view>>> m_aliases;
  // Per source, per macro: the names its body uses (views of Macro::body), parameters left out.
  std::vector<std::vector<std::vector<std::string_view>>> m_macro_names;
};

}  // namespace kforecast::kernels
