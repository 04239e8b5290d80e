// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which kernels a change touches: a kernel changed when its body or signature changed, or a device
// function it reaches, or a macro or file-scope declaration (type, constant, table) its code names,
// in its file or any local header that file includes, or when a touched file launches it with a new
// configuration (launch_changes.hpp over kernels/launch_sites.hpp; reason "launch configuration at
// file:line changed"), or with the same text naming a constant, macro or local whose definition
// changed, in the launching file or a header it includes (launch_inputs.hpp; reason "launch
// template argument BK changed (file:line)"). A library kernel that runs a project class's
// operator() (CUTLASS's device_kernel<Op>, library_kernels.hpp) is reported under the operator()'s
// sites and name ("demo::ScaleOp::operator()"), its first reason "library kernel
// cutlass::device_kernel<demo::ScaleOp> runs demo::ScaleOp::operator()"; its sites' function is
// then a __device__ function, not a __global__ one. Changes to comments and whitespace alone are
// not changes, nor are those a code formatter makes (kernels/canonical_tokens.hpp): a commit that
// only reformats changes no kernel. Kernels only in the head are added, only in the base removed,
// except where a removed and an added kernel of one file are one kernel moved (kernel_pairing.hpp):
// under a new qualification only (ns::k was k) it is the same kernel, modified only where its code
// changed (reason "qualified name changed from k"); with the same body and parameters under a new
// name it is renamed; with a similar body under a new name it is modified, its first reason
// "renamed from old_name". A kernel a macro writes, or that a changed generated file instantiates
// (kernel_origins.hpp; reason "instantiated by generated file F (added)"), is named so
// (ChangedKernel::produced_by), its last reason saying what settles it.

#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/revision_sources.hpp"

namespace kforecast::kernel_changes {

enum class KernelChange { modified, added, removed, renamed };

struct KernelSite {
  std::string file;
  std::string qualified_name;
  std::uint32_t line = 0;          // where its declaration starts
  std::size_t function_index = 0;  // into kernels::RevisionSources::scanned(file).functions
};

// Where a kernel's code is not text the scan reads whole: written by a macro
// (DEFINE_KERNEL(foo, ...) or DEFINE_FWD(name, ...) { body }), or instantiated by a file that a
// build-time generator wrote (generated_units.hpp). Its change is read from the macro's text or
// the generated file; only compiling the units that expand or instantiate it settles whether
// its machine code changed.
struct KernelOrigin {
  enum class Kind { macro, generator };
  Kind kind = Kind::macro;
  std::string name;  // the macro ("DEFINE_REDUCE_KERNEL"), or the generator the file names ("generate_kernels.py")
  std::string file;  // where the macro is defined, or the generated file
};

// The reason a kernel whose own text changed is given, beside what else it reaches.
inline constexpr std::string_view own_source_reason = "the kernel's own source changed";

struct ChangedKernel {
  KernelChange change = KernelChange::modified;
  std::optional<KernelSite> base;    // absent for an added kernel
  std::optional<KernelSite> head;    // absent for a removed kernel
  std::vector<std::string> reasons;  // "device function ns::f changed", "macro TILE changed", ... (own_source_reason)
  std::optional<KernelOrigin> produced_by;  // set where a macro or a generator writes the kernel
};

struct FileRename {
  std::string old_path;
  std::string new_path;
};

struct ChangeAnalysis {
  std::vector<ChangedKernel> kernels;  // in head file order, then removed kernels
  // Kernels whose text changed only in comments or whitespace: "file: name".
  std::vector<std::string> comment_only;
  // Kernels whose text changed only in what a code formatter rewrites beyond whitespace (braces
  // around one statement, the order of specifiers, `> >`, a number's case:
  // kernels/canonical_tokens.hpp), and in comments and whitespace: "file: name". Not changed
  // kernels, as comment_only's are not.
  std::vector<std::string> formatting_only;
};

// `touched` holds every path the diff names, old and new. Only kernels whose file, or a header
// it includes, was touched are considered.
ChangeAnalysis find_changed_kernels(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                    std::span<const FileRename> renames,
                                    const std::set<std::string, std::less<>>& touched);

// Why one named pair of kernels differs, whatever their files and names (`kforecast check --vs`):
// the reasons find_changed_kernels gives, or none where the kernel and everything it reaches
// read the same (comments and whitespace aside).
std::vector<std::string> kernel_change_reasons(const kernels::RevisionSources& base, const KernelSite& base_site,
                                               const kernels::RevisionSources& head, const KernelSite& head_site);

std::string_view to_string(KernelChange change);

}  // namespace kforecast::kernel_changes
