// SPDX-License-Identifier: Apache-2.0
#pragma once

// Header names the CUDA toolkit and the C library provide at the top of their include folders.
// A library may hold a file of the same name in a folder of its own (CUTLASS's cutlass/arch/mma.h
// beside the <mma.h> its wmma.h includes); an include of such a name in angle brackets is the
// toolkit's, and must not make that folder an include folder, which would hide the toolkit's.

#include <string_view>

namespace kforecast::context {

bool is_system_header_name(std::string_view name);

}  // namespace kforecast::context
