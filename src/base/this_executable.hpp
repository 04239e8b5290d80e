// SPDX-License-Identifier: Apache-2.0
#pragma once

// The path of the running kforecast binary (/proc/self/exe), for the children it starts as
// itself: the confined compiler, the measuring child, the sandbox probe, the pre-commit hook.

#include <string>

namespace kforecast {

// Empty where /proc cannot tell.
std::string this_executable();

}  // namespace kforecast
