// The bit-packed kernel on the CPU: 64 cells per word, bit i of word j = cell x = 64j + i, the
// count by bit-sliced adders (bit_logic.hpp). Each row is stored between two halo words; before
// every step the halo bits next to the row's first and last cell are set to the boundary's
// image of x = -1 and x = W, so the sweep itself never tests an edge.
#include <omp.h>

#include <bit>

#include "cellgraph/dense/bit_logic.hpp"
#include "cellgraph/dense/cell_hash.hpp"
#include "cellgraph/error.hpp"
#include "dense/automata.hpp"

namespace cellgraph::dense {
namespace {

using Word = std::uint64_t;
constexpr int kBits = 64;

// Three-cell sums of a row at word i (the row pointer addresses word 0; words -1 and nw exist).
inline TwoBits<Word> row_sums(const Word* row, std::size_t i) {
  const Word left = (row[i] << 1) | ((row + i)[-1] >> (kBits - 1));  // i is unsigned: row[i - 1] wraps at 0
  const Word right = (row[i] >> 1) | (row[i + 1] << (kBits - 1));
  return add3(left, row[i], right);
}

template <class Logic>
void step_row(const Word* above, const Word* row, const Word* below, Word* out, std::size_t words, Logic logic) {
  for (std::size_t i = 0; i < words; ++i)
    out[i] = logic(row[i], add_rows(row_sums(above, i), row_sums(row, i), row_sums(below, i)));
}

class BitGrid final : public Automaton {
 public:
  BitGrid(const GridShape& shape, const LifeRule& rule, int threads)
      : shape_(shape), rule_(rule), table_(rule), threads_(threads > 0 ? threads : omp_get_max_threads()),
        width_(shape.size[0]), height_(shape.size[1]), words_(std::size_t((width_ + kBits - 1) / kBits)),
        pitch_(words_ + 2), current_(pitch_ * std::size_t(height_)), next_(current_.size()),
        outside_(pitch_, outside_live(shape) ? ~Word(0) : 0) {}

  std::string name() const override {
    return std::string("bitpacked (cpu, 64-bit words, ") + (rule_.is_conway() ? "B3/S23 logic" : "table logic") + ", " +
           std::to_string(threads_) + " threads)";
  }
  const GridShape& shape() const override { return shape_; }
  std::uint64_t step() const override { return step_; }
  double bytes_per_update() const override { return 0.25; }

  void advance(std::uint64_t steps) override {
    for (std::uint64_t s = 0; s < steps; ++s, ++step_) {
      set_halo_bits();
      if (rule_.is_conway()) sweep(ConwayLogic{});
      else sweep(table_);
      current_.swap(next_);
    }
  }

  void fill_random(std::uint64_t seed, double density) override {
    if (!(density >= 0.0 && density <= 1.0)) throw Error("--fill must be a density from 0 to 1");
    for_each_word([&](std::int64_t y, std::size_t j, Word& word) {
      word = 0;
      for (int b = 0; b < kBits && std::int64_t(j) * kBits + b < width_; ++b)
        word |= Word(random_live(seed, std::uint64_t(y * width_ + std::int64_t(j) * kBits + b), density)) << b;
    });
    step_ = 0;
  }
  void set_states(const std::vector<std::uint8_t>& states) override {
    check_states(states, shape_, 2);
    for_each_word([&](std::int64_t y, std::size_t j, Word& word) {
      word = 0;
      for (int b = 0; b < kBits && std::int64_t(j) * kBits + b < width_; ++b)
        word |= Word(states[std::size_t(y * width_ + std::int64_t(j) * kBits + b)]) << b;
    });
    step_ = 0;
  }
  std::vector<std::uint8_t> states() const override {
    std::vector<std::uint8_t> out(shape_.cell_count());
    for (std::int64_t y = 0; y < height_; ++y)
      for (std::int64_t x = 0; x < width_; ++x)
        out[std::size_t(y * width_ + x)] = (row(y)[x / kBits] >> (x % kBits)) & 1;
    return out;
  }
  std::uint64_t hash() const override {
    std::uint64_t sum = 0;
#pragma omp parallel for num_threads(threads_) reduction(+ : sum) schedule(static)
    for (std::int64_t y = 0; y < height_; ++y)
      for (std::size_t j = 0; j < words_; ++j)
        for (Word w = row(y)[j]; w; w &= w - 1)
          sum += cell_hash(std::uint64_t(y * width_) + j * kBits + std::uint64_t(std::countr_zero(w)), 1);
    return sum;
  }
  std::uint64_t population() const override {
    std::uint64_t sum = 0;
#pragma omp parallel for num_threads(threads_) reduction(+ : sum) schedule(static)
    for (std::int64_t y = 0; y < height_; ++y)
      for (std::size_t j = 0; j < words_; ++j) sum += std::uint64_t(std::popcount(row(y)[j]));
    return sum;
  }

 private:
  Word* row(std::int64_t y) { return current_.data() + std::size_t(y) * pitch_ + 1; }
  const Word* row(std::int64_t y) const { return current_.data() + std::size_t(y) * pitch_ + 1; }
  // The row standing for y (any integer): a grid row, or the outside of a fixed boundary.
  const Word* row_image(std::int64_t y) const {
    const std::int64_t source = image(y, height_, shape_.edge);
    return source < 0 ? outside_.data() + 1 : row(source);
  }
  Word cell(const Word* r, std::int64_t x) const { return (r[x / kBits] >> (x % kBits)) & 1; }
  // The bits beyond the last cell of a row are kept 0: hashes and populations read whole words.
  Word last_word_mask() const { return width_ % kBits ? (Word(1) << (width_ % kBits)) - 1 : ~Word(0); }

  template <class F>
  void for_each_word(F f) {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (std::int64_t y = 0; y < height_; ++y)
      for (std::size_t j = 0; j < words_; ++j) f(y, j, row(y)[j]);
  }

  // Bit 63 of word -1 is the image of x = -1; the bit after the last cell, the image of x = W.
  void set_halo_bits() {
    const int tail = int(width_ % kBits);
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (std::int64_t y = 0; y < height_; ++y) {
      Word* r = row(y);
      auto outside = [&](std::int64_t x) {
        const std::int64_t source = image(x, width_, shape_.edge);
        return source < 0 ? Word(outside_live(shape_)) : cell(r, source);
      };
      const Word before = outside(-1), after = outside(width_);
      r[-1] = before << (kBits - 1);
      if (tail) r[words_ - 1] = (r[words_ - 1] & last_word_mask()) | (after << tail);
      else r[words_] = after;
    }
  }

  template <class Logic>
  void sweep(const Logic& logic) {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (std::int64_t y = 0; y < height_; ++y) {
      Word* out = next_.data() + std::size_t(y) * pitch_ + 1;
      step_row(row_image(y - 1), row(y), row_image(y + 1), out, words_, logic);
      out[words_ - 1] &= last_word_mask();
    }
  }

  GridShape shape_;
  LifeRule rule_;
  TableLogic table_;
  int threads_;
  std::int64_t width_, height_;
  std::size_t words_, pitch_;
  std::vector<Word> current_, next_, outside_;
  std::uint64_t step_ = 0;
};

}  // namespace

std::unique_ptr<Automaton> make_cpu_bitpacked(const GridShape& shape, const LifeRule& rule, int threads) {
  return std::make_unique<BitGrid>(shape, rule, threads);
}

}  // namespace cellgraph::dense
