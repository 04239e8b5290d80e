// SPDX-License-Identifier: Apache-2.0
#pragma once

// The kernels of a CUDA cubin (what `nvcc -cubin -arch=sm_XX` writes), each with everything that
// decides how it runs, normalised so that two builds of unchanged code compare equal: symbol
// indices are replaced by names, file-local namespace hashes by one fixed name, and debug data,
// section headers and addresses are left out. The cubin is untrusted (built from pull-request
// code): a malformed one is an Error, never a crash or undefined behaviour.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "cubin/module_reference.hpp"

namespace kforecast::cubin {

struct CubinRelocation {
  std::uint64_t offset = 0;  // in the section it patches; for a clone, from the clone's start
  std::uint32_t type = 0;    // R_CUDA_*
  std::string target;        // the normalised name of the symbol (or section) it refers to
  std::int64_t addend = 0;
  friend bool operator==(const CubinRelocation&, const CubinRelocation&) = default;
};

// A .nv.info record of a function: from its own `.nv.info.<function>` section, or from the
// global `.nv.info` (there the leading symbol index, which names the function, is dropped).
struct CubinAttribute {
  std::uint8_t id = 0;               // EIATTR_* (nv_info.hpp)
  std::vector<std::byte> value;      // with the symbol indices it held set to zero...
  std::vector<std::string> symbols;  // ...and their normalised names here, in order
  friend bool operator==(const CubinAttribute&, const CubinAttribute&) = default;
};

// Machine code with what the driver needs to run it.
struct CubinFunction {
  std::string name;  // normalised mangled name; for a clone `$kernel$callee`, the callee's
  std::vector<std::byte> code;
  // The instructions of `code` that address module data, and what they find there: the code
  // of two builds that differs only there, each reading the same thing, is the same code whose
  // data moved (module_reference.hpp).
  std::vector<ModuleReference> module_references;
  std::vector<CubinRelocation> relocations;
  std::vector<CubinAttribute> attributes;
  // The text section header's sh_flags and the top byte of its sh_info (the rest is a symbol
  // index), where older toolkits kept a function's barrier and register counts; CUDA 13 keeps
  // neither there (flags 0x6, info the symbol), but compared they cost nothing. 0 for clones.
  std::uint64_t section_flags = 0;
  std::uint8_t section_info_top = 0;
  friend bool operator==(const CubinFunction&, const CubinFunction&) = default;
};

// A section that is not code: its bytes (none for NOBITS sections, whose size is what counts).
struct CubinData {
  std::string name;  // a kernel's own sections are named without the kernel: ".nv.shared"
  std::uint64_t size = 0;
  std::vector<std::byte> bytes;
  std::vector<CubinRelocation> relocations;
  friend bool operator==(const CubinData&, const CubinData&) = default;
};

struct CubinKernel {
  std::string symbol;              // mangled, as in the cubin
  std::string normalized_symbol;   // file-local hashes replaced: base and head kernels pair by it
  std::string signature;           // "void tiled<64>(float*, float const*, int)", normalised
  std::string name;                // "tiled", "ns::k"
  std::string template_arguments;  // "<64>", or empty

  // The kernel's own code (its text section less the callees cloned into it) and attributes.
  CubinFunction body;
  // The non-inlined functions it calls, sorted by name: those nvcc cloned into the kernel's text
  // section (`$kernel$callee` symbols), and those in sections of their own reached through
  // relocations and the .nv.callgraph section, transitively. Shared, not copied, between the
  // kernels that call one function, so that memory stays in proportion to the cubin's size.
  std::vector<std::shared_ptr<const CubinFunction>> callees;
  // The kernel's other sections, by name without the kernel: ".nv.shared" (static shared
  // memory), ".nv.constant0" (the parameter bank), and any other `.nv.X.<kernel>`.
  std::vector<CubinData> sections;
  // What any kernel of the module may read: constant banks (`__constant__` data), initialised
  // globals, and .nv.info records about no function. Which of it a kernel uses would take
  // disassembly to know, so every kernel carries all of it: a change there changes them all.
  // One object for all the kernels of a cubin; never null.
  std::shared_ptr<const std::vector<CubinData>> module_data = std::make_shared<const std::vector<CubinData>>();

  // Readable facts, also part of the above.
  int registers = 0;  // EIATTR_REGCOUNT
  std::uint64_t static_shared_bytes =
      0;  // the size of .nv.shared.<kernel>, which on sm_90 includes 1 KiB the system reserves
  std::uint64_t parameter_bank_bytes = 0;  // the size of .nv.constant0.<kernel>
  std::uint64_t instructions = 0;  // text section bytes / 16 (sm_70 and later), cloned callees and padding included
  std::optional<std::uint32_t> max_threads;  // __launch_bounds__' first argument, x * y * z
  // The register limit ptxas worked under (EIATTR_MAXREG_COUNT): 255 unless __launch_bounds__'
  // minimum blocks per SM (or -maxrregcount) lowered it; no attribute of its own records the
  // minimum blocks.
  std::optional<std::uint32_t> register_limit;
  // Barriers the kernel uses: EIATTR_NUM_BARRIERS where CUDA 13 puts it, else bits 20 to 26 of
  // its text section's sh_flags, where CUDA 11.8 and 12 keep it (both found by compiling one
  // kernel with each NVRTC). The compiler fact ptxas 11.8's report leaves out.
  int barriers = 0;
  // The stack the kernel needs with its callees (EIATTR_MIN_STACK_SIZE): ptxas 12's "cumulative
  // stack size", which ptxas 11.8's report leaves out.
  std::optional<std::uint32_t> min_stack_bytes;
};

// The kernels (FUNC symbols that nvcc marks as entry points, st_other 0x10) of a cubin, in
// symbol table order. Accepts whole-program (ET_EXEC) and relocatable (-rdc=true, ET_REL)
// cubins. Besides what the ELF reader refuses, an Error where two kernels share a text section,
// functions in one overlap, or the call graph is too large to follow (a hostile file's way to
// make the reader run for hours).
Result<std::vector<CubinKernel>> read_cubin_kernels(std::span<const std::byte> cubin);

}  // namespace kforecast::cubin
