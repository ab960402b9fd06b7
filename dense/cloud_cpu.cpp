// The bit-packed cloud kernel on the CPU: three bit planes (hum, act, cld), 64 cells of an
// x row per word, bit i of word j = cell x = 64j + i; row (y, z) of a plane follows row
// (y - 1, z), as cell ids do. Each row lies between two halo words. Only act is read across
// cells: before every step the act bits at x = -2, -1 (word -1) and x = W, W + 1 (after the
// row's last cell) are set to the boundary's images, so the x shifts never test an edge; rows
// beyond y and z edges are their images, or the zero row outside a fixed boundary.
#include <omp.h>

#include <bit>

#include "cellgraph/dense/cell_hash.hpp"
#include "cellgraph/error.hpp"
#include "dense/automata.hpp"
#include "dense/cloud_draws.hpp"

namespace cellgraph::dense {
namespace {

using Word = std::uint64_t;
constexpr int kBits = 64;

class CloudBitGrid final : public Automaton {
 public:
  CloudBitGrid(const GridShape& shape, const CloudRule& rule, int threads)
      : shape_(shape), rule_(rule), threads_(threads > 0 ? threads : omp_get_max_threads()), width_(shape.size[0]),
        height_(shape.size[1]), depth_(shape.size[2]), words_(std::size_t((width_ + kBits - 1) / kBits)),
        pitch_(words_ + 2), zero_row_(pitch_, 0) {
    for (Plane* p : {&current_, &next_})
      for (std::vector<Word>* bits : {&p->hum, &p->act, &p->cld})
        bits->assign(pitch_ * std::size_t(height_ * depth_), 0);
  }

  std::string name() const override {
    return "bitpacked cloud (cpu, 64-bit words, " + std::to_string(threads_) + " threads)";
  }
  const GridShape& shape() const override { return shape_; }
  std::uint64_t step() const override { return step_; }
  double bytes_per_update() const override { return 0.75; }  // three bits read, three written

  void advance(std::uint64_t steps) override {
    for (std::uint64_t s = 0; s < steps; ++s, ++step_) {
      set_act_halo();
      sweep();
      std::swap(current_, next_);
    }
  }

  void fill_random(std::uint64_t seed, double density) override {
    if (!(density >= 0.0 && density <= 1.0)) throw Error("--fill must be a density from 0 to 1");
    seed_ = seed;
    for_each_word([&](std::int64_t row, std::size_t j, Word& hum, Word& act, Word& cld) {
      hum = act = cld = 0;
      for (int b = 0; b < lanes(j); ++b) {
        const std::uint64_t id = cell_id(row, j, b);
        const CloudStart start = cloud_initial(rule_, seed, id);
        cld |= Word(random_live(seed, id, density)) << b;
        hum |= Word(start.hum) << b;
        act |= Word(start.act) << b;
      }
    });
    step_ = 0;
  }
  void set_states(const std::vector<std::uint8_t>& states) override {
    check_cloud_states(states, shape_);
    for_each_word([&](std::int64_t row, std::size_t j, Word& hum, Word& act, Word& cld) {
      hum = act = cld = 0;
      for (int b = 0; b < lanes(j); ++b) {
        const std::uint8_t code = states[cell_id(row, j, b)];
        cld |= Word(code & 1) << b;
        hum |= Word(code >> 1 & 1) << b;
        act |= Word(code >> 2 & 1) << b;
      }
    });
    step_ = 0;
  }
  std::vector<std::uint8_t> states() const override {
    std::vector<std::uint8_t> out(shape_.cell_count());
    for (std::int64_t row = 0; row < height_ * depth_; ++row)
      for (std::int64_t x = 0; x < width_; ++x) {
        auto bit = [&](const std::vector<Word>& plane) {
          return (plane[offset(row) + std::size_t(x / kBits)] >> (x % kBits)) & 1;
        };
        out[std::size_t(row * width_ + x)] = cloud_code(bit(current_.cld), bit(current_.hum), bit(current_.act));
      }
    return out;
  }
  std::uint64_t hash() const override {
    std::uint64_t sum = 0;
#pragma omp parallel for num_threads(threads_) reduction(+ : sum) schedule(static)
    for (std::int64_t row = 0; row < height_ * depth_; ++row)
      for (std::size_t j = 0; j < words_; ++j) {
        const std::size_t at = offset(row) + j;
        const Word hum = current_.hum[at], act = current_.act[at], cld = current_.cld[at];
        for (Word any = hum | act | cld; any; any &= any - 1) {
          const int b = std::countr_zero(any);
          sum += cell_hash(cell_id(row, j, b), cloud_code(cld >> b & 1, hum >> b & 1, act >> b & 1));
        }
      }
    return sum;
  }
  std::uint64_t population() const override {
    std::uint64_t sum = 0;
#pragma omp parallel for num_threads(threads_) reduction(+ : sum) schedule(static)
    for (std::int64_t row = 0; row < height_ * depth_; ++row)
      for (std::size_t j = 0; j < words_; ++j) {
        const std::size_t at = offset(row) + j;
        sum += std::uint64_t(std::popcount(current_.hum[at] | current_.act[at] | current_.cld[at]));
      }
    return sum;
  }

 private:
  struct Plane {
    std::vector<Word> hum, act, cld;
  };

  // Row (y, z) = row y + H z starts at word offset(row) (word 0; words -1 and words_ are halo).
  std::size_t offset(std::int64_t row) const { return std::size_t(row) * pitch_ + 1; }
  std::uint64_t cell_id(std::int64_t row, std::size_t j, int b) const {
    return std::uint64_t(row * width_) + j * kBits + std::uint64_t(b);
  }
  int lanes(std::size_t j) const { return int(std::min<std::int64_t>(kBits, width_ - std::int64_t(j) * kBits)); }
  // The bits beyond the last cell of a row are kept 0 in every plane between steps.
  Word last_word_mask() const { return width_ % kBits ? (Word(1) << (width_ % kBits)) - 1 : ~Word(0); }

  template <class F>
  void for_each_word(F f) {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (std::int64_t row = 0; row < height_ * depth_; ++row)
      for (std::size_t j = 0; j < words_; ++j) {
        const std::size_t at = offset(row) + j;
        f(row, j, current_.hum[at], current_.act[at], current_.cld[at]);
      }
  }

  // The act row standing for (y, z), any integers: a grid row, or zeros outside a fixed edge.
  const Word* act_row(std::int64_t y, std::int64_t z) const {
    const std::int64_t sy = image(y, height_, shape_.edge), sz = image(z, depth_, shape_.edge);
    return sy < 0 || sz < 0 ? zero_row_.data() + 1 : current_.act.data() + offset(sy + height_ * sz);
  }

  // Bits 62 and 63 of word -1: the images of x = -2, -1; the two bits after the last cell:
  // x = W, W + 1 (in the last word or the halo word after it).
  void set_act_halo() {
    const std::size_t last = words_ - 1;
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (std::int64_t row = 0; row < height_ * depth_; ++row) {
      Word* r = current_.act.data() + offset(row);
      auto image_bit = [&](std::int64_t x) -> Word {
        const std::int64_t source = image(x, width_, shape_.edge);
        return source < 0 ? 0 : (r[source / kBits] >> (source % kBits)) & 1;
      };
      const Word before2 = image_bit(-2), before1 = image_bit(-1), after0 = image_bit(width_),
                 after1 = image_bit(width_ + 1);
      r[-1] = before2 << (kBits - 2) | before1 << (kBits - 1);
      r[last] &= last_word_mask();
      r[words_] = 0;
      for (auto [x, bit] : {std::pair{width_, after0}, std::pair{width_ + 1, after1}})
        r[x / kBits] |= bit << (x % kBits);
    }
  }

  void sweep() {
    const Word tail = last_word_mask();
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (std::int64_t row = 0; row < height_ * depth_; ++row) {
      const std::int64_t y = row % height_, z = row / height_;
      const Word* a = act_row(y, z);
      const Word* vertical[7] = {act_row(y - 1, z), act_row(y + 1, z), act_row(y - 2, z), act_row(y + 2, z),
                                 act_row(y, z - 1), act_row(y, z + 1), act_row(y, z - 2)};  // not z + 2
      const std::size_t at = offset(row);
      for (std::size_t j = 0; j < words_; ++j) {
        // Lane i of (w << 1 | ...) holds cell x - 1 of lane i; of (w >> 1 | ...) cell x + 1.
        const Word before = (a + j)[-1];  // a + j - 1: j is unsigned, a[j - 1] would wrap at 0
        Word near = (a[j] << 1 | before >> (kBits - 1)) | (a[j] >> 1 | a[j + 1] << (kBits - 1)) |
                    (a[j] << 2 | before >> (kBits - 2)) | (a[j] >> 2 | a[j + 1] << (kBits - 2));
        for (const Word* v : vertical) near |= v[j];
        Word extinct = 0, humid = 0, active = 0;
        if (rule_.stochastic())
          cloud_draw_masks(rule_, seed_, cell_id(row, j, 0), lanes(j), std::uint32_t(step_), extinct, humid, active);
        const CloudWords<Word> next = cloud_next(CloudWords<Word>{current_.hum[at + j], a[j], current_.cld[at + j]},
                                                 near, extinct, humid, active);
        const Word keep = j == words_ - 1 ? tail : ~Word(0);
        next_.hum[at + j] = next.hum & keep;
        next_.act[at + j] = next.act & keep;
        next_.cld[at + j] = next.cld & keep;
      }
    }
  }

  GridShape shape_;
  CloudRule rule_;
  int threads_;
  std::int64_t width_, height_, depth_;
  std::size_t words_, pitch_;
  Plane current_, next_;
  std::vector<Word> zero_row_;  // the outside of a fixed boundary, with its halo words
  std::uint64_t seed_ = 0, step_ = 0;
};

}  // namespace

std::unique_ptr<Automaton> make_cpu_bitpacked_cloud(const GridShape& shape, const CloudRule& rule, int threads) {
  return std::make_unique<CloudBitGrid>(shape, rule, threads);
}

}  // namespace cellgraph::dense
