// SPDX-License-Identifier: Apache-2.0
#include "capture/injection/parameter_layout.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>

namespace kforecast::capture::injection {
namespace {

template <class Unsigned>
std::optional<Unsigned> read(std::span<const std::byte> bytes, std::uint64_t offset) {
  if (offset > bytes.size() || sizeof(Unsigned) > bytes.size() - offset) return std::nullopt;
  Unsigned value = 0;
  std::memcpy(&value, bytes.data() + offset, sizeof(Unsigned));  // ELF64 little-endian on a little-endian host
  return value;
}

std::optional<std::span<const std::byte>> range(std::span<const std::byte> bytes, std::uint64_t offset,
                                                std::uint64_t length) {
  if (offset > bytes.size() || length > bytes.size() - offset) return std::nullopt;
  return bytes.subspan(offset, length);
}

constexpr std::uint8_t format_sized_value = 0x04;
constexpr std::uint8_t attribute_kparam_info = 0x17;
constexpr std::uint64_t kparam_info_size = 12;  // u32 index, u16 ordinal, u16 offset, u32 flags (size in bits 18-31)
constexpr std::string_view nv_info_prefix = ".nv.info.";

// The kparam_info records of one `.nv.info.<kernel>` section, nullopt where it is malformed.
std::optional<std::vector<ParameterSlot>> parameter_slots(std::span<const std::byte> section) {
  std::vector<ParameterSlot> slots;
  std::uint64_t at = 0;
  while (at < section.size()) {
    const auto format = read<std::uint8_t>(section, at);
    const auto id = read<std::uint8_t>(section, at + 1);
    if (!format || !id) return std::nullopt;
    if (*format != format_sized_value) {
      if (*format < 0x01 || *format > 0x03) return std::nullopt;
      at += 4;  // NVAL, BVAL, HVAL: header and a 2-byte value
      continue;
    }
    const auto size = read<std::uint16_t>(section, at + 2);
    if (!size) return std::nullopt;
    const auto value = range(section, at + 4, *size);
    if (!value) return std::nullopt;
    if (*id == attribute_kparam_info && *size >= kparam_info_size) {
      const auto flags = *read<std::uint32_t>(*value, 8);
      slots.push_back(ParameterSlot{.ordinal = *read<std::uint16_t>(*value, 4),
                                    .offset = *read<std::uint16_t>(*value, 6),
                                    .size = (flags >> 18) & 0x3fff});
    }
    at += 4 + *size;
  }
  std::ranges::sort(slots, {}, &ParameterSlot::ordinal);
  return slots;
}

}  // namespace

CubinLayouts read_parameter_layouts(std::span<const std::byte> image) {
  CubinLayouts layouts;
  constexpr std::uint64_t header_size = 64;
  constexpr std::uint64_t section_header_size = 64;
  if (image.size() < header_size || std::memcmp(image.data(),
                                                "\x7f"
                                                "ELF",
                                                4) != 0) {
    layouts.problem = "the module is not an ELF cubin (PTX compiled at load time, or a fatbinary)";
    return layouts;
  }
  const auto section_offset = read<std::uint64_t>(image, 0x28);
  const auto entry_size = read<std::uint16_t>(image, 0x3a);
  const auto section_count = read<std::uint16_t>(image, 0x3c);
  const auto names_index = read<std::uint16_t>(image, 0x3e);
  if (!section_offset || *entry_size != section_header_size || *names_index >= *section_count ||
      !range(image, *section_offset, std::uint64_t{*section_count} * section_header_size)) {
    layouts.problem = "the cubin's section header table is malformed";
    return layouts;
  }
  auto section_bytes = [&](std::uint16_t index) -> std::optional<std::span<const std::byte>> {
    const std::uint64_t header = *section_offset + std::uint64_t{index} * section_header_size;
    const auto offset = read<std::uint64_t>(image, header + 0x18);
    const auto size = read<std::uint64_t>(image, header + 0x20);
    if (!offset || !size) return std::nullopt;
    return range(image, *offset, *size);
  };
  const auto names = section_bytes(*names_index);
  if (!names) {
    layouts.problem = "the cubin's section name table lies outside the image";
    return layouts;
  }
  for (std::uint16_t i = 0; i < *section_count; ++i) {
    const auto name_offset = read<std::uint32_t>(image, *section_offset + std::uint64_t{i} * section_header_size);
    if (!name_offset || *name_offset >= names->size()) continue;
    const auto* start = reinterpret_cast<const char*>(names->data()) + *name_offset;
    const std::string_view name(start, strnlen(start, names->size() - *name_offset));
    if (!name.starts_with(nv_info_prefix) || name.size() == nv_info_prefix.size()) continue;
    const auto bytes = section_bytes(i);
    if (!bytes) continue;
    if (auto slots = parameter_slots(*bytes))
      layouts.kernels.emplace(std::string(name.substr(nv_info_prefix.size())), std::move(*slots));
  }
  return layouts;
}

}  // namespace kforecast::capture::injection
