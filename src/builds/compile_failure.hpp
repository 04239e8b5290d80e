// SPDX-License-Identifier: Apache-2.0
#pragma once

// Whether a failed compile is the change's fault or kforecast's lack of context.
// kforecast compiles device code on its own (NVRTC: no C or C++ library, no project flags or
// include folders beyond the ones it finds); a merged commit the project builds fine may still
// fail there. Only an error in the project's own code, where the base compiled, is a real break.

#include <optional>
#include <string>
#include <string_view>

namespace kforecast::builds {

// What the compiler lacked, in words (`cannot open "stdint.h"`, `an error inside
// /usr/local/cuda/include/cublas_api.h`), or nullopt when the first error is in the project's own
// code. `log` is the compile error as the compiler reports it (NVRTC's log).
std::optional<std::string> missing_context(std::string_view log);

// The first error line of `log` ("k.cu(12): error: ..."), or "" when there is none.
std::string first_error(std::string_view log);

}  // namespace kforecast::builds
