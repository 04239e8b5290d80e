// SPDX-License-Identifier: Apache-2.0
#include "capture/injection_library.hpp"

#include <fmt/format.h>

#include <vector>

namespace kforecast::capture {

Result<std::filesystem::path> find_injection_library(const std::filesystem::path& kforecast_binary,
                                                     const EnvLookup& env, const FileExists& exists) {
  if (auto chosen = env("KFORECAST_CAPTURE_LIBRARY"); chosen && !chosen->empty()) {
    if (exists(*chosen)) return std::filesystem::path(*chosen);
    return fail(ExitCode::could_not_run,
                fmt::format("KFORECAST_CAPTURE_LIBRARY names {}, which does not exist; unset it to use the library "
                            "installed with kforecast",
                            *chosen));
  }
  const std::filesystem::path folder = kforecast_binary.parent_path();
  const std::vector<std::filesystem::path> candidates = {
      folder / injection_library_name,
      (folder.parent_path() / "lib" / "kforecast" / injection_library_name).lexically_normal()};
  for (const auto& candidate : candidates)
    if (exists(candidate)) return candidate;
  return fail(ExitCode::could_not_run,
              fmt::format("the injection library {} was found neither beside kforecast ({}) nor in {}: build it "
                          "('cmake --build BUILD --target kforecast_capture') or reinstall kforecast "
                          "('cmake --install BUILD'); or set KFORECAST_CAPTURE_LIBRARY to its path",
                          injection_library_name, candidates[0].string(), candidates[1].parent_path().string()));
}

}  // namespace kforecast::capture
