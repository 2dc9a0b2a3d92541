#include "side_flags.hpp"

#include <iostream>

#include "options_from_registry.hpp"

namespace kindred_cli {

const char *const kSideFlagsHelp =
    "  --pairs FILE           must-link / cannot-link pairs, CSV i,j,value\n"
    "  --triplets FILE        relative triplets, CSV a,b,c,answer\n"
    "  --partial-labels FILE  CSV with one column `label` (-1 or empty = unknown)\n";

SideFiles take_side_flags(Arguments &args) {
    SideFiles files;
    files.pairs = args.take("pairs").value_or("");
    files.triplets = args.take("triplets").value_or("");
    files.partial_labels = args.take("partial-labels").value_or("");
    return files;
}

void note_unused_side(const std::string &algorithm, const SideFiles &files, const char *program) {
    const int uses = algorithm_uses(algorithm);
    auto note = [&](const std::string &file, int flag, const char *what) {
        if (!file.empty() && !(uses & flag))
            std::cerr << program << ": note: " << algorithm << " does not use " << what << "; " << file << " is ignored\n";
    };
    note(files.pairs, KINDRED_USES_PAIRS, "pairs");
    note(files.triplets, KINDRED_USES_TRIPLETS, "triplets");
    note(files.partial_labels, KINDRED_USES_PARTIAL_LABELS, "partial labels");
}

}  // namespace kindred_cli
