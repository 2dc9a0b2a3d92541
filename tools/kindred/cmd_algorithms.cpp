// `kindred algorithms`: every algorithm of the library with its options.
#include <iostream>

#include "command.hpp"
#include "options_from_registry.hpp"

namespace kindred_cli {

namespace {

int run_algorithms(Arguments &args) {
    const bool json = args.take_switch("json");
    args.expect_nothing_else("algorithms", 0);
    std::cout << (json ? algorithm_list_json() : algorithm_list());
    return 0;
}

}  // namespace

const Command &cmd_algorithms() {
    static const Command c{"algorithms", "kindred algorithms [--json]",
                           "list the algorithms and their options (from the library's registry)",
                           "  --json                 print {\"version\", \"algorithms\": {NAME: {\"summary\", \"side_information\",\n"
                           "                         \"sparse\", \"finds_k\", \"options\": {NAME: {\"type\", \"range\", \"doc\",\n"
                           "                         \"default\"}}}}}\n", run_algorithms};
    return c;
}

}  // namespace kindred_cli
