// --pairs-rate / --pairs-count / --triplets-count / --noise, read the same way
// by eval, sample and demo.
#ifndef KINDRED_CLI_SAMPLING_FLAGS_HPP
#define KINDRED_CLI_SAMPLING_FLAGS_HPP

#include "arguments.hpp"
#include "eval_protocol.hpp"

namespace kindred_cli {

SideSampling take_sampling_flags(Arguments &args);
extern const char *const kSamplingFlagsHelp;

}  // namespace kindred_cli

#endif
