// Partitioned runs inside one test process: every part is a Simulation of its own, stepped on
// a thread of its own, and the parts trade halos through shared memory instead of MPI. The
// backends cannot tell: they see a HaloTransport, as under mpirun.
#pragma once
#include <doctest/doctest.h>

#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/partition.hpp"
#include "cellgraph/source/source.hpp"
#include "model_runs.hpp"

namespace cellgraph::test {

// Messages between parts, in the order sent, per (from, to, variable): MPI's ordering.
class Mailbox {
 public:
  void post(std::uint32_t from, std::uint32_t to, int variable, std::vector<std::uint8_t> bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queues_[{from, to, variable}].push_back(std::move(bytes));
    }
    arrived_.notify_all();
  }
  std::vector<std::uint8_t> take(std::uint32_t from, std::uint32_t to, int variable) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto& queue = queues_[{from, to, variable}];
    arrived_.wait(lock, [&] { return !queue.empty(); });
    std::vector<std::uint8_t> bytes = std::move(queue.front());
    queue.pop_front();
    return bytes;
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, int>, std::deque<std::vector<std::uint8_t>>> queues_;
};

class MailboxTransport final : public HaloTransport {
 public:
  // `parts`: how many parts share the mailbox (0: unknown, and no collectives).
  MailboxTransport(std::shared_ptr<Mailbox> mailbox, std::uint32_t me, std::uint32_t parts = 0)
      : mailbox_(std::move(mailbox)), me_(me), parts_(parts) {}

  void start(const Layout& L, int variable, std::size_t bytes, const void* send, void* halo) override {
    for (const HaloPeer& peer : L.peers) {
      const auto* from = static_cast<const std::uint8_t*>(send) + std::size_t(peer.send_begin) * bytes;
      mailbox_->post(me_, peer.part, variable, std::vector<std::uint8_t>(from, from + peer.send_count * bytes));
      auto* into = static_cast<std::uint8_t*>(halo) + std::size_t(peer.halo_begin - L.num_vertices) * bytes;
      pending_.push_back({peer.part, variable, into, peer.halo_count * bytes});
    }
  }
  void finish() override {
    for (const Pending& p : pending_) {
      const std::vector<std::uint8_t> bytes = mailbox_->take(p.from, me_, p.variable);
      if (bytes.size() != p.size) throw Error("a halo message of the wrong size");
      if (!bytes.empty()) std::memcpy(p.into, bytes.data(), bytes.size());  // an empty halo may have no buffer
    }
    pending_.clear();
  }
  bool or_over_parts(std::vector<std::uint8_t>& flags) override {
    if (parts_ == 0) return false;
    constexpr int kCollective = -1;  // no variable's tag
    for (std::uint32_t p = 0; p < parts_; ++p)
      if (p != me_) mailbox_->post(me_, p, kCollective, flags);
    for (std::uint32_t p = 0; p < parts_; ++p)
      if (p != me_) {
        const std::vector<std::uint8_t> theirs = mailbox_->take(p, me_, kCollective);
        if (theirs.size() != flags.size()) throw Error("parts gave different numbers of flags");
        for (std::size_t i = 0; i < flags.size(); ++i) flags[i] |= theirs[i];
      }
    return true;
  }

 private:
  struct Pending {
    std::uint32_t from;
    int variable;
    std::uint8_t* into;
    std::size_t size;
  };
  std::shared_ptr<Mailbox> mailbox_;
  std::uint32_t me_, parts_;
  std::vector<Pending> pending_;
};

// work(p) for every part p at once, each on a thread of its own: their exchanges wait for each
// other. The first part's exception, if any, is rethrown here.
inline void on_threads(std::uint32_t parts, const std::function<void(std::uint32_t)>& work) {
  std::vector<std::exception_ptr> failed(parts);
  std::vector<std::thread> threads;
  for (std::uint32_t p = 0; p < parts; ++p)
    threads.emplace_back([&, p] {
      try {
        work(p);
      } catch (...) {
        failed[p] = std::current_exception();
      }
    });
  for (std::thread& t : threads) t.join();
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
}

// The parts of one model on one graph, as `mpirun -np parts` would set them up.
class PartitionedModel {
 public:
  PartitionedModel(const std::string& model, const models::Params& params, const Graph& g,
                   std::vector<std::uint32_t> partition, std::uint32_t parts, SimulationOptions options,
                   CompileOptions compile = {})
      : partition_(std::move(partition)), parts_(parts) {
    const CompileOptions whole = compile_options_for(g, compile);
    const auto mailbox = std::make_shared<Mailbox>();
    std::vector<std::uint32_t> colors;
    if (options.update.mode == UpdateMode::colored) colors = greedy_coloring(g, options.seed);
    for (std::uint32_t p = 0; p < parts; ++p) {
      auto layout = std::make_shared<const Layout>(compile_rows(g, part_rows(g, partition_, parts, p), whole));
      SimulationOptions mine = options;
      mine.threads = 1;
      mine.halo = std::make_shared<MailboxTransport>(mailbox, p);
      if (!colors.empty()) {
        for (std::uint32_t v = 0; v < layout->num_vertices; ++v)
          mine.colors.push_back(colors[layout->local_to_user[v]]);
        mine.color_count = *std::max_element(colors.begin(), colors.end()) + 1;
      }
      parts_sims_.push_back(models::find_model(model).make(params, layout, mine));
    }
  }

  // Every part at once, each on its own thread (on_threads).
  void on_every_part(const std::function<void(std::uint32_t, Simulation&)>& work) {
    on_threads(parts_, [&](std::uint32_t p) { work(p, *parts_sims_[p]); });
  }

  void set_states(const std::vector<std::uint32_t>& user_order) {
    on_every_part([&](std::uint32_t p, Simulation& s) {
      std::vector<std::uint32_t> mine;
      for (VertexId v = 0; v < user_order.size(); ++v)
        if (partition_[v] == p) mine.push_back(user_order[v]);
      s.set_states(mine);
    });
  }
  void advance(std::uint64_t steps) {
    on_every_part([&](std::uint32_t, Simulation& s) { s.advance(steps); });
  }

  // Every variable of the whole graph in user order, gathered from the parts.
  std::vector<std::vector<std::uint8_t>> export_state() const {
    std::vector<std::vector<std::uint8_t>> whole;
    std::vector<std::size_t> next(parts_, 0);  // each part's vertices come in ascending user id
    std::vector<std::vector<std::vector<std::uint8_t>>> of_part;
    for (const auto& s : parts_sims_) of_part.push_back(s->export_state());
    for (std::size_t var = 0; var < of_part[0].size(); ++var) {
      const std::size_t bytes = of_part[0][var].size() / parts_sims_[0]->layout().num_vertices;
      std::fill(next.begin(), next.end(), 0);
      whole.emplace_back();
      for (VertexId v = 0; v < partition_.size(); ++v) {
        const auto& from = of_part[partition_[v]][var];
        whole.back().insert(whole.back().end(), from.begin() + next[partition_[v]] * bytes,
                            from.begin() + (next[partition_[v]] + 1) * bytes);
        ++next[partition_[v]];
      }
    }
    return whole;
  }

  std::vector<std::int64_t> observable_sums() const {
    std::vector<std::int64_t> total;
    for (const auto& s : parts_sims_) {
      const auto sums = s->observable_sums();
      total.resize(sums.size(), 0);
      for (std::size_t k = 0; k < sums.size(); ++k) total[k] += sums[k];
    }
    return total;
  }

  Simulation& part(std::uint32_t p) { return *parts_sims_[p]; }

 private:
  std::vector<std::uint32_t> partition_;
  std::uint32_t parts_;
  std::vector<std::unique_ptr<Simulation>> parts_sims_;
};

// `model` on the parts of `partition` (with `part_options`: their backend, update, seed) equals
// the whole run (with `whole_options`) after 1, 3 and 10 steps: every variable of every
// vertex, and the observable sums.
inline void check_partitioned_identity(const std::string& model, const models::Params& params, const Graph& g,
                                       const std::vector<std::uint32_t>& partition, std::uint32_t parts,
                                       const SimulationOptions& whole_options, const SimulationOptions& part_options,
                                       const CompileOptions& compile = {}) {
  auto whole = make_model(model, params, g, whole_options, compile);
  PartitionedModel split(model, params, g, partition, parts, part_options, compile);
  const auto start = random_fill(g.num_vertices(), 0.3, 4);
  whole->set_states(start);
  split.set_states(start);
  CHECK(split.observable_sums() == whole->observable_sums());
  for (std::uint64_t steps : {1, 2, 7}) {
    whole->advance(steps);
    split.advance(steps);
    INFO("at step ", whole->step());
    REQUIRE(split.export_state() == whole->export_state());
    CHECK(split.observable_sums() == whole->observable_sums());
  }
}

}  // namespace cellgraph::test
