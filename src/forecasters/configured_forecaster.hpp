// SPDX-License-Identifier: Apache-2.0
#pragma once

// The forecaster the config asks for, as a ForecasterFactory (forecasters/forecaster.hpp): the embedded
// one, or where prompts are given the LLM, with the embedded one standing in for its failures
// where forecast.fallback = "embedded". cli hands it to the gate as the real one.

#include <iosfwd>

#include "base/environment.hpp"
#include "base/progress.hpp"
#include "config/config.hpp"
#include "forecasters/forecaster.hpp"
#include "forecasters/llm_settings.hpp"

namespace kforecast::forecasters {

// `config` must outlive the factory. `world`: what the LLM forecaster reaches outside kforecast
// (forecasters/llm_settings.hpp). `progress`: a terminal for the LLM's progress line, or nullptr;
// `warnings`: where the first retry is announced.
ForecasterFactory configured_forecaster(const config::Config& config, EnvLookup env, LlmWorld world,
                                        Progress* progress, std::ostream& warnings);

}  // namespace kforecast::forecasters
