// SPDX-License-Identifier: Apache-2.0
#include "capture/injection/launch_record.hpp"

#include <cstring>

namespace kforecast::capture::injection {
namespace {

constexpr std::size_t pointer_bytes = 8;

std::uint64_t word_at(std::span<const std::byte> bytes, std::size_t offset) {
  std::uint64_t word = 0;
  std::memcpy(&word, bytes.data() + offset, pointer_bytes);
  return word;
}

// The index of `allocation` in the record, added where new; each pointer lowers its lowest offset.
int reach(LaunchRecord& record, const Allocation& allocation, std::uint64_t address) {
  const std::uint64_t offset = address - allocation.base;
  for (std::size_t i = 0; i < record.allocations.size(); ++i) {
    auto& known = record.allocations[i];
    if (known.allocation.base != allocation.base) continue;
    known.lowest_offset = std::min(known.lowest_offset, offset);
    return static_cast<int>(i);
  }
  record.allocations.push_back(AllocationRecord{.allocation = allocation, .lowest_offset = offset});
  return static_cast<int>(record.allocations.size() - 1);
}

}  // namespace

void classify_parameters(LaunchRecord& record, std::span<const ParameterSlot> slots,
                         const std::function<std::optional<std::vector<std::byte>>(const ParameterSlot&)>& bytes_of,
                         const AllocationLookup& lookup) {
  for (const ParameterSlot& slot : slots) {
    ParameterRecord parameter{.slot = slot};
    auto bytes = bytes_of(slot);
    if (!bytes) {
      record.notes.push_back("parameter " + std::to_string(slot.ordinal) +
                             ": the launch passed no bytes for it; cannot replay");
      record.parameters.push_back(std::move(parameter));
      continue;
    }
    parameter.bytes = std::move(*bytes);
    if (parameter.bytes.size() == pointer_bytes) {
      const std::uint64_t address = word_at(parameter.bytes, 0);
      if (auto allocation = lookup(address)) {
        parameter.kind = ParameterKind::pointer;
        parameter.allocation = reach(record, *allocation, address);
        parameter.offset_in_allocation = address - allocation->base;
      }
    } else if (parameter.bytes.size() > pointer_bytes) {
      // A by-value struct or a CUtensorMap: any aligned word into device memory is a pointer
      // the replay could not rewrite, so the launch cannot be replayed faithfully.
      for (std::size_t at = 0; at + pointer_bytes <= parameter.bytes.size(); at += pointer_bytes) {
        const std::uint64_t address = word_at(parameter.bytes, at);
        auto allocation = lookup(address);
        if (!allocation) continue;
        const int index = reach(record, *allocation, address);
        if (!parameter.reason.empty()) parameter.reason += ", ";
        parameter.reason += "bytes " + std::to_string(at) + "-" + std::to_string(at + pointer_bytes - 1) +
                            " point into allocation " + std::to_string(index);
        parameter.kind = ParameterKind::pointer_inside;
      }
    }
    record.parameters.push_back(std::move(parameter));
  }
}

void choose_regions(LaunchRecord& record, std::uint64_t& budget_left) {
  for (std::size_t i = 0; i < record.allocations.size(); ++i) {
    AllocationRecord& allocation = record.allocations[i];
    const std::uint64_t whole = allocation.allocation.bytes;
    const std::uint64_t from_lowest = whole - allocation.lowest_offset;
    const std::string name = "allocation " + std::to_string(i) + " (" + byte_count(whole) + ")";
    if (whole <= budget_left) {
      allocation.region_offset = 0;
      allocation.region_bytes = whole;
      allocation.contents = Contents::captured;
    } else if (allocation.lowest_offset > 0 && from_lowest <= budget_left) {
      allocation.region_offset = allocation.lowest_offset;
      allocation.region_bytes = from_lowest;
      allocation.contents = Contents::captured;
      record.notes.push_back(name + ": kept the " + byte_count(from_lowest) +
                             " from the lowest pointer on (byte budget); a pool allocation holds other data before it");
    } else {
      allocation.region_offset = allocation.lowest_offset;
      allocation.region_bytes = from_lowest;
      allocation.contents = Contents::synthetic;
      record.notes.push_back(name + ": over the byte budget (" + byte_count(budget_left) +
                             " left): contents not kept, replay fills synthetic data");
      continue;
    }
    budget_left -= allocation.region_bytes;
  }
}

std::string shape_key(const LaunchRecord& record) {
  std::string key;
  for (unsigned v : record.shape.grid) key += std::to_string(v) + ",";
  for (unsigned v : record.shape.block) key += std::to_string(v) + ",";
  key += std::to_string(record.shape.shared_bytes);
  for (const ParameterRecord& parameter : record.parameters)
    if (parameter.kind == ParameterKind::value)
      key += ";" + std::to_string(parameter.slot.ordinal) + "=" + hex(parameter.bytes);
  return key;
}

std::string hex(std::span<const std::byte> bytes) {
  constexpr char digits[] = "0123456789abcdef";
  std::string text;
  text.reserve(bytes.size() * 2);
  for (std::byte byte : bytes) {
    const auto value = std::to_integer<unsigned>(byte);
    text.push_back(digits[value >> 4]);
    text.push_back(digits[value & 0xf]);
  }
  return text;
}

std::string byte_count(std::uint64_t bytes) {
  constexpr std::uint64_t kib = 1024;
  if (bytes >= kib * kib * kib && bytes % (kib * kib * kib) == 0)
    return std::to_string(bytes / (kib * kib * kib)) + " GiB";
  if (bytes >= kib * kib && bytes % (kib * kib) == 0) return std::to_string(bytes / (kib * kib)) + " MiB";
  if (bytes >= kib && bytes % kib == 0) return std::to_string(bytes / kib) + " KiB";
  return std::to_string(bytes) + " B";
}

}  // namespace kforecast::capture::injection
