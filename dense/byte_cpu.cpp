// The byte kernel on the CPU: one byte per cell, row by row. Each output row copies the input
// rows it reads into buffers with one cell of boundary on each side, so the inner loops run
// branch-free over x (and vectorise); OpenMP shares out the rows.
#include <omp.h>

#include <algorithm>
#include <cstring>

#include "cellgraph/dense/cell_hash.hpp"
#include "cellgraph/error.hpp"
#include "dense/automata.hpp"

namespace cellgraph::dense {
namespace {

// The input rows one output row reads: offsets (dy, dz) and, for each, the x offsets.
struct RowGroup {
  int dy, dz;
  std::vector<int> dx;
};

std::vector<RowGroup> stencil_rows(const GridShape& shape) {
  const int ry = shape.dims >= 2 ? 1 : 0, rz = shape.dims >= 3 ? 1 : 0;
  std::vector<RowGroup> groups;
  for (int dz = -rz; dz <= rz; ++dz)
    for (int dy = -ry; dy <= ry; ++dy) {
      RowGroup g{dy, dz, {}};
      for (int dx = -1; dx <= 1; ++dx) {
        const bool centre = !dx && !dy && !dz;
        const bool in_stencil =
            shape.neighborhood == Neighborhood::moore || std::abs(dx) + std::abs(dy) + std::abs(dz) == 1;
        if (!centre && in_stencil) g.dx.push_back(dx);
      }
      if (!g.dx.empty()) groups.push_back(g);
    }
  return groups;
}

// Shared by the Life-like and elementary automata: the cells, their buffers, fill and hash.
class ByteGrid : public Automaton {
 public:
  ByteGrid(const GridShape& shape, std::uint32_t num_states, int threads)
      : shape_(shape), num_states_(num_states), threads_(threads > 0 ? threads : omp_get_max_threads()),
        current_(shape.cell_count()), next_(shape.cell_count()),
        outside_row_(std::size_t(shape.size[0]) + 2, std::uint8_t(shape.edge == Edge::fixed ? shape.edge_value : 0)) {}

  const GridShape& shape() const override { return shape_; }
  std::uint64_t step() const override { return step_; }
  double bytes_per_update() const override { return 2.0; }

  void fill_random(std::uint64_t seed, double density) override {
    if (!(density >= 0.0 && density <= 1.0)) throw Error("--fill must be a density from 0 to 1");
    const std::int64_t n = std::int64_t(current_.size());
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (std::int64_t id = 0; id < n; ++id) current_[id] = random_live(seed, std::uint64_t(id), density);
    step_ = 0;
  }
  void set_states(const std::vector<std::uint8_t>& states) override {
    check_states(states, shape_, num_states_);
    current_ = states;
    step_ = 0;
  }
  std::vector<std::uint8_t> states() const override { return current_; }
  std::uint64_t hash() const override { return states_hash(current_); }
  std::uint64_t population() const override {
    return std::uint64_t(current_.size() - std::count(current_.begin(), current_.end(), 0));
  }

  void advance(std::uint64_t steps) override {
    const std::int64_t rows = shape_.size[1] * shape_.size[2];
    for (std::uint64_t s = 0; s < steps; ++s, ++step_) {
#pragma omp parallel num_threads(threads_)
      {
        Buffers buffers(shape_.size[0]);
#pragma omp for schedule(static)
        for (std::int64_t row = 0; row < rows; ++row) update_row(row % shape_.size[1], row / shape_.size[1], buffers);
      }
      current_.swap(next_);
    }
  }

 protected:
  struct Buffers {
    explicit Buffers(std::int64_t width)
        : padded(9, std::vector<std::uint8_t>(std::size_t(width) + 2)), count(std::size_t(width)) {}
    std::vector<std::vector<std::uint8_t>> padded;  // one per input row read
    std::vector<std::uint8_t> count;
  };

  virtual void update_row(std::int64_t y, std::int64_t z, Buffers& buffers) = 0;

  // Row (y + dy, z + dz) with its boundary cells at 0 and W + 1; x of the row is at x + 1.
  const std::uint8_t* padded_row(std::int64_t y, std::int64_t z, std::vector<std::uint8_t>& out) const {
    const std::int64_t w = shape_.size[0];
    const std::int64_t sy = image(y, shape_.size[1], shape_.edge), sz = image(z, shape_.size[2], shape_.edge);
    if (sy < 0 || sz < 0) return outside_row_.data();
    const std::uint8_t* row = current_.data() + (sy + shape_.size[1] * sz) * w;
    std::memcpy(out.data() + 1, row, std::size_t(w));
    auto at = [&](std::int64_t x) {
      const std::int64_t sx = image(x, w, shape_.edge);
      return sx < 0 ? std::uint8_t(shape_.edge_value) : row[sx];
    };
    out[0] = at(-1);
    out[std::size_t(w) + 1] = at(w);
    return out.data();
  }
  std::uint8_t* output_row(std::int64_t y, std::int64_t z) {
    return next_.data() + (y + shape_.size[1] * z) * shape_.size[0];
  }
  const std::uint8_t* input_row(std::int64_t y, std::int64_t z) const {
    return current_.data() + (y + shape_.size[1] * z) * shape_.size[0];
  }

  GridShape shape_;
  std::uint32_t num_states_;
  int threads_;
  std::vector<std::uint8_t> current_, next_, outside_row_;
  std::uint64_t step_ = 0;
};

class ByteLife final : public ByteGrid {
 public:
  ByteLife(const GridShape& shape, const LifeRule& rule, int threads)
      : ByteGrid(shape, rule.states, threads), rule_(rule), groups_(stencil_rows(shape)) {}
  std::string name() const override { return "byte (cpu, " + std::to_string(threads_) + " threads)"; }

 private:
  void update_row(std::int64_t y, std::int64_t z, Buffers& b) override {
    const std::size_t w = std::size_t(shape_.size[0]);
    std::uint8_t* count = b.count.data();
    std::fill(count, count + w, 0);
    for (std::size_t k = 0; k < groups_.size(); ++k) {
      const std::uint8_t* row = padded_row(y + groups_[k].dy, z + groups_[k].dz, b.padded[k]) + 1;
      for (int dx : groups_[k].dx)
        for (std::size_t x = 0; x < w; ++x) count[x] += row[std::ptrdiff_t(x) + dx] == 1;
    }
    const std::uint8_t* self = input_row(y, z);
    std::uint8_t* out = output_row(y, z);
    for (std::size_t x = 0; x < w; ++x) out[x] = rule_.next(self[x], count[x]);
  }

  LifeRule rule_;
  std::vector<RowGroup> groups_;
};

class ByteElementary final : public ByteGrid {
 public:
  ByteElementary(const GridShape& shape, const ElementaryRule& rule, int threads)
      : ByteGrid(shape, 2, threads), rule_(rule) {}
  std::string name() const override { return "byte (cpu, elementary rule " + std::to_string(rule_.number) + ")"; }

 private:
  void update_row(std::int64_t y, std::int64_t z, Buffers& b) override {
    const std::uint8_t* row = padded_row(y, z, b.padded[0]);
    std::uint8_t* out = output_row(y, z);
    for (std::int64_t x = 0; x < shape_.size[0]; ++x) out[x] = rule_.next(row[x], row[x + 1], row[x + 2]);
  }

  ElementaryRule rule_;
};

}  // namespace

std::unique_ptr<Automaton> make_cpu_byte_life(const GridShape& shape, const LifeRule& rule, int threads) {
  return std::make_unique<ByteLife>(shape, rule, threads);
}

std::unique_ptr<Automaton> make_cpu_byte_elementary(const GridShape& shape, const ElementaryRule& rule, int threads) {
  return std::make_unique<ByteElementary>(shape, rule, threads);
}

}  // namespace cellgraph::dense
