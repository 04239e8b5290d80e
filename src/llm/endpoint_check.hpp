// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `kforecast doctor` asks of an endpoint: is it reachable, does it accept the key, does it
// list the model (GET /models), and which structured-output method works (one small forecast,
// walking the ladder as a real run would).

#include <string>
#include <vector>

#include "llm/forecast_client.hpp"

namespace kforecast::llm {

struct ModelsCheck {
  bool reachable = false;
  bool authenticated = false;
  std::vector<std::string> models;  // ids from {"data":[{"id":...}]} (OpenAI) or {"models":[{"name"|"model":...}]}
  std::string problem;              // why a step failed, key redacted
};

ModelsCheck check_models(const ForecastClient& client, const http::HttpTransport& transport);

struct OutputCheck {
  bool works = false;
  std::string method;  // the rung and where the answer was: "json_schema (content)"
  int requests = 0;
  std::string problem;
};

// Sends one forecast for a tiny kernel pair through `client` (costs one to a few requests).
OutputCheck check_structured_output(ForecastClient& client);

}  // namespace kforecast::llm
