// Models that look things up in a table (model.hpp: TableEntry, TableRef) get a device copy of
// it: the simulation keeps the copy and gives its kernels a model that points at it. Other
// models pass through unchanged.
#pragma once
#include <type_traits>

#include "src/backend/cuda/device_array.cuh"

namespace cellgraph::cuda {

template <class Model, class = void>
class DeviceModelTable {
 public:
  Model bind(const Model& model) { return model; }
};

template <class Model>
class DeviceModelTable<Model, std::void_t<typename Model::TableEntry>> {
 public:
  // The model as kernels see it: its table read from device memory.
  Model bind(Model model) {
    copy_ = DeviceArray<typename Model::TableEntry>(model.table.data, model.table.size);
    model.table.data = copy_.data();
    return model;
  }

 private:
  DeviceArray<typename Model::TableEntry> copy_;
};

}  // namespace cellgraph::cuda
