// --pairs, --triplets and --partial-labels: taken the same way by `kindred fit` and `kindred-mpi fit`
// (tools/kindred/mpi_main.cpp). Apart from side_files.cpp, which only reads files, so that the readers
// stay free of the command line and the options registry (the fuzzing harnesses link them alone).
#ifndef KINDRED_CLI_SIDE_FLAGS_HPP
#define KINDRED_CLI_SIDE_FLAGS_HPP

#include <string>

#include "arguments.hpp"
#include "side_files.hpp"

namespace kindred_cli {

SideFiles take_side_flags(Arguments &args);
extern const char *const kSideFlagsHelp;

// A note on standard error, as `PROGRAM: note: ...`, for each given file the algorithm does not use:
// such a file is ignored, not refused, so that one command line serves several algorithms.
void note_unused_side(const std::string &algorithm, const SideFiles &files, const char *program);

}  // namespace kindred_cli

#endif
