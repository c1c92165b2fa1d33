// Numbers and tables for people.
#include <gtest/gtest.h>

#include "format.h"
#include "table.h"

namespace grt::cli {
namespace {

TEST(Format, BytesDurationsShapesValues) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(93184), "93184 B (91.0 KiB)");
  EXPECT_EQ(format_duration(850), "850 ns");
  EXPECT_EQ(format_duration(12345), "12.3 us");
  EXPECT_EQ(format_shape({1, 28, 28, 1}), "[1, 28, 28, 1]");
  const int8_t values[] = {-1, 2, -3};
  EXPECT_EQ(format_values(values, 3, DLDataType{kDLInt, 8, 1}, 2), "-1 2 ... (3 values)");
  const float f[] = {0.5f};
  EXPECT_EQ(format_values(f, 4, DLDataType{kDLFloat, 32, 1}, 8), "0.5");
  EXPECT_EQ(format_dtype(DLDataType{kDLUInt, 1, 1}), "bool");
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 2, 3}), 2.5);
}

TEST(Table, ColumnsAsWideAsTheirWidestCell) {
  Table t({{"#", true}, {"name"}, {"bytes", true}, {"last"}});
  t.add_row({"0", "a_long_tensor_name", "16", "x"});
  t.add_row({"12", "b", "1024", "yy"});
  EXPECT_EQ(t.text(),
            "   #  name                bytes  last\n"
            "   0  a_long_tensor_name     16  x\n"
            "  12  b                    1024  yy\n");
}

}  // namespace
}  // namespace grt::cli
