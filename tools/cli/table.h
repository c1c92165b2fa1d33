// Plain-text tables whose columns are as wide as their widest cell, so that long tensor
// names do not push the other columns out of line.
#ifndef GRAPHRT_TOOLS_CLI_TABLE_H_
#define GRAPHRT_TOOLS_CLI_TABLE_H_

#include <string>
#include <vector>

namespace grt::cli {

class Table {
 public:
  // One entry per column: its heading, and whether numbers in it align right.
  struct Column {
    std::string heading;
    bool right = false;
  };
  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

  // The heading line and the rows, each indented by two spaces, columns two spaces apart;
  // the last column is not padded.
  std::string text() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_TABLE_H_
