// What a command of the `kindred` program is. Each cmd_NAME.cpp defines
// `const Command &cmd_NAME()`; main.cpp lists them in its command table.
#ifndef KINDRED_CLI_COMMAND_HPP
#define KINDRED_CLI_COMMAND_HPP

#include <string>
#include <vector>

#include "arguments.hpp"

namespace kindred_cli {

struct Command {
    const char *name;
    const char *synopsis;  // usage line(s), e.g. "kindred fit ALGORITHM --data X.csv ..."
    const char *summary;   // one line for `kindred help`
    const char *details;   // the flags, for `kindred help COMMAND` and `kindred COMMAND --help`
    int (*run)(Arguments &args);  // returns the exit code; failures throw CliError
};

// The command table (defined in main.cpp), in the order `kindred help` lists it.
const std::vector<const Command *> &all_commands();

// The flags that name data and its labels, shared by the commands that read data.
struct DataRequest;
DataRequest take_data_flags(Arguments &args, const char *command, bool labels_required);
extern const char *const kDataFlagsHelp;
// The names of a flag's comma-separated list ("a,b,c"); a usage error for an empty name.
std::vector<std::string> column_list(const std::string &flag, const std::string &value);

}  // namespace kindred_cli

#endif
