// The `kindred` program: finds the command and runs it; every failure ends
// here as one line on stderr and an exit code (2 usage, 1 runtime).
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "cli_error.hpp"
#include "command.hpp"
#include "kindred.h"

namespace kindred_cli {

// THE COMMAND TABLE: one line per command, in the order `kindred help` lists them.
// To add a command NAME: write cmd_NAME.cpp defining `const Command &cmd_NAME()`,
// add that file to tools/kindred/meson.build, and add the line `X(NAME)` here.
#define KINDRED_COMMAND_TABLE(X) \
    X(algorithms)                \
    X(help)                      \
    X(fit)                       \
    X(predict)                   \
    X(eval)                      \
    X(sample)                    \
    X(active)                    \
    X(demo)                      \
    X(plot)                      \
    X(ask)                       \
    /* add X(NAME) lines above this one */

#define KINDRED_DECLARE_COMMAND(NAME) const Command &cmd_##NAME();
KINDRED_COMMAND_TABLE(KINDRED_DECLARE_COMMAND)

const std::vector<const Command *> &all_commands() {
#define KINDRED_COMMAND_ENTRY(NAME) &cmd_##NAME(),
    static const std::vector<const Command *> table = {KINDRED_COMMAND_TABLE(KINDRED_COMMAND_ENTRY)};
    return table;
}

namespace {

const Command *find_command(const std::string &name) {
    for (const Command *c : all_commands())
        if (name == c->name) return c;
    return nullptr;
}

int run(int argc, char **argv) {
    if (argc < 2) usage_error("no command given; `kindred help` lists the commands");
    const std::string word = argv[1];
    if (word == "--version" || word == "-V") {
        if (argc > 2) usage_error(word, " takes no arguments; got '", argv[2], "'");
        std::cout << "kindred " << kindred_version() << "\n";
        return kExitOk;
    }
    const Command *command = find_command(word == "--help" || word == "-h" ? "help" : word);
    if (!command) usage_error("unknown command '", word, "'; `kindred help` lists the commands");
    Arguments args = Arguments::parse(argc, argv, 2);
    if (args.take_switch("help")) {
        std::cout << "usage: " << command->synopsis << "\n\n" << command->summary << "\n\nflags:\n" << command->details;
        return kExitOk;
    }
    return command->run(args);
}

}  // namespace

}  // namespace kindred_cli

int main(int argc, char **argv) {
    using namespace kindred_cli;
    try {
        const int code = run(argc, argv);
        std::cout.flush();
        if (!std::cout) {
            std::fprintf(stderr, "kindred: cannot write to standard output\n");
            return kExitRuntime;
        }
        return code;
    } catch (const CliError &e) {
        std::cout.flush();
        std::fprintf(stderr, "kindred: %s\n", e.what());
        return e.exit_code();
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "kindred: out of memory\n");
        return kExitRuntime;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "kindred: %s\n", e.what());
        return kExitRuntime;
    }
}
