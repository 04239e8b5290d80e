// SPDX-License-Identifier: Apache-2.0
#pragma once

// The instruction mix of one kernel's PTX, read from the text NVRTC returns: how many
// instructions of each kind the entry's body holds (static counts: a loop body counts once).
// Counts are static, so they are per-thread work only where the entry has no backward branch
// (every loop unrolled); backward_branches says where that holds.
// PTX from any source is untrusted here (this is a fuzz target): any bytes give counts, never an
// error; an entry that is not there gives found = false.

#include <string_view>

namespace kforecast::embedded {

struct PtxMix {
  bool found = false;
  double instructions = 0;
  double global_loads = 0;      // ld.global (also ld.global.nc)
  double global_loads_128 = 0;  // of which 128 bits wide or more (v4.f32, v2.f64, ...)
  double global_stores = 0;
  double shared_loads = 0;
  double shared_stores = 0;
  double local_accesses = 0;  // ld.local and st.local: spills and stack arrays
  double fma = 0;             // fma.* and mad.*
  double fp64 = 0;            // arithmetic on .f64
  double tensor = 0;          // mma, wmma, wgmma
  double atomics = 0;         // atom.*, red.*
  double branches = 0;        // bra
  double special = 0;         // ex2, lg2, sin, cos, rsqrt, rcp, sqrt, tanh (approximate SFU forms)
  double shuffles = 0;        // shfl.*
  double barriers = 0;        // bar.*, barrier.*
  // Bytes moved, by the access widths: what one thread asks of the memory system per pass.
  double global_load_bytes = 0;
  double global_store_bytes = 0;
  double shared_atomics = 0;     // atom.shared.*, red.shared.*: on-SM, cheap unless contended
  double fp32 = 0;               // arithmetic on .f32 (add, mul, fma, min, max, ...)
  double backward_branches = 0;  // branches to a label above them: loops the compiler kept
  friend bool operator==(const PtxMix&, const PtxMix&) = default;
};

// The mix of the entry (kernel) called `entry`, as PTX names it: the mangled name, or the plain
// name of an extern "C" kernel. Instructions of non-inlined .func bodies are not counted.
PtxMix ptx_instruction_mix(std::string_view ptx, std::string_view entry);

// The bit width of a memory access from its opcode: ld.global.v4.f32 -> 128, st.shared.u8 -> 8;
// 0 when the opcode names no width. Exposed for tests.
int access_bits(std::string_view opcode);

}  // namespace kforecast::embedded
