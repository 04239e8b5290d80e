// SPDX-License-Identifier: Apache-2.0
#include "llm/endpoint_check.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"

#include "llm/endpoint_error.hpp"
#include "llm/gpu_properties.hpp"
#include "llm/kernel_prompt.hpp"

namespace kforecast::llm {

ModelsCheck check_models(const ForecastClient& client, const http::HttpTransport& transport) {
  ModelsCheck check;
  http::HttpRequest request = client.authorised_request("GET", client.models_url(), "");
  request.timeout = std::min(request.timeout, std::chrono::milliseconds(30000));
  const http::HttpResult result = transport.send(request);
  if (!result) {
    check.problem = client.redact(fmt::format("{}: {}", to_string(result.error().kind), result.error().message));
    return check;
  }
  check.reachable = true;
  if (result->status == 401 || result->status == 403) {
    check.problem =
        client.redact(fmt::format("HTTP {}: {}; check the key in ${} and endpoint.auth", result->status,
                                  parse_endpoint_error(result->body).message, client.settings().api_key_variable));
    return check;
  }
  check.authenticated = true;
  if (result->status < 200 || result->status >= 300) {
    check.problem = client.redact(fmt::format("GET {}: HTTP {}: {}", client.models_url(), result->status,
                                              parse_endpoint_error(result->body).message));
    return check;
  }
  const auto root = json_document::parse(result->body);
  if (!root) {
    check.problem = "the model list is not JSON";
    return check;
  }
  for (const char* list_key : {"data", "models"}) {
    const Json* list = json_document::array_at(*root, list_key);
    if (list == nullptr) continue;
    for (const Json& item : *list)
      for (const char* name_key : {"id", "name", "model"}) {
        if (const std::string* name = json_document::string_at(item, name_key)) {
          check.models.push_back(*name);
          break;
        }
      }
  }
  return check;
}

OutputCheck check_structured_output(ForecastClient& client) {
  const KernelPair pair{"scale",
                        "__global__ void scale(float* x, int n) {\n"
                        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "  if (i < n) x[i] = x[i] * 2.0f;\n}\n",
                        "__global__ void scale(float* x, int n) {\n"
                        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "  if (i < n) x[i] = x[i] + x[i];\n}\n",
                        "",
                        "",
                        "grid (n + 255) / 256, block 256, n = 1 << 24"};
  auto prompt = build_prompt(client.prompts(), pair, *find_gpu("H100"), Comments::keep);
  if (!prompt) return {false, "", 0, prompt.error().message};
  auto outcome = client.forecast(*prompt);
  if (!outcome) return {false, "", outcome.error().requests, outcome.error().message};
  return {true, outcome->method, outcome->requests, ""};
}

}  // namespace kforecast::llm
