// libFuzzer harness: the CLI's data CSV reader on arbitrary text. It either
// returns a consistent data set or throws the program's own error (a message
// and an exit code); anything else (another exception, a crash) is a bug.
#include <cstdint>
#include <string>

#include "cli_error.hpp"
#include "csv_reader.hpp"
#include "fuzz_bytes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    // The first byte chooses whether the label column must exist.
    const bool required = size > 0 && (data[0] & 1);
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        const kindred_cli::Dataset set = kindred_cli::parse_csv_data(text, "fuzz.csv", "label", required);
        if (set.n < 0 || set.d < 0 || set.dense.size() != static_cast<size_t>(set.n * set.d)) __builtin_trap();
        if (set.has_labels() && set.labels.size() != static_cast<size_t>(set.n)) __builtin_trap();
        for (int32_t l : set.labels)
            if (l < 0 || l >= set.classes()) __builtin_trap();
    } catch (const kindred_cli::CliError &e) {
        if (e.what()[0] == '\0') __builtin_trap();  // every refusal says why
    }
    return 0;
}
