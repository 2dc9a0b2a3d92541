// A one-line progress display on stderr ("kmeans: iteration 12, objective ...")
// driven by kindred_model_set_progress. It shows only when stderr is a
// terminal, so that files and pipes never receive it.
#ifndef KINDRED_CLI_PROGRESS_LINE_HPP
#define KINDRED_CLI_PROGRESS_LINE_HPP

#include <chrono>
#include <cstdint>
#include <string>

#include "kindred.h"

namespace kindred_cli {

class ProgressLine {
public:
    // verbose: the library's info messages (what tuning tried and chose, a
    // fallback to defaults) reach stderr too, not only its warnings.
    explicit ProgressLine(bool verbose = false);
    ~ProgressLine();
    ProgressLine(const ProgressLine &) = delete;
    ProgressLine &operator=(const ProgressLine &) = delete;

    // Installs the progress callback on `model` (not when stderr is not a
    // terminal) and a log callback that prints warnings (and, verbose, info
    // messages) on stderr;
    // `label` starts the line, e.g. "kmeans, repeat 2/5".
    void attach(kindred_model *model, const std::string &label);
    // Erases the line, if one is shown.
    void clear();

private:
    static int callback(void *user, int64_t iteration, double objective, const char *message);
    static void log_callback(void *user, int level, const char *message);
    bool enabled_;
    bool verbose_;
    bool shown_ = false;
    std::string label_;
    std::string last_warning_;
    std::chrono::steady_clock::time_point last_;
};

}  // namespace kindred_cli

#endif
