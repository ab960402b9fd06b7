#include <doctest/doctest.h>

#include "cellgraph/philox.hpp"

using namespace cellgraph;

// Known-answer vectors of Random123 (kat_vectors, philox4x32 with 10 rounds).
TEST_CASE("philox: known answers") {
  auto check = [](Philox4x32 ctr, std::uint32_t k0, std::uint32_t k1, Philox4x32 want) {
    Philox4x32 got = philox4x32_10(ctr, k0, k1);
    for (int i = 0; i < 4; ++i) CHECK(got.v[i] == want.v[i]);
  };
  check({{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}});
  check({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu, 0xffffffffu,
        {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}});
  check({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u, 0x299f31d0u,
        {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}});
}

TEST_CASE("philox: bernoulli and uniform are exact at the ends") {
  CHECK_FALSE(bernoulli(0, 0.0));
  CHECK(bernoulli(0xffffffffu, 1.0));
  CHECK(bernoulli(0x7fffffffu, 0.5));
  CHECK_FALSE(bernoulli(0x80000000u, 0.5));
  CHECK(uniform_float(0) == 0.0f);
  CHECK(uniform_float(0xffffffffu) < 1.0f);
}
