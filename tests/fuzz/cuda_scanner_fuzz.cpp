// SPDX-License-Identifier: Apache-2.0
// CUDA sources come from the pull request under review, so they are untrusted: any bytes must
// scan without a crash, a hang or a sanitizer report, and what is found must hold together.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kernel_changes/changed_kernels.hpp"
#include "kernel_changes/launch_inputs.hpp"
#include "kernel_changes/library_kernels.hpp"
#include "kernels/call_graph.hpp"
#include "kernels/fingerprint.hpp"
#include "kernels/launch_sites.hpp"
#include "kernels/lexer.hpp"
#include "kernels/scanner.hpp"
#include "kernels/token_similarity.hpp"

namespace {

bool within(const kforecast::kernels::Span& span, std::size_t size) {
  return span.begin <= span.end && span.end <= size && span.first_line <= span.last_line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::kernels;
  using namespace kforecast::kernel_changes;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  // Every token lies inside the input, in order, on the line its offset says.
  std::size_t previous_end = 0;
  std::uint32_t line = 1;
  std::size_t counted_to = 0;
  for (const Token& token : lex(text)) {
    const auto begin = static_cast<std::size_t>(token.text().data() - text.data());
    if (begin < previous_end || begin + token.text().size() > size) __builtin_trap();
    for (; counted_to < begin; ++counted_to) line += text[counted_to] == '\n';
    if (token.line != line) __builtin_trap();
    previous_end = begin + token.text().size();
  }

  const ScannedSource scanned = scan_cuda_source(text);
  for (const Function& f : scanned.functions) {
    if (f.name.empty() || f.qualified_name.empty()) __builtin_trap();
    if (!within(f.signature, size) || !within(f.body, size) || !within(f.whole, size)) __builtin_trap();
    if (!f.from_macro && (f.whole.begin != f.signature.begin || f.whole.end < f.body.end)) __builtin_trap();
    (void)token_fingerprint(text, f.body);
  }
  for (const Macro& m : scanned.macros)
    if (m.name.empty() || !within(m.span, size)) __builtin_trap();

  const CallGraph graph(scanned);
  for (std::size_t i = 0; i < scanned.functions.size(); ++i) {
    (void)graph.reachable_from({0, i});
    (void)graph.macros_used({0, i}, MacroReach::with_callees);
    (void)graph.dispatches({0, i}, {});
  }

  // What a pull request's change is read with: a file compared with itself changes nothing.
  for (const LaunchSite& site : launch_sites(text))
    if (site.kernel.empty() || site.line == 0 || site.offset >= size) __builtin_trap();
  if (!changed_launches(text, text).empty()) __builtin_trap();
  const TokenShingles shingles = token_shingles(text, Span{0, size, 1, 1});
  if (shingles.hashes.size() > most_tokens_read || jaccard(shingles, shingles) != 1.0) __builtin_trap();
  const SourceFiles files{{"k.cu", std::string(text)}};
  // Two objects: find_changed_kernels reads the base on a second thread.
  const RevisionSources base(files), head(files);
  (void)library_kernels(head);
  if (!changed_launch_inputs(base, "k.cu", head, "k.cu").empty()) __builtin_trap();
  if (!find_changed_kernels(base, head, {}, {"k.cu"}).kernels.empty()) __builtin_trap();
  return 0;
}
