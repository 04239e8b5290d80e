// SPDX-License-Identifier: Apache-2.0
#include "bench/launch_description.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bench/resolved_launch.hpp"

namespace kforecast::bench {
namespace {

// One line of the spec's own text: control characters flattened, long text cut.
std::string clipped(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, max_expression_chars)) out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  if (text.size() > max_expression_chars) out += "...";
  return out;
}

std::string expression_list(const std::vector<std::string>& expressions) {
  std::vector<std::string> items;
  for (const auto& expression : expressions) items.push_back(clipped(expression));
  return fmt::format("[{}]", fmt::join(items, ", "));
}

std::string_view role_text(Role role) {
  switch (role) {
    case Role::out:
      return "output";
    case Role::inout:
      return "input and output";
    case Role::in:
      break;
  }
  return "input";
}

std::string written_argument(const ArgumentSpec& arg) {
  if (const auto* scalar = std::get_if<ScalarSpec>(&arg.value))
    return fmt::format("    {}: scalar = {}", clipped(arg.name), clipped(scalar->value));
  const auto& buffer = std::get<BufferSpec>(arg.value);
  std::string text = fmt::format("    {}: buffer, count = {}", clipped(arg.name), clipped(buffer.count));
  if (!buffer.type.empty()) text += fmt::format(", type = {}", clipped(buffer.type));
  if (buffer.init) text += fmt::format(", init = {}", clipped(buffer.init->text));
  return text + fmt::format(", {}", role_text(buffer.role));
}

std::string dims(const std::array<std::uint32_t, 3>& d) { return fmt::format("({}, {}, {})", d[0], d[1], d[2]); }

// A scalar's value as the spec gives it, evaluated for this size when it is an integer
// expression (a floating literal stays as written).
std::string scalar_value(const LaunchSpec& spec, const ResolvedArgument& argument, const SizeVariables& size) {
  const auto arg = std::ranges::find(spec.args, argument.name, &ArgumentSpec::name);
  if (arg == spec.args.end()) return "?";
  const std::string& text = std::get<ScalarSpec>(arg->value).value;
  if (auto value = evaluate(text, size)) return std::to_string(*value);
  return clipped(text);
}

std::string evaluated_size(const LaunchSpec& spec, const ResolvedLaunch& launch) {
  const std::int64_t threads_per_block = std::int64_t{launch.block[0]} * launch.block[1] * launch.block[2];
  const std::int64_t blocks = std::int64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
  std::string text = fmt::format(
      "  size {}: grid {}, block {}, dynamic shared memory {} bytes; {} blocks of {} threads ({} threads)\n",
      launch.size_text(), dims(launch.grid), dims(launch.block), launch.shared_bytes, blocks, threads_per_block,
      blocks * threads_per_block);
  for (const auto& argument : launch.arguments) {
    if (argument.buffer)
      text += fmt::format("    {}: buffer of {} {} elements ({} bytes), {}\n", argument.name, argument.count,
                          argument.type.name, argument.bytes(), role_text(argument.role));
    else
      text += fmt::format("    {}: {} = {}\n", argument.name, argument.type.name,
                          scalar_value(spec, argument, launch.size));
  }
  return text;
}

}  // namespace

LaunchDescription describe_launch(const LaunchSpec& spec, const std::vector<kernels::Parameter>& parameters,
                                  std::string_view where) {
  LaunchDescription description;
  std::string& text = description.text;
  text = fmt::format("From the launch spec at {} ({}) for {}.\n", clipped(spec.origin), where, clipped(spec.name));
  text += "As written (expressions over the size variables):\n";
  text += fmt::format("  grid = {}\n  block = {}\n  dynamic shared memory bytes = {}\n", expression_list(spec.grid),
                      expression_list(spec.block), clipped(spec.shared_bytes));
  if (!spec.defines.empty()) {
    std::vector<std::string> defines;
    for (const auto& [name, value] : spec.defines)
      defines.push_back(value.empty() ? clipped(name) : fmt::format("{}={}", clipped(name), clipped(value)));
    text += fmt::format("  defines: {}\n", fmt::join(defines, ", "));
  }
  if (!spec.args.empty()) {
    text += "  arguments:\n";
    for (std::size_t i = 0; i < spec.args.size(); ++i) {
      if (i == max_described_arguments) {
        text += fmt::format("    [... {} more arguments not shown ...]\n", spec.args.size() - i);
        break;
      }
      text += written_argument(spec.args[i]) + "\n";
    }
  }

  // Sizes as the spec lists them; a spec without sizes has one launch, with no variables.
  std::vector<SizeVariables> sizes = spec.sizes;
  if (sizes.empty()) sizes.emplace_back();
  text += fmt::format("Problem sizes ({}), evaluated:\n", sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i == max_described_sizes) {
      text += fmt::format("  [... {} more sizes not shown ...]\n", sizes.size() - i);
      break;
    }
    auto launch = resolve_launch(spec, sizes[i], parameters);
    if (launch) {
      text += evaluated_size(spec, *launch);
      continue;
    }
    ResolvedLaunch named;
    named.size = sizes[i];
    text += fmt::format("  size {}: not evaluated ({})\n", named.size_text(), clipped(launch.error().message));
    description.problems.push_back(
        fmt::format("the launch spec does not resolve for size {}: {}", named.size_text(), launch.error().message));
  }
  text.pop_back();  // the last line's newline: the caller places the block
  return description;
}

}  // namespace kforecast::bench
