// SPDX-License-Identifier: Apache-2.0
#include "http/curl_transport.hpp"

#include <catch2/catch.hpp>

#include "base/environment.hpp"
#include "support/fake_http_server.hpp"

using namespace kforecast::http;
using namespace kforecast::testing;
using namespace std::chrono_literals;

TEST_CASE("http transport: a GET and a POST, headers and body both ways") {
  FakeHttpServer server;
  server.enqueue({200, {{"X-Thing", "  value  "}, {"Retry-After", "3"}}, "hello"});
  server.enqueue(ScriptedResponse::json(201, "{}"));
  auto transport = make_curl_transport({});
  auto got = transport->send({"GET", server.base_url() + "/models", {{"X-Custom", "1"}}, "", 5000ms});
  REQUIRE(got);
  CHECK(got->status == 200);
  CHECK(got->body == "hello");
  CHECK(got->header("x-thing") == "value");
  CHECK(got->header("retry-after") == "3");
  const std::string big(300000, 'x');  // large enough for curl to want 100-continue, which we turn off
  auto posted = transport->send({"POST", server.base_url() + "/v1/x", {}, big, 5000ms});
  REQUIRE(posted);
  CHECK(posted->status == 201);
  const auto requests = server.requests();
  CHECK(requests[0].method == "GET");
  CHECK(requests[0].header("x-custom") == "1");
  CHECK(requests[1].body == big);
  CHECK_FALSE(requests[1].header("expect"));
}

TEST_CASE("http transport: proxies come from the environment seam") {
  FakeHttpServer proxy;
  proxy.enqueue(ScriptedResponse::json(200, "{}"));
  const auto settings =
      proxy_settings_from(kforecast::fixed_environment({{"http_proxy", proxy.base_url()}, {"NO_PROXY", "internal"}}));
  CHECK(settings.http_proxy == proxy.base_url());
  CHECK(settings.no_proxy == "internal");
  auto transport = make_curl_transport({.proxies = settings});
  auto got = transport->send({"POST", "http://llm.example.invalid:8000/v1/chat/completions", {}, "{}", 5000ms});
  REQUIRE(got);
  CHECK(proxy.requests().at(0).target == "http://llm.example.invalid:8000/v1/chat/completions");

  // HTTP_PROXY in upper case is ignored, as curl does (a CGI request header can set it).
  CHECK(proxy_settings_from(kforecast::fixed_environment({{"HTTP_PROXY", "http://evil"}})).http_proxy.empty());
  CHECK(proxy_settings_from(kforecast::fixed_environment({{"HTTPS_PROXY", "http://p:3128"}})).https_proxy ==
        "http://p:3128");
}

TEST_CASE("http transport: without a proxy variable, none is used") {
  auto transport = make_curl_transport({});
  auto got = transport->send({"POST", "http://llm.example.invalid:8000/v1", {}, "{}", 3000ms});
  REQUIRE_FALSE(got);
  CHECK(got.error().kind == TransportFailure::connect);
}

TEST_CASE("http transport: TLS is verified: a bad CA bundle is a connection failure that says what to do") {
  FakeHttpServer plain;  // speaks no TLS at all
  auto transport = make_curl_transport({.ca_bundle = "/nonexistent/ca.pem"});
  auto got = transport->send({"POST", "https://127.0.0.1:" + std::to_string(plain.port()) + "/v1", {}, "{}", 3000ms});
  REQUIRE_FALSE(got);
  CHECK(got.error().kind == TransportFailure::connect);
}

TEST_CASE("http transport: a response over the size limit is refused") {
  FakeHttpServer server;
  server.enqueue({200, {}, std::string(4096, 'x')});
  auto transport = make_curl_transport({.max_response_bytes = 1024});
  auto got = transport->send({"GET", server.base_url(), {}, "", 3000ms});
  REQUIRE_FALSE(got);
  CHECK_THAT(got.error().message, Catch::Contains("larger than 1024 bytes"));
}
