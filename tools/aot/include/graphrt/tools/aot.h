// `graphrt aot`: a blob the runtime accepts, written as C99 that calls each node's kernel
// directly on the host-planned pool offsets (no loader, registry or FlatBuffers on the
// device). The support runtime it links is runtime/aot (graphrt/aot.h).
#ifndef GRAPHRT_TOOLS_AOT_H_
#define GRAPHRT_TOOLS_AOT_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace grt::tools {

struct AotOptions {
  std::string symbol;        // prefix of every generated name; a C identifier (the caller checks)
  std::string section;       // the constants' section; empty: .rodata.graphrt_aot.<symbol>
  std::string header_name;   // what the C file includes; empty: the header's text is inlined
  std::string source_label;  // the blob's name in comments, already comment-safe
  std::string version;       // graphrt's version, recorded in both files
  bool define_pools = false; // the C file defines the pools (in .bss) instead of the firmware
  // The blob was imported from TVM: kernels that are not built in are its generated
  // functions, called by their own symbols (the caller has checked that every node calls
  // each one with the same tensor dtypes and shapes, as `graphrt kernels` does).
  bool generated_functions = false;
};

struct AotFiles {
  std::string source;  // <symbol>.c
  std::string header;  // <symbol>.h
};

// The C of `blob` (16-byte aligned). False with the runtime's own message when the
// runtime refuses the blob or a node's argument check fails, or with the reason when a
// node's kernel is not built in (AoT calls built-in kernels by their C names) and is not
// a generated function of a TVM import.
bool write_aot(const uint8_t* blob, size_t size, const AotOptions& options, AotFiles* out, std::string* error);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_AOT_H_
