// SPDX-License-Identifier: Apache-2.0
#pragma once

// Relocatable device code from a project's Makefile: a kernel that calls a device function of
// another file links only when compiled with -dc (or -rdc=true); compiled whole-program, ptxas
// stops on the unresolved extern. Makefiles are read as text (untrusted, never run): any word
// -dc, --device-c, -rdc=true or --relocatable-device-code=true outside a comment counts, as CMake's
// flags do (cmake_defines.hpp). Defines and other flags are not taken from Makefiles: their
// conditionals (ifeq) are not evaluated, and their branches' alternatives would all count.

#include <string_view>
#include <vector>

#include "context/found_define.hpp"

namespace kforecast::context {

// "-rdc=true" once, where `text` asks for relocatable device code; `name` ("Makefile") for where.
std::vector<FoundDefine> read_makefile_flags(std::string_view text, std::string_view name);

// The Makefile names make looks for, in its order.
inline constexpr std::string_view makefile_names[] = {"GNUmakefile", "makefile", "Makefile"};

}  // namespace kforecast::context
