// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <string>

#include "capture/injection/sha256.hpp"

using kforecast::capture::injection::Sha256;
using kforecast::capture::injection::sha256_hex;

namespace {
std::string hash_of(const std::string& text) { return sha256_hex(std::as_bytes(std::span(text.data(), text.size()))); }
}  // namespace

TEST_CASE("capture sha256: the FIPS 180-4 test vectors") {
  CHECK(hash_of("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hash_of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hash_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hash_of(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("capture sha256: added in pieces equals added at once") {
  const std::string text(200, 'x');
  Sha256 pieces;
  for (std::size_t at = 0; at < text.size(); at += 13)
    pieces.add(std::as_bytes(std::span(text.data() + at, std::min<std::size_t>(13, text.size() - at))));
  CHECK(pieces.hex() == hash_of(text));
}
