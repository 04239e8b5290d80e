// SPDX-License-Identifier: Apache-2.0
#pragma once

// The forecaster the config asks for, as a ForecasterFactory (gate/outside.hpp): the embedded
// one, or where prompts are given the LLM, with the embedded one standing in for its failures
// where forecast.fallback = "embedded". cli hands it to the gate as the real one.

#include <iosfwd>

#include "base/environment.hpp"
#include "config/config.hpp"
#include "gate/outside.hpp"

namespace kforecast::gate {

// `config` must outlive the factory. `progress`: a terminal for the LLM's progress line, or
// nullptr; `warnings`: where the first retry is announced.
ForecasterFactory configured_forecaster(const config::Config& config, EnvLookup env, std::ostream* progress,
                                        std::ostream& warnings);

}  // namespace kforecast::gate
