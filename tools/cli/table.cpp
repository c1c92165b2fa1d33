#include "table.h"

#include <algorithm>

namespace grt::cli {

std::string Table::text() const {
  std::vector<size_t> widths(columns_.size(), 0);
  for (size_t c = 0; c < columns_.size(); ++c) widths[c] = columns_[c].heading.size();
  for (const auto& row : rows_) {
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  const auto line = [&](const std::vector<std::string>& cells) {
    std::string out = "  ";
    for (size_t c = 0; c < columns_.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      const std::string padding(widths[c] - cell.size(), ' ');
      const bool last = c + 1 == columns_.size();
      if (columns_[c].right) {
        out += padding + cell;
      } else {
        out += cell + (last ? "" : padding);
      }
      if (!last) out += "  ";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::vector<std::string> headings;
  for (const Column& column : columns_) headings.push_back(column.heading);
  std::string out = line(headings);
  for (const auto& row : rows_) out += line(row);
  return out;
}

}  // namespace grt::cli
