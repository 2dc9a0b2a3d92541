// `kindred help [ALGORITHM | COMMAND]`: the program's help, generated from the
// command table and the library's option registry.
#include <algorithm>
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "options_from_registry.hpp"

namespace kindred_cli {

namespace {

const char *const kFormats =
    "files:\n"
    "  data            CSV with a header row; numeric columns are features; the column `label`\n"
    "                  (or --label-column NAME) is ground truth, used by eval and sample, never by fit;\n"
    "                  labels may be words. Or Matrix Market coordinate (.mtx) for sparse counts,\n"
    "                  with --labels FILE (one label per line) as ground truth.\n"
    "  pairs           CSV i,j,value (0-based point indices; value > 0 must-link of that weight,\n"
    "                  value < 0 cannot-link); the header row is optional.\n"
    "  triplets        CSV a,b,c,answer (\"is a closer to b than to c?\": yes/no/dnk or 1/-1/0).\n"
    "  partial labels  CSV with one column `label`: a class id >= 0, or -1 / empty for unknown.\n"
    "  output labels   CSV with one column `cluster`.\n"
    "  model           binary .kdm file written by fit --model, read by predict --model.\n";

const char *const kExitCodes =
    "exit codes:\n"
    "  0  success\n"
    "  1  the work failed: a file cannot be read or is malformed (the message names file, line and\n"
    "     column), or the library refused the data or side information (its message is shown)\n"
    "  2  the command line is wrong: unknown command, algorithm, flag or option; a flag without its\n"
    "     value; a value out of range\n";

std::string general_help() {
    std::string out = std::string("kindred ") + kindred_version() +
                      ": clustering with side information (must-link / cannot-link pairs, triplets, partial labels)\n\n"
                      "commands:\n";
    for (const Command *c : all_commands()) out += std::string("  ") + c->synopsis + "\n      " + c->summary + "\n";
    out += "  kindred --version\n      print the version\n\n";
    out += "`kindred help COMMAND` shows a command's flags; `kindred help ALGORITHM` an algorithm's options.\n";
    out += "Algorithms: ";
    const std::vector<std::string> names = algorithm_names();
    for (size_t k = 0; k < names.size(); ++k) out += (k ? ", " : "") + names[k];
    out += "\n\n";
    out += kFormats;
    out += "\n";
    out += kExitCodes;
    out += "\nA long fit shows a progress line on stderr when stderr is a terminal.\n";
    return out;
}

int run_help(Arguments &args) {
    args.expect_nothing_else("help", 1);
    if (args.positionals().empty()) {
        std::cout << general_help();
        return 0;
    }
    const std::string topic = args.positionals().front();
    for (const Command *c : all_commands())
        if (topic == c->name) {
            std::cout << "usage: " << c->synopsis << "\n\n" << c->summary << "\n\nflags:\n" << c->details;
            return 0;
        }
    const std::vector<std::string> names = algorithm_names();
    if (std::find(names.begin(), names.end(), topic) == names.end()) {
        std::string commands;
        for (const Command *c : all_commands()) commands += (commands.empty() ? "" : ", ") + std::string(c->name);
        std::string algorithms;
        for (const std::string &name : names) algorithms += (algorithms.empty() ? "" : ", ") + name;
        usage_error("no command or algorithm '", topic, "'; commands: ", commands, "; algorithms: ", algorithms);
    }
    std::cout << algorithm_help(topic);
    return 0;
}

}  // namespace

const Command &cmd_help() {
    static const Command c{"help", "kindred help [ALGORITHM | COMMAND]",
                           "this text; an algorithm's options, defaults and ranges; a command's flags",
                           "  no flags.\n", run_help};
    return c;
}

}  // namespace kindred_cli
