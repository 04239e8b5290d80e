// SPDX-License-Identifier: Apache-2.0
#include "bench/kernel_source.hpp"

#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "base/nearest_name.hpp"
#include "bench/launch_spec_reader.hpp"
#include "kernels/device_source.hpp"

namespace kforecast::bench {
namespace {

// The comma-separated items of "a, b<c, d>, e" at bracket depth 0, trimmed.
std::vector<std::string> top_level_items(std::string_view text) {
  std::vector<std::string> items;
  int depth = 0;
  std::string item;
  const auto flush = [&] {
    const auto first = item.find_first_not_of(" \t\n");
    const auto last = item.find_last_not_of(" \t\n");
    items.push_back(first == std::string::npos ? "" : item.substr(first, last - first + 1));
    item.clear();
  };
  for (char c : text) {
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      flush();
      continue;
    }
    item += c;
  }
  flush();
  return items;
}

// Parameter types with the template's type parameters replaced by the instantiation's
// arguments: `const T*` of tmpl<3, float> becomes `const float*`, so buffers are typed.
void substitute_template_types(kernels::Function& function, std::string_view name_expression) {
  const auto open = function.template_parameters.find('<');
  const auto args_open = name_expression.find('<');
  if (open == std::string::npos || args_open == std::string_view::npos) return;
  const auto parameters = top_level_items(std::string_view(function.template_parameters)
                                              .substr(open + 1, function.template_parameters.rfind('>') - open - 1));
  const auto arguments =
      top_level_items(name_expression.substr(args_open + 1, name_expression.rfind('>') - args_open - 1));
  for (std::size_t i = 0; i < parameters.size() && i < arguments.size(); ++i) {
    const auto& parameter = parameters[i];
    if (!parameter.starts_with("typename ") && !parameter.starts_with("class ")) continue;
    std::string type_name = parameter.substr(parameter.find(' ') + 1);
    type_name = type_name.substr(0, type_name.find_first_of(" ="));
    for (auto& kernel_parameter : function.parameters) {
      std::string& type = kernel_parameter.type;
      for (std::size_t at = type.find(type_name); at != std::string::npos; at = type.find(type_name, at)) {
        const auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
        const bool whole = (at == 0 || !is_word(type[at - 1])) &&
                           (at + type_name.size() == type.size() || !is_word(type[at + type_name.size()]));
        if (!whole) {
          at += type_name.size();
          continue;
        }
        type.replace(at, type_name.size(), arguments[i]);
        at += arguments[i].size();
      }
    }
  }
}

}  // namespace

std::optional<std::pair<std::string, std::string>> split_file_kernel(std::string_view text) {
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] != ':') continue;
    const bool double_colon = (i > 0 && text[i - 1] == ':') || (i + 1 < text.size() && text[i + 1] == ':');
    if (double_colon) continue;
    if (i == 0 || i + 1 == text.size()) return std::nullopt;
    return std::pair{std::string(text.substr(0, i)), std::string(text.substr(i + 1))};
  }
  return std::nullopt;
}

Result<PreparedKernel> prepare_kernel(const KernelSource& source, std::string_view kernel,
                                      const std::function<bool(std::string_view)>& available_header) {
  const auto scanned = kernels::scan_cuda_source(source.text);
  const std::string_view base = kernel.substr(0, kernel.find('<'));
  const kernels::Function* found = nullptr;
  std::vector<std::string_view> names;
  for (const auto& function : scanned.functions) {
    if (function.kind != kernels::FunctionKind::global) continue;
    names.push_back(function.qualified_name);
    if ((function.qualified_name == base || function.name == base) && (found == nullptr || !found->has_body))
      found = &function;
  }
  if (found == nullptr)
    return usage_error(fmt::format("{}: no __global__ kernel '{}'{}", source.path, base, did_you_mean(base, names)));
  PreparedKernel prepared;
  prepared.label = source.label;
  prepared.function = *found;
  if (kernel.find('<') != std::string_view::npos) {
    if (found->template_parameters.empty())
      return usage_error(fmt::format("{}: kernel '{}' is not a template; drop the <...>", source.path, base));
    // "ns::tiled<64>" as given (the gate names an instantiation the project's build made), or
    // "tiled<64>" for the kernel of that name in its namespace.
    const auto scope_end = found->qualified_name.rfind("::");
    const bool qualified = base == found->qualified_name;
    prepared.name_expression =
        (scope_end == std::string::npos || qualified ? "" : found->qualified_name.substr(0, scope_end + 2)) +
        std::string(kernel);
  } else if (!found->template_parameters.empty()) {
    const auto open = found->instantiations.empty() ? std::string::npos : found->instantiations.front().find('<');
    if (open == std::string::npos)
      return usage_error(fmt::format("{}: kernel '{}' is a template ({}); name an instantiation, e.g. {}:{}<...>",
                                     source.path, base, found->template_parameters, source.path, base));
    const auto& instantiation = found->instantiations.front();
    const auto scope_end = found->qualified_name.rfind("::");
    prepared.name_expression = (scope_end == std::string::npos ? "" : found->qualified_name.substr(0, scope_end + 2)) +
                               found->name + instantiation.substr(open, instantiation.rfind('>') - open + 1);
  } else {
    prepared.name_expression = found->qualified_name;
  }
  substitute_template_types(prepared.function, prepared.name_expression);
  auto spec = read_comment_spec(source.text, found->signature.first_line, prepared.name_expression, source.path);
  if (!spec) return std::unexpected(spec.error());
  prepared.comment_spec = std::move(*spec);
  prepared.request.source = kernels::device_source(source.text, scanned, available_header).text;
  prepared.request.file_name = source.path;
  prepared.request.options = {"-default-device"};
  prepared.request.name_expressions = {prepared.name_expression};
  return prepared;
}

}  // namespace kforecast::bench
