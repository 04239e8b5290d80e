// SPDX-License-Identifier: Apache-2.0
#pragma once

// `doctor`'s endpoint lines: is the configured LLM endpoint reachable, is the key accepted, is the
// model listed, and which structured-output method works (one small forecast request). Problems
// are lines, never errors: doctor diagnoses. The caller gives the transport (only cli builds one).

#include <vector>

#include "base/environment.hpp"
#include "base/status_line.hpp"
#include "config/config.hpp"
#include "http/http_transport.hpp"

namespace kforecast::forecasters {

// Nothing is sent when the config is invalid or names no endpoint.
std::vector<StatusLine> describe_endpoint(const Result<config::Config>& config, const EnvLookup& env,
                                          const http::HttpTransport& transport);

}  // namespace kforecast::forecasters
