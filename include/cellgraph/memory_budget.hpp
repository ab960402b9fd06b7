// How much host memory a run may take, and refusing work that would take more before any of it
// is allocated: a 16-byte edge list naming vertex 3*10^8 implies gigabytes of graph, and must be
// refused with what it implies, not fail in the allocator minutes later.
#pragma once
#include <cstdint>
#include <string>

namespace cellgraph {

// The bytes this process may use: the limit set by set_memory_limit (--max-memory), else what
// the machine has available (MemAvailable, and the cgroup's limit where one is set).
std::uint64_t memory_limit();
// "--max-memory 8G, the limit given" or "12.3 GiB available on this machine": where the limit
// comes from, for messages.
std::string memory_limit_description();
// 0: the machine's available memory again.
void set_memory_limit(std::uint64_t bytes);

// Throws Error "WHAT needs about X GiB, more than <limit description>" when `bytes` exceed the
// limit. `what` says what implies the size: "edges.txt: vertex id 300000000 implies 3e8
// vertices" or "--grid 100000x40000 (4e9 cells)".
void check_memory(std::uint64_t bytes, const std::string& what);

// "needs about 14.2 GiB, more than --max-memory 1.0 GiB": the end of check_memory's message,
// for readers that refuse at a file's line (ParseError) what the file implies.
std::string memory_shortfall(std::uint64_t bytes);

// "512 B", "3.2 MiB", "12.0 GiB".
std::string format_bytes(std::uint64_t bytes);
// "8G", "512M", "1.5T", "4096" (bytes): what --max-memory takes. Throws Error naming `text`.
std::uint64_t parse_byte_size(const std::string& text);

// What a graph of `vertices` vertices and `entries` neighbor entries takes through a run: the
// canonical graph, its compiled layout (neighbor lists padded to slices, permutations) and a
// few bytes of state per cell. An estimate, on the high side, for check_memory.
std::uint64_t estimated_run_bytes(std::uint64_t vertices, std::uint64_t entries);

}  // namespace cellgraph
