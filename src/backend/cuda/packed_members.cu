// PackedMembers (packed_members.cuh): the planes, the rule of every word, and the launches.
#include "src/backend/cuda/packed_members.cuh"

#include "src/backend/cuda/device_array.cuh"
#include "src/backend/cuda/packed_member_kernels.cuh"

namespace cellgraph::cuda {

static_assert(PackedMembers::kHubCountBits == kHubCountBits, "one width of hub counts");

namespace {

std::uint64_t plane_stride(const Layout& L) { return (std::uint64_t(L.state_length()) + 31) / 32 * 32; }

// The kernel's count width for ordinary counts up to `largest` (at most 255).
int bits_for(std::uint32_t largest) { return largest < 16 ? 4 : largest < 32 ? 5 : largest < 64 ? 6 : 8; }

}  // namespace

struct PackedMembers::Planes {
  std::uint32_t members, words, cells;
  std::uint64_t stride;
  std::uint32_t vertices, hubs, giants;
  int count_bits;
  DeviceArray<std::uint32_t> live_counts;
  DeviceArray<std::uint64_t> born, survives;
  DeviceArray<std::uint64_t> plane[2];
  int parity = 0;  // plane[parity] holds the current state
};

PackedMembers::PackedMembers(const Layout& L, std::uint32_t members, std::uint32_t replicas,
                             const std::vector<TwoStateRule>& rules)
    : d_(std::make_unique<Planes>()) {
  Planes& d = *d_;
  d.members = members;
  d.words = (members + 63) / 64;
  d.cells = L.state_length();
  d.stride = plane_stride(L);
  d.vertices = L.num_vertices;
  d.hubs = L.num_hub_vertices();
  d.giants = L.num_giant_hubs;
  d.count_bits = bits_for(widest_ordinary_list(L));
  std::vector<std::uint32_t> live_counts;
  for (std::uint32_t c = 0; c < rules[0].born.size(); ++c)
    if (std::any_of(rules.begin(), rules.end(), [&](const TwoStateRule& r) { return r.born[c] || r.survives[c]; }))
      live_counts.push_back(c);
  const std::size_t counts = live_counts.size();
  std::vector<std::uint64_t> born(std::size_t(d.words) * counts), survives(born.size());
  for (std::uint32_t m = 0; m < members; ++m)
    for (std::size_t i = 0; i < counts; ++i) {
      const TwoStateRule& r = rules[m / replicas];
      const std::size_t e = (m / 64) * counts + i;
      born[e] |= std::uint64_t(r.born[live_counts[i]]) << (m % 64);
      survives[e] |= std::uint64_t(r.survives[live_counts[i]]) << (m % 64);
    }
  d.live_counts = DeviceArray<std::uint32_t>(live_counts.data(), counts);
  d.born = DeviceArray<std::uint64_t>(born.data(), born.size());
  d.survives = DeviceArray<std::uint64_t>(survives.data(), survives.size());
  for (auto& p : d.plane) p = DeviceArray<std::uint64_t>(d.stride * d.words);
}

PackedMembers::~PackedMembers() = default;

std::uint64_t PackedMembers::device_bytes(const Layout& L, std::uint32_t members) {
  return 2 * plane_stride(L) * ((members + 63) / 64) * sizeof(std::uint64_t);
}

void PackedMembers::pack(const std::uint8_t* states, cudaStream_t stream) {
  Planes& d = *d_;
  const std::uint64_t items = std::uint64_t(d.cells) * d.words;
  pack_members_kernel<<<unsigned((items + 255) / 256), 256, 0, stream>>>(states, d.cells, d.members, d.words, d.stride,
                                                                         d.plane[0].data(), d.plane[1].data());
  CG_CUDA_LAUNCHED();
  d.parity = 0;
}

void PackedMembers::unpack(std::uint8_t* states, cudaStream_t stream) const {
  const Planes& d = *d_;
  const std::uint64_t items = std::uint64_t(d.cells) * d.members;
  unpack_members_kernel<<<unsigned((items + 255) / 256), 256, 0, stream>>>(d.plane[d.parity].data(), d.cells, d.members,
                                                                           d.stride, states);
  CG_CUDA_LAUNCHED();
}

void PackedMembers::step(const LayoutView& L, cudaStream_t stream) {
  Planes& d = *d_;
  const PackedStep s{d.plane[d.parity].data(),
                     d.plane[d.parity ^ 1].data(),
                     d.stride,
                     d.words,
                     {d.live_counts.data(), d.born.data(), d.survives.data(), std::uint32_t(d.live_counts.size())}};
  auto blocks = [](std::uint64_t threads) { return unsigned((threads + kSweepBlockThreads - 1) / kSweepBlockThreads); };
  if (d.giants) packed_giant_hub_kernel<<<d.giants * d.words, kGiantHubThreads, 0, stream>>>(L, s, d.giants);
  if (d.hubs > d.giants)
    packed_hub_kernel<<<blocks(std::uint64_t(d.hubs - d.giants) * d.words * 32), kSweepBlockThreads, 0, stream>>>(
        L, s, d.giants, d.hubs - d.giants);
  if (const std::uint32_t ordinary = d.vertices - d.hubs) {
    const std::uint32_t per_word = (ordinary + 31) / 32 * 32;
    const unsigned grid = blocks(std::uint64_t(per_word) * d.words);
    switch (d.count_bits) {
      case 4:
        packed_ordinary_kernel<4><<<grid, kSweepBlockThreads, 0, stream>>>(L, s, d.hubs, ordinary, per_word);
        break;
      case 5:
        packed_ordinary_kernel<5><<<grid, kSweepBlockThreads, 0, stream>>>(L, s, d.hubs, ordinary, per_word);
        break;
      case 6:
        packed_ordinary_kernel<6><<<grid, kSweepBlockThreads, 0, stream>>>(L, s, d.hubs, ordinary, per_word);
        break;
      default:
        packed_ordinary_kernel<8><<<grid, kSweepBlockThreads, 0, stream>>>(L, s, d.hubs, ordinary, per_word);
    }
  }
  CG_CUDA_LAUNCHED();
  d.parity ^= 1;
}

}  // namespace cellgraph::cuda
