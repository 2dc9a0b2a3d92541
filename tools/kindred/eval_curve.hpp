// `kindred eval A [B ...] --curve 0,50,100 [--plot curve.svg]`: the
// evaluation protocol (eval_protocol.hpp) repeated for each number of
// constraints and each algorithm, as a table, JSON and a picture.
#ifndef KINDRED_CLI_EVAL_CURVE_HPP
#define KINDRED_CLI_EVAL_CURVE_HPP

#include "arguments.hpp"

namespace kindred_cli {

// Whether the command line asks for a curve (has --curve).
bool wants_curve(const Arguments &args);

// Runs `kindred eval ... --curve ...`; returns the exit code.
int run_eval_curve(Arguments &args);

extern const char *const kEvalCurveHelp;

}  // namespace kindred_cli

#endif
