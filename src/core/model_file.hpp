// The model file: magic, format version, payload length, payload, checksum.
// Loading checks every length against what is left, so that a truncated,
// corrupted or foreign file is rejected with KINDRED_E_CORRUPT, never read
// past its end.
#ifndef KINDRED_CORE_MODEL_FILE_HPP
#define KINDRED_CORE_MODEL_FILE_HPP

#include <string>
#include <utility>
#include <vector>

#include "core/fit_result.hpp"

namespace kindred {

struct ModelRecord {
    std::string algorithm;
    std::vector<std::pair<std::string, std::string>> options;  // name, text ("" = unset)
    FitResult result;
};

void write_model_file(const std::string &path, const ModelRecord &record);
ModelRecord read_model_file(const std::string &path);

// FNV-1a, 64 bits: detects accidental corruption (not tampering).
uint64_t checksum64(const unsigned char *data, size_t size);

}  // namespace kindred

#endif
