#include "cli.h"

int main(int argc, char** argv) { return grt::cli::graphrt_main(std::vector<std::string>(argv + 1, argv + argc)); }
