// Numbers for people: byte counts, durations, shapes and tensor values.
#ifndef GRAPHRT_TOOLS_CLI_FORMAT_H_
#define GRAPHRT_TOOLS_CLI_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <dlpack/dlpack.h>

namespace grt::cli {

// "512 B", "93184 B (91.0 KiB)", "3145728 B (3.0 MiB)", "... (16.0 GiB)": exact, with a rounded reading.
std::string format_bytes(uint64_t bytes);

// "850 ns", "12.3 us", "4.56 ms", "1.20 s".
std::string format_duration(double nanoseconds);

// "[1, 28, 28, 1]"
std::string format_shape(const std::vector<int64_t>& shape);

// "int8", "float32", ... for a DLPack dtype; "code:bits" when unknown.
std::string format_dtype(DLDataType dtype);

// The first `limit` elements of a tensor's bytes, decoded as dtype, separated by spaces,
// with "... (N values)" when there are more.
std::string format_values(const void* data, size_t bytes, DLDataType dtype, size_t limit);

// The median of the values (the mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> values);

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_FORMAT_H_
