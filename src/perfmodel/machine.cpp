// What a sweep records about the machine it runs on: the device, its parallel units, clock and
// cache (the model's cycles view needs the clock and multiprocessors, the cache regime the
// cache size). CUDA devices through the runtime's attributes; CPUs through /proc and sysfs.
#include <omp.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "cellgraph/error.hpp"
#include "cellgraph/perfmodel.hpp"
#if CELLGRAPH_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace cellgraph::perfmodel {
namespace {

// The value of the first "key : value" line of /proc/cpuinfo with this key; empty if none.
std::string cpuinfo(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string k = line.substr(0, colon);
    k.erase(k.find_last_not_of(" \t") + 1);
    if (k != key) continue;
    std::string v = line.substr(colon + 1);
    v.erase(0, v.find_first_not_of(" \t"));
    return v;
  }
  return "";
}

// The size of CPU 0's largest cache, from sysfs ("32768K"); 0 if unknown. (sysconf's figure is
// the host's on some virtual machines, not what one core's threads share.)
double largest_cache_bytes() {
  double best = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    std::string text;
    if (!(in >> text) || text.empty()) continue;
    double scale = 1;
    if (text.back() == 'K') scale = 1024, text.pop_back();
    else if (text.back() == 'M') scale = 1024 * 1024, text.pop_back();
    try {
      best = std::max(best, std::stod(text) * scale);
    } catch (const std::exception&) {
    }
  }
  return best;
}

}  // namespace

Machine describe_machine(BackendKind backend, int threads) {
  Machine m;
  if (backend == BackendKind::cuda) {
#if CELLGRAPH_HAVE_CUDA
    int device = 0, sms = 0, khz = 0, l2 = 0;
    cudaDeviceProp properties;
    if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&properties, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device) != cudaSuccess)
      throw Error("cannot read the CUDA device's properties");
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) != cudaSuccess) khz = 0;  // "if available"
    m.device = properties.name;
    m.backend = "cuda";
    m.sm_count = std::uint32_t(sms);
    m.threads = 1;
    m.clock_mhz = khz / 1000.0;
    m.cache_bytes = l2;
    return m;
#else
    throw Error("this build of cellgraph has no CUDA backend (configure where nvcc is found)");
#endif
  }
  m.device = cpuinfo("model name");
  if (m.device.empty()) m.device = "cpu";
  m.backend = "cpu";
  m.sm_count = std::uint32_t(omp_get_num_procs());
  m.threads = std::uint32_t(threads > 0 ? threads : omp_get_max_threads());
  const std::string mhz = cpuinfo("cpu MHz");
  try {
    m.clock_mhz = mhz.empty() ? 0 : std::stod(mhz);
  } catch (const std::exception&) {
    m.clock_mhz = 0;
  }
  m.cache_bytes = largest_cache_bytes();
  return m;
}

}  // namespace cellgraph::perfmodel
