// SPDX-License-Identifier: Apache-2.0
#include "capture/replay_launch.hpp"

#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bench/element_type.hpp"
#include "capture/capture_reader.hpp"

namespace kforecast::capture {
namespace {

// What a parameter's signature tells: whether it is a pointer, and the type of its elements
// (or of its value) where kforecast knows it.
struct SignatureView {
  bool pointer = false;
  bool pointer_to_pointer = false;
  std::optional<bench::ElementType> element;
};

SignatureView signature_view(const kernels::Parameter& parameter) {
  SignatureView view;
  const auto stars = std::ranges::count(parameter.type, '*');
  view.pointer = stars > 0;
  view.pointer_to_pointer = stars > 1;
  if (auto shape = bench::parameter_shape(parameter.type)) view.element = bench::element_type(shape->element);
  return view;
}

// Bytes where the type is unknown (a template parameter, a struct): compared exactly.
bench::ElementType byte_type(int count = 1) {
  return bench::ElementType{"unsigned char", bench::ScalarKind::unsigned_integer, 1, count};
}

std::string argument_name(const kernels::Parameter& parameter, std::size_t index) {
  return parameter.name.empty() ? fmt::format("argument {}", index) : parameter.name;
}

// Synthetic contents by type: floating values in [-1, 1); integers (often indices or sizes) and
// bytes of unknown type zero, which stays in bounds wherever an index can.
bench::InitSpec synthetic_init(const bench::ElementType& type) {
  bench::InitSpec init;
  if (type.is_floating()) return init;
  init.distribution = bench::Distribution::constant;
  init.a = 0;
  init.text = "constant(0)";
  return init;
}

// The reader checked that every pointer's allocation exists.
std::size_t allocation_index(const Capture& capture, std::int64_t id) {
  return static_cast<std::size_t>(std::ranges::find(capture.allocations, id, &CapturedAllocation::id) -
                                  capture.allocations.begin());
}

}  // namespace

Result<void> check_replayable(const Capture& capture, const std::vector<kernels::Parameter>& parameters,
                              const std::string& kernel_label) {
  const auto refuse = [&](const std::string& why) {
    return usage_error(fmt::format("cannot replay the capture of {} for {}: {}", capture.kernel.mangled, kernel_label, why));
  };
  if (capture.layout_unknown)
    return refuse("cannot replay: the kernel's parameter layout was not known at this launch (its module loaded "
                  "lazily, inside the launch): capture again with CUDA_MODULE_LOADING=EAGER, which `kforecast "
                  "capture` sets unless the environment chose otherwise");
  for (const auto& parameter : capture.parameters)
    if (parameter.kind == ParameterKind::pointer_inside)
      return refuse(fmt::format("cannot replay: pointer inside argument {}{}", parameter.index,
                                parameter.reason.empty() ? "" : fmt::format(" ({})", parameter.reason)));
  if (capture.parameters.size() != parameters.size())
    return refuse(fmt::format("the capture has {} parameters and the kernel's signature {}: the layout does not match "
                              "(a capture of another overload or version?)",
                              capture.parameters.size(), parameters.size()));
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const auto& captured = capture.parameters[i];
    const SignatureView view = signature_view(parameters[i]);
    const std::string name = argument_name(parameters[i], i);
    if (view.pointer) {
      if (view.pointer_to_pointer && captured.kind == ParameterKind::pointer)
        return refuse(fmt::format("argument {} ('{}', {}) points to pointers, whose captured values are addresses of "
                                  "the recording process",
                                  i, name, parameters[i].type));
      if (captured.size != 8)
        return refuse(fmt::format("argument {} ('{}') is a pointer, and the capture gives it {} bytes", i, name,
                                  captured.size));
      if (captured.kind == ParameterKind::value &&
          std::ranges::any_of(captured.bytes, [](std::byte b) { return b != std::byte{0}; }))
        return refuse(fmt::format("argument {} ('{}') is a pointer the capture did not resolve to an allocation it "
                                  "tracked (memory from an allocator the capture library does not see?)",
                                  i, name));
      if (captured.kind == ParameterKind::pointer) {
        const auto& allocation = capture.allocations.at(allocation_index(capture, captured.allocation));
        if (captured.offset_in_allocation < allocation.region_offset ||
            captured.offset_in_allocation > allocation.region_offset + allocation.region_bytes)
          return refuse(fmt::format("argument {} points at byte {} of allocation {}, outside the kept region [{}, {})",
                                    i, captured.offset_in_allocation, allocation.id, allocation.region_offset,
                                    allocation.region_offset + allocation.region_bytes));
      }
      continue;
    }
    if (captured.kind == ParameterKind::pointer)
      return refuse(fmt::format("argument {} ('{}', {}) is not a pointer in the kernel's signature, and the capture "
                                "recorded a pointer",
                                i, name, parameters[i].type));
    if (view.element && captured.size != static_cast<std::uint32_t>(view.element->bytes()))
      return refuse(fmt::format("argument {} ('{}', {}) has {} bytes, and the capture gives it {}", i, name,
                                parameters[i].type, view.element->bytes(), captured.size));
  }
  return {};
}

Result<void> check_parameter_layout(const Capture& capture, const std::vector<cubin::ParameterSlot>& layout,
                                    const std::string& kernel_label) {
  const auto refuse = [&](const std::string& why) {
    return usage_error(fmt::format("cannot replay the capture of {} for {}: {}", capture.kernel.mangled, kernel_label, why));
  };
  if (layout.size() != capture.parameters.size())
    return refuse(fmt::format("the capture has {} parameters and the kernel's machine code {}: the layout does not "
                              "match (a capture of another version of the kernel?)",
                              capture.parameters.size(), layout.size()));
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const auto& captured = capture.parameters[i];
    if (layout[i].offset != captured.offset || layout[i].size != captured.size)
      return refuse(fmt::format("argument {} is {} bytes at offset {} in the kernel's machine code, and {} bytes at "
                                "offset {} in the capture",
                                i, layout[i].size, layout[i].offset, captured.size, captured.offset));
  }
  return {};
}

Result<bench::ResolvedLaunch> replay_launch(const Capture& capture, const std::filesystem::path& capture_file,
                                            const std::vector<kernels::Parameter>& parameters,
                                            const std::string& kernel_label, const bench::ResolvedLaunch* inputs_of,
                                            std::int64_t max_buffer_bytes) {
  if (auto ok = check_replayable(capture, parameters, kernel_label); !ok) return std::unexpected(ok.error());
  bench::ResolvedLaunch launch;
  launch.grid = capture.grid;
  launch.block = capture.block;
  launch.shared_bytes = capture.shared_bytes;
  launch.label = fmt::format("capture {}", capture_file.stem().generic_string());
  std::uint64_t total_bytes = 0;
  std::vector<std::int64_t> bound;  // allocations already given to an earlier parameter
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const auto& captured = capture.parameters[i];
    const SignatureView view = signature_view(parameters[i]);
    bench::ResolvedArgument argument;
    argument.name = argument_name(parameters[i], i);
    if (captured.kind != ParameterKind::pointer) {
      argument.type = view.element && !view.pointer ? *view.element : byte_type(static_cast<int>(captured.size));
      argument.scalar_bytes = captured.bytes;
      launch.arguments.push_back(std::move(argument));
      continue;
    }
    const std::size_t index = allocation_index(capture, captured.allocation);
    const CapturedAllocation& allocation = capture.allocations.at(index);
    // One buffer per allocation, shared by name; whole elements of the pointer's type, else bytes.
    bench::ElementType type = view.element.value_or(byte_type());
    if (allocation.region_bytes % static_cast<std::uint64_t>(type.bytes()) != 0) type = byte_type();
    argument.buffer = true;
    argument.name = fmt::format("allocation {}", allocation.id);
    argument.type = type;
    argument.count = static_cast<std::int64_t>(allocation.region_bytes / static_cast<std::uint64_t>(type.bytes()));
    argument.pointer_offset = static_cast<std::int64_t>(captured.offset_in_allocation - allocation.region_offset);
    argument.rtol = bench::default_rtol(type);
    argument.atol = bench::default_atol(type);
    // The first parameter into an allocation restores and compares it; the others share it.
    const bool first = std::ranges::find(bound, allocation.id) == bound.end();
    argument.role = first ? bench::Role::inout : bench::Role::in;
    if (first) {
      bound.push_back(allocation.id);
      total_bytes += allocation.region_bytes;
      if (total_bytes > static_cast<std::uint64_t>(max_buffer_bytes))
        return usage_error(fmt::format("cannot replay the capture of {} for {}: its allocations need more than {} bytes",
                                       capture.kernel.mangled, kernel_label, max_buffer_bytes));
      if (allocation.contents == Contents::captured) {
        argument.init.distribution = bench::Distribution::captured;
        argument.init.text = fmt::format("captured ({})", allocation.blob);
        if (inputs_of != nullptr)
          if (const auto shared = std::ranges::find(inputs_of->arguments, argument.name, &bench::ResolvedArgument::name);
              shared != inputs_of->arguments.end() && shared->init.captured)
            argument.init.captured = shared->init.captured;
        if (!argument.init.captured) {
          auto bytes = read_blob(capture_file, allocation, index);
          if (!bytes) return std::unexpected(bytes.error());
          argument.init.captured = std::make_shared<const std::vector<std::byte>>(std::move(*bytes));
        }
      } else {
        argument.init = synthetic_init(type);
      }
    }
    launch.arguments.push_back(std::move(argument));
  }
  return launch;
}

std::string launch_source(const Capture& capture, const std::filesystem::path& capture_file) {
  std::vector<std::string> synthetic;
  for (const auto& allocation : capture.allocations)
    if (allocation.contents == Contents::synthetic) synthetic.push_back(fmt::format("{}", allocation.id));
  if (synthetic.empty())
    return fmt::format("replayed capture {} (contents captured)", capture_file.generic_string());
  return fmt::format("replayed capture {} (synthetic data for allocation{} {}: over the byte budget)",
                     capture_file.generic_string(), synthetic.size() == 1 ? "" : "s", fmt::join(synthetic, ", "));
}

}  // namespace kforecast::capture
