#include "read_progress.hpp"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace kindred_cli {

ReadProgress::ReadProgress(const std::string &source, size_t total_bytes)
    : source_(source), total_(total_bytes), enabled_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

ReadProgress::~ReadProgress() {
    if (!shown_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
}

void ReadProgress::update(size_t bytes_done, int64_t rows) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    // The delay before the first line can be shortened (tests of the display
    // on a small file): KINDRED_PROGRESS_DELAY_MS.
    static const long delay_ms = [] {
        const char *v = std::getenv("KINDRED_PROGRESS_DELAY_MS");
        return v ? std::strtol(v, nullptr, 10) : 500L;
    }();
    if (now - start_ < std::chrono::milliseconds(delay_ms)) return;
    if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const int percent = total_ ? static_cast<int>(100.0 * static_cast<double>(bytes_done) / static_cast<double>(total_)) : 0;
    std::fprintf(stderr, "\r\033[Kreading %s: %d%% (%lld rows)", source_.c_str(), percent, static_cast<long long>(rows));
    std::fflush(stderr);
    shown_ = true;
}

}  // namespace kindred_cli
