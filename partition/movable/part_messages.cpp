#include "partition/movable/part_messages.hpp"

#include <cstring>

#include "cellgraph/error.hpp"
#include "cellgraph/layout.hpp"

namespace cellgraph {
namespace {

// Tags: the fixed halo exchange uses the variable index (below 64 for any model).
constexpr int kSizesTag = 1 << 12, kBytesTag = kSizesTag + 1, kEqualTag = kSizesTag + 2;

// A layout of no vertices whose peers are the parts named, with `send[q]` bytes to part q
// and `receive[q]` from it, packed part by part in ascending part order on both sides.
Layout message_layout(std::uint32_t me, const std::vector<std::uint64_t>& send,
                      const std::vector<std::uint64_t>& receive) {
  Layout L;
  std::uint64_t sent = 0, received = 0;
  for (std::uint32_t q = 0; q < send.size(); ++q) {
    if (q == me || (send[q] == 0 && receive[q] == 0)) continue;
    if (sent + send[q] > kMaxVertices || received + receive[q] > kMaxVertices)
      throw Error("a partitioned movable run's message over 4 GiB");
    HaloPeer peer;
    peer.part = q;
    peer.send_begin = std::uint32_t(sent), peer.send_count = std::uint32_t(send[q]);
    peer.halo_begin = std::uint32_t(received), peer.halo_count = std::uint32_t(receive[q]);
    L.peers.push_back(peer);
    sent += send[q], received += receive[q];
  }
  return L;
}

}  // namespace

PartMessages::PartMessages(std::shared_ptr<HaloTransport> transport, std::uint32_t part, std::uint32_t parts)
    : transport_(std::move(transport)), part_(part), parts_(parts) {
  if (parts == 0 || part >= parts) throw Error("part " + std::to_string(part) + " of " + std::to_string(parts));
  if (parts > 1 && !transport_) throw Error("a partitioned movable run needs a halo transport");
}

std::vector<std::vector<std::uint8_t>> PartMessages::exchange_equal(const std::vector<std::uint8_t>& mine, int tag) {
  std::vector<std::vector<std::uint8_t>> in(parts_);
  in[part_] = mine;
  if (parts_ == 1) return in;
  std::vector<std::uint64_t> counts(parts_, mine.size());
  counts[part_] = 0;
  const Layout L = message_layout(part_, counts, counts);
  std::vector<std::uint8_t> send, received(std::size_t(parts_ - 1) * mine.size());
  for (std::uint32_t q = 0; q + 1 < parts_; ++q) send.insert(send.end(), mine.begin(), mine.end());
  transport_->start(L, tag, 1, send.data(), received.data());
  transport_->finish();
  for (const HaloPeer& peer : L.peers)
    in[peer.part].assign(received.begin() + peer.halo_begin, received.begin() + peer.halo_begin + peer.halo_count);
  return in;
}

std::vector<std::vector<std::uint8_t>> PartMessages::all_to_all(std::vector<std::vector<std::uint8_t>> out) {
  if (out.size() != parts_) throw Error("all_to_all: one message per part expected");
  std::vector<std::vector<std::uint8_t>> in(parts_);
  in[part_] = std::move(out[part_]);
  if (parts_ == 1) return in;
  // Round 1: every part tells every other how many bytes follow.
  std::vector<std::uint8_t> sizes(std::size_t(parts_) * 8);
  for (std::uint32_t q = 0; q < parts_; ++q) {
    const std::uint64_t n = q == part_ ? 0 : out[q].size();
    std::memcpy(sizes.data() + std::size_t(q) * 8, &n, 8);
  }
  const std::vector<std::vector<std::uint8_t>> told = exchange_equal(sizes, kSizesTag);
  std::vector<std::uint64_t> send(parts_, 0), receive(parts_, 0);
  for (std::uint32_t q = 0; q < parts_; ++q) {
    if (q == part_) continue;
    send[q] = out[q].size();
    std::memcpy(&receive[q], told[q].data() + std::size_t(part_) * 8, 8);
  }
  // Round 2: the bytes, between the pairs that have any.
  const Layout L = message_layout(part_, send, receive);
  std::vector<std::uint8_t> packed, received;
  for (const HaloPeer& peer : L.peers) {
    packed.insert(packed.end(), out[peer.part].begin(), out[peer.part].end());
    received.resize(received.size() + peer.halo_count);
  }
  if (!L.peers.empty()) {
    transport_->start(L, kBytesTag, 1, packed.data(), received.data());
    transport_->finish();
  }
  for (const HaloPeer& peer : L.peers)
    in[peer.part].assign(received.begin() + peer.halo_begin, received.begin() + peer.halo_begin + peer.halo_count);
  return in;
}

std::vector<std::int64_t> PartMessages::sum(const std::vector<std::int64_t>& mine) {
  std::vector<std::uint8_t> bytes(mine.size() * 8);
  if (!mine.empty()) std::memcpy(bytes.data(), mine.data(), bytes.size());
  const std::vector<std::vector<std::uint8_t>> all = exchange_equal(bytes, kEqualTag);
  std::vector<std::int64_t> total(mine.size(), 0);
  for (const std::vector<std::uint8_t>& from : all)
    for (std::size_t k = 0; k < mine.size(); ++k) {
      std::int64_t x;
      std::memcpy(&x, from.data() + k * 8, 8);
      total[k] = std::int64_t(std::uint64_t(total[k]) + std::uint64_t(x));  // wraps as the single sum would
    }
  return total;
}

std::uint64_t PartMessages::sum(std::uint64_t mine) {
  return std::uint64_t(sum(std::vector<std::int64_t>{std::int64_t(mine)})[0]);
}

bool PartMessages::any(bool mine) { return sum(std::vector<std::int64_t>{mine ? 1 : 0})[0] != 0; }

}  // namespace cellgraph
