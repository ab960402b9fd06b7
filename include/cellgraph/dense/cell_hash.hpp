// What every dense kernel and the graph engine agree on, cell by cell: the random start and
// an order-free state hash that each layout (bytes, bits, CSR states) can sum in parallel.
#pragma once
#include <cstdint>

#include "cellgraph/hd.hpp"
#include "cellgraph/philox.hpp"

namespace cellgraph::dense {

// cellgraph::random_fill's draw for cell `id`: identical below 2^32 cells; larger grids (which
// the graph engine cannot hold) key the high half of the id as Philox's block number.
CG_HD inline bool random_live(std::uint64_t seed, std::uint64_t id, double density) {
  return bernoulli(random_words(seed, std::uint32_t(id), 0, RandomStream::initial_fill, std::uint32_t(id >> 32)).v[0],
                   density);
}

// splitmix64's finaliser: a bijective mix of all 64 bits.
CG_HD inline std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The state hash is the sum (mod 2^64) of cell_hash over the cells whose state is not 0.
CG_HD inline std::uint64_t cell_hash(std::uint64_t id, std::uint32_t state) {
  return mix64((id << 8) ^ state ^ 0x9E3779B97F4A7C15ull);
}

}  // namespace cellgraph::dense
