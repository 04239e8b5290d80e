// SPDX-License-Identifier: Apache-2.0
#pragma once

// One recorded launch, as docs/design/capture.md describes it, and the decisions made about it:
// what each parameter is (a pointer into an allocation, a value, or a struct hiding a pointer),
// which part of each reached allocation is kept, and whether within the byte budget. Pure
// logic: the callbacks in injection.cpp feed it the driver's answers, tests feed it their own.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "capture/injection/allocation_table.hpp"
#include "capture/injection/parameter_layout.hpp"

namespace kforecast::capture::injection {

struct LaunchShape {
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{1, 1, 1};
  unsigned shared_bytes = 0;
};

enum class ParameterKind { pointer, value, pointer_inside };
enum class Contents { captured, synthetic };

struct ParameterRecord {
  ParameterSlot slot;
  ParameterKind kind = ParameterKind::value;
  std::vector<std::byte> bytes;  // the parameter as passed
  int allocation = -1;           // pointer: the index into LaunchRecord::allocations
  std::uint64_t offset_in_allocation = 0;
  std::string reason;  // pointer_inside: which bytes point where
};

struct AllocationRecord {
  Allocation allocation;
  std::uint64_t lowest_offset = 0;  // of the pointers into it this launch passes
  std::uint64_t region_offset = 0;
  std::uint64_t region_bytes = 0;
  Contents contents = Contents::synthetic;
  std::string blob;             // "blobs/<sha256>.bin" once written
  std::vector<std::byte> data;  // the region's bytes, until written
};

struct LaunchRecord {
  std::string mangled;
  std::string demangled;
  std::string module;  // sha256 of the cubin, empty where no module was seen
  LaunchShape shape;
  std::uint32_t ordinal = 0;
  bool layout_known = false;
  std::vector<ParameterRecord> parameters;
  std::vector<AllocationRecord> allocations;
  std::vector<std::string> notes;
};

// Where an address points: the tracked allocation, or the driver's answer for memory the
// library did not see allocated (cuMemGetAddressRange); nullopt for a non-device value.
using AllocationLookup = std::function<std::optional<Allocation>(std::uint64_t address)>;

// Fills `record.parameters` and `record.allocations` from the parameter bytes (the buffer each
// slot's offset indexes, or nullopt per slot where the launch did not pass it).
void classify_parameters(LaunchRecord& record, std::span<const ParameterSlot> slots,
                         const std::function<std::optional<std::vector<std::byte>>(const ParameterSlot&)>& bytes_of,
                         const AllocationLookup& lookup);

// Chooses each allocation's kept region within `budget_left` bytes (lowered by what is kept):
// the whole allocation where it fits; else, for a pool, from the lowest pointer into it to its
// end; else nothing (synthetic). Each choice short of the whole allocation is a note.
void choose_regions(LaunchRecord& record, std::uint64_t& budget_left);

// What makes two launches of one kernel the same shape: grid, block, dynamic shared memory and
// the value parameters' bytes (pointers are not, so each new buffer is not a new shape).
std::string shape_key(const LaunchRecord& record);

std::string hex(std::span<const std::byte> bytes);
std::string byte_count(std::uint64_t bytes);  // "4 MiB", "512 B"

}  // namespace kforecast::capture::injection
