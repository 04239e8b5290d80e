// SPDX-License-Identifier: Apache-2.0
#pragma once

// Whether a failed compile is the change's fault or kforecast's lack of context.
// kforecast compiles device code on its own (NVRTC: no C or C++ library, no project flags or
// include folders beyond the ones it finds); a merged commit the project builds fine may still
// fail there. Only an error in the project's own code, where the base compiled, is a real break.

#include <optional>
#include <string>
#include <string_view>

#include "kernels/revision_sources.hpp"

namespace kforecast::builds {

// What the compiler lacked, in words (`cannot open "stdint.h"`, `an error inside
// /usr/local/cuda/include/cublas_api.h`), or nullopt when the first error is in the project's own
// code. `log` is the compile error as the compiler reports it (NVRTC's log).
std::optional<std::string> missing_context(std::string_view log);

// The first error line of `log` ("k.cu(12): error: ..."), or "" when there is none.
std::string first_error(std::string_view log);

// The first `count` lines of `text`.
std::string first_lines(std::string_view text, std::size_t count);

// The log from its first error on (warnings before it, such as a project's `#warning`s about
// defines it expects, would fill a note), `count` lines of it.
std::string from_first_error(std::string_view log, std::size_t count);

// Whether the first error of `log` lies in the host code of one of `head`'s files: inside a
// function body, outside every function device code runs (a toolkit that rejects the project's
// host code is missing context, not a break). An error at file scope is not host code.
bool error_in_host_code(std::string_view log, const kernels::RevisionSources* head);

}  // namespace kforecast::builds
