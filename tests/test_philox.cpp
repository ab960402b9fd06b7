#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>

#include "cellgraph/exact_math.hpp"
#include "cellgraph/model.hpp"
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

TEST_CASE("philox: a cell's random sequence is keyed and endless") {
  CellRandom a(7, 3, 5, RandomStream::model), b(7, 3, 5, RandomStream::model), c(7, 3, 6, RandomStream::model);
  const Philox4x32 first = random_words(7, 3, 5, RandomStream::model, 0);
  const Philox4x32 second = random_words(7, 3, 5, RandomStream::model, 1);
  for (int i = 0; i < 4; ++i) CHECK(a.word() == first.v[i]);
  for (int i = 0; i < 4; ++i) CHECK(a.word() == second.v[i]);
  for (int i = 0; i < 8; ++i) b.word();
  CHECK(a.word() == b.word());
  CHECK(CellRandom(7, 3, 5, RandomStream::model).word() != c.word());
}

TEST_CASE("cell context: a deferred context reads the step and the id when asked, and draws as a valued one") {
  // The GPU's context points at the step counter and the cell's user id: read where random()
  // (or step(), vertex()) asks, not when the context is made, so a rule that draws nothing
  // loads neither. The numbers are those of a context holding the values.
  std::uint32_t counter = 5, user = 1234;
  const CellContext deferred = CellContext::deferred(42, &counter, 2, &user, 8);
  counter = 6;  // changed after the context was made: read later
  user = 4321;
  CHECK(deferred.step() == 8);
  CHECK(deferred.vertex() == 4321);
  CHECK(deferred.degree() == 8);
  CHECK(deferred.seed() == 42);
  const CellContext valued(42, 8, 4321, 8);
  CellRandom a = deferred.random(), b = valued.random();
  for (int i = 0; i < 6; ++i) CHECK(a.word() == b.word());
  CellRandom other = CellContext(42, 8, 4322, 8).random();
  CHECK(other.word() != CellContext(42, 8, 4321, 8).random().word());
}

TEST_CASE("philox: uniform doubles are k / 2^53, below 1, with mean 1/2") {
  double sum = 0;
  CellRandom r(1, 0, 0, RandomStream::model);
  for (int i = 0; i < 100000; ++i) {
    const double u = r.uniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    CHECK(u * 9007199254740992.0 == std::floor(u * 9007199254740992.0));
    sum += u;
  }
  CHECK(sum / 100000 == doctest::Approx(0.5).epsilon(0.005));  // sd of the mean: 0.0009
}

TEST_CASE("philox: bernoulli draws and below(n) have the right frequencies, without modulo bias") {
  CellRandom r(2, 9, 4, RandomStream::model);
  int hits = 0;
  for (int i = 0; i < 100000; ++i) hits += r.bernoulli(0.3);
  CHECK(hits == doctest::Approx(30000).epsilon(0.02));  // 4.4 sd
  CHECK_FALSE(r.bernoulli(0.0));
  CHECK(r.bernoulli(1.0));
  // n = 3 * 2^30: word % n would put words in [0, 2^30) and [3 * 2^30, 2^32) both below 2^30,
  // half of all draws, where a third belong.
  const std::uint32_t n = 3u << 30;
  int low = 0;
  for (int i = 0; i < 60000; ++i) {
    const std::uint32_t x = r.below(n);
    REQUIRE(x < n);
    low += x < (1u << 30);
  }
  CHECK(low == doctest::Approx(20000).epsilon(0.03));  // unbiased: a third; modulo: a half
  for (std::uint32_t m : {1u, 2u, 7u}) CHECK(r.below(m) < m);
}

TEST_CASE("exact math: portable exp and integer powers agree with the C library") {
  for (double x : {-700.0, -20.5, -1.0, -1e-9, 0.0, 0.3, 1.0, 2.5, 88.0, 700.0})
    CHECK(portable_exp(x) == doctest::Approx(std::exp(x)).epsilon(1e-15));
  CHECK(portable_exp(-1000.0) == 0.0);
  CHECK(std::isinf(portable_exp(1000.0)));
  CHECK(portable_exp(0.0) == 1.0);
  CHECK(power(0.9, 0) == 1.0);
  CHECK(power(0.5, 10) == 1.0 / 1024);
  CHECK(power(0.9, 37) == doctest::Approx(std::pow(0.9, 37)).epsilon(1e-15));
}
