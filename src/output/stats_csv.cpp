#include "cellgraph/output/stats_csv.hpp"

#include "cellgraph/error.hpp"

namespace cellgraph {
StatsWriter::StatsWriter(const std::string& path, const std::vector<std::string>& columns)
    : file_(path), num_columns_(columns.size()) {
  std::string header = "step";
  for (const std::string& name : columns) {
    if (name.find_first_of(",\"\r\n") != std::string::npos)
      throw Error(path + ": column name \"" + name + "\" needs CSV quoting");
    header += ',' + name;
  }
  file_.stream() << header << '\n';
}

void StatsWriter::row(std::uint64_t step, const std::vector<Value>& values) {
  if (values.size() != num_columns_)
    throw Error("stats row for step " + std::to_string(step) + " has " + std::to_string(values.size()) +
                " values for " + std::to_string(num_columns_) + " columns");
  std::string line;
  append_csv_number(line, step);
  for (const Value& value : values) {
    line += ',';
    std::visit([&](auto number) { append_csv_number(line, number); }, value);
  }
  line += '\n';
  file_.stream() << line;
}

}  // namespace cellgraph
