// "reading big.csv: 42% (420000 rows)" on stderr while a large file is read.
// Like ProgressLine it shows only on a terminal, and only once reading has
// taken half a second, so that small files and pipes never see it.
#ifndef KINDRED_CLI_READ_PROGRESS_HPP
#define KINDRED_CLI_READ_PROGRESS_HPP

#include <chrono>
#include <cstdint>
#include <string>

namespace kindred_cli {

class ReadProgress {
public:
    ReadProgress(const std::string &source, size_t total_bytes);
    ~ReadProgress();
    ReadProgress(const ReadProgress &) = delete;
    ReadProgress &operator=(const ReadProgress &) = delete;

    // Called every few thousand rows; prints at most ten times a second.
    void update(size_t bytes_done, int64_t rows);

private:
    std::string source_;
    size_t total_;
    bool enabled_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace kindred_cli

#endif
