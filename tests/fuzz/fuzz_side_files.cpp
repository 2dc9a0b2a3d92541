// libFuzzer harness: the CLI's side-information readers (pairs, triplets,
// partial labels) and its reader of ground-truth label lines, on arbitrary
// text about a number of points the input chooses. They fill a side handle
// (or the labels) or throw the program's own error.
#include <cstdint>
#include <string>

#include "cli_error.hpp"
#include "fuzz_bytes.hpp"
#include "kindred.h"
#include "label_files.hpp"
#include "side_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3) return 0;
    const int kind = data[0] % 4;
    const int64_t n = 1 + ((static_cast<int64_t>(data[1]) << 8) | data[2]) % 1000;
    kindred_fuzz::MemoryFile file(data + 3, size - 3);
    if (kind == 3) {
        // The ground-truth labels of .mtx data (--labels FILE): one label a line for n points.
        kindred_cli::Dataset set;
        set.n = n;
        try {
            kindred_cli::attach_label_lines(set, file.path());
            if (set.labels.size() != static_cast<size_t>(n)) __builtin_trap();
            for (int32_t l : set.labels)
                if (l < 0 || l >= set.classes()) __builtin_trap();
        } catch (const kindred_cli::CliError &e) {
            if (e.what()[0] == '\0') __builtin_trap();
        }
        return 0;
    }
    kindred_cli::SideFiles files;
    (kind == 0 ? files.pairs : kind == 1 ? files.triplets : files.partial_labels) = file.path();
    try {
        kindred_cli::Dataset data;  // points without IDs: rows are named by number
        data.n = n;
        kindred_cli::SidePtr side = kindred_cli::read_side_files(files, data);
        int64_t got_n = 0, pairs = 0, triplets = 0, labelled = 0;
        kindred_fuzz::check_status(kindred_side_counts(side.get(), &got_n, &pairs, &triplets, &labelled));
        if (got_n != n || labelled > n) __builtin_trap();
        kindred_fuzz::check_status(kindred_side_check_consistent(side.get()));
    } catch (const kindred_cli::CliError &e) {
        if (e.what()[0] == '\0') __builtin_trap();
    }
    return 0;
}
