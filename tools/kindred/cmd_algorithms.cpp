// `kindred algorithms`: every algorithm of the library with its options.
#include <iostream>

#include "command.hpp"
#include "options_from_registry.hpp"

namespace kindred_cli {

namespace {

int run_algorithms(Arguments &args) {
    args.expect_nothing_else("algorithms", 0);
    std::cout << algorithm_list();
    return 0;
}

}  // namespace

const Command &cmd_algorithms() {
    static const Command c{"algorithms", "kindred algorithms",
                           "list the algorithms and their options (from the library's registry)",
                           "  no flags.\n", run_algorithms};
    return c;
}

}  // namespace kindred_cli
