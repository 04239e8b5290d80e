// SPDX-License-Identifier: Apache-2.0
// Macros that launch the kernel one of their parameters names (launch_sites.hpp).
#include <algorithm>

#include "kernels/canonical_tokens.hpp"
#include "kernels/launch_reference.hpp"
#include "kernels/launch_sites.hpp"
#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

std::string text_of(std::span<const Token> tokens, std::size_t first, std::size_t last) {
  return canonical_text(tokens.subspan(first, last + 1 - first));
}

// The parameter a kernel reference in the body names, if it names one alone.
std::optional<std::size_t> parameter_named(const Macro& macro, std::span<const Token> body,
                                           const std::optional<KernelReference>& kernel) {
  if (!kernel || kernel->name_first != kernel->name_last || kernel->arguments_open) return std::nullopt;
  const auto found = std::ranges::find(macro.parameters, body[kernel->name_first].text());
  if (found == macro.parameters.end()) return std::nullopt;
  return static_cast<std::size_t>(found - macro.parameters.begin());
}

std::optional<LaunchWrapper> wrapper_of(const Macro& macro) {
  const std::vector<Token> body = lex(macro.body);
  LaunchWrapper wrapper{macro.name, macro.parameters, 0, {}};
  for (std::size_t i = 0; i + 1 < body.size(); ++i) {
    const Token& t = body[i];
    if (t.is_punct("<<") && body[i + 1].is_punct("<") && i > 0) {
      // kernel<<<config>>>(...)
      std::size_t end = i + 2;
      while (end + 1 < body.size() && !body[end].is_punct(">>>") &&
             !(body[end].is_punct(">>") && body[end + 1].is_punct(">")))
        ++end;
      const auto parameter = parameter_named(macro, body, kernel_reference(body, i - 1, i));
      if (!parameter || end + 1 >= body.size() || end == i + 2) continue;
      wrapper.kernel_parameter = *parameter;
      wrapper.configuration = text_of(body, i + 2, end - 1);
      return wrapper;
    }
    const bool ex = t.is_identifier("cudaLaunchKernelEx") || t.is_identifier("cudaLaunchKernelExC");
    const bool classic = t.is_identifier("cudaLaunchKernel") || t.is_identifier("cudaLaunchCooperativeKernel");
    if ((!ex && !classic) || !body[i + 1].is_punct("(")) continue;
    const std::size_t close = matching_close(body, i + 1);
    if (close >= body.size()) continue;
    const auto items = items_between(body, i + 1, close);
    const std::size_t kernel_item = ex ? 1 : 0;
    if (items.size() <= kernel_item) continue;
    const auto parameter =
        parameter_named(macro, body, kernel_reference(body, items[kernel_item].first, items[kernel_item].second + 1));
    if (!parameter) continue;
    wrapper.kernel_parameter = *parameter;
    for (std::size_t k = ex ? 0 : 1; k < items.size() && (!ex || k == 0); ++k) {
      if (!ex && k == 3) continue;  // the argument array
      if (!wrapper.configuration.empty()) wrapper.configuration += " , ";
      wrapper.configuration += text_of(body, items[k].first, items[k].second);
    }
    return wrapper;
  }
  return std::nullopt;
}

}  // namespace

std::vector<LaunchWrapper> launch_wrappers(std::span<const Macro> macros) {
  std::vector<LaunchWrapper> wrappers;
  for (const Macro& macro : macros) {
    if (!macro.function_like) continue;
    const bool launches =
        macro.body.find("<<<") != std::string::npos || macro.body.find("cudaLaunch") != std::string::npos;
    if (!launches) continue;
    if (auto wrapper = wrapper_of(macro);
        wrapper && std::ranges::none_of(wrappers, [&](const LaunchWrapper& w) { return w.name == wrapper->name; }))
      wrappers.push_back(std::move(*wrapper));
  }
  return wrappers;
}

}  // namespace kforecast::kernels
