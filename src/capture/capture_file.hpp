// SPDX-License-Identifier: Apache-2.0
#pragma once

// One recorded kernel launch, as a capture file holds it (docs/design/capture.md, version 1).
// This header and capture_writer.cpp use the standard library only, so the injection library
// (loaded into the user's process, where fmt and a JSON library must not be) can compile them in.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kforecast::capture {

inline constexpr int capture_format_version = 1;

enum class ParameterKind { pointer, value, pointer_inside };
enum class Contents { captured, synthetic };

struct CapturedKernel {
  std::string mangled;    // the symbol in the module: "_Z5scalePffi"
  std::string demangled;  // "scale(float*, float, int)"
  std::string module;     // sha256 of the cubin the launch ran; may be empty
};

struct CapturedParameter {
  std::uint32_t index = 0;
  std::uint32_t offset = 0;  // in the parameter buffer
  std::uint32_t size = 0;
  ParameterKind kind = ParameterKind::value;
  std::int64_t allocation = -1;             // pointer: the allocation's id
  std::uint64_t offset_in_allocation = 0;   // pointer: where it points
  std::vector<std::byte> bytes;             // value, pointer_inside: the bytes, as passed
  std::string reason;                       // pointer_inside: which word points where
};

struct CapturedAllocation {
  std::int64_t id = 0;
  std::uint64_t bytes = 0;          // the whole allocation
  std::uint64_t region_offset = 0;  // the part kept and restored
  std::uint64_t region_bytes = 0;
  Contents contents = Contents::synthetic;
  std::string blob;  // captured: "blobs/<sha256>.bin", relative to the capture file's folder
};

struct Capture {
  CapturedKernel kernel;
  std::vector<std::string> program;  // the command that launched it
  std::string device_name;
  std::string compute_capability;  // "9.0"
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  std::uint32_t shared_bytes = 0;
  std::uint64_t ordinal = 0;  // which launch of this shape
  std::vector<CapturedParameter> parameters;
  // The injection library writes "parameters": null when it did not know the kernel's layout at
  // the launch (its module loaded lazily, inside that launch): such a capture cannot be replayed.
  bool layout_unknown = false;
  std::vector<CapturedAllocation> allocations;
  std::vector<std::string> notes;
};

// The capture file's JSON text. Strings are escaped; numbers are integers; a value's bytes are
// lower-case hex in memory order.
std::string capture_json(const Capture& capture);

// The folder of a kernel's captures under capture.dir: 16 hex digits of FNV-1a 64 over the
// mangled name. Readers find captures by the `kernel` field of each file, so the folder name is
// a convention for tidiness, never trusted.
std::string kernel_folder_name(const std::string& mangled);

}  // namespace kforecast::capture
