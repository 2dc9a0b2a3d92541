#include "progress_line.hpp"

#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace kindred_cli {

ProgressLine::ProgressLine(bool verbose) : enabled_(isatty(STDERR_FILENO) == 1), verbose_(verbose) {}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::attach(kindred_model *model, const std::string &label) {
    // Warnings (e.g. side information that carries no signal) always reach
    // stderr, terminal or not; the progress line only on a terminal.
    kindred_model_set_log(model, &ProgressLine::log_callback, this);
    if (!enabled_) return;
    label_ = label;
    last_ = std::chrono::steady_clock::time_point{};
    kindred_model_set_progress(model, &ProgressLine::callback, this);
}

void ProgressLine::clear() {
    if (!shown_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
}

void ProgressLine::log_callback(void *user, int level, const char *message) {
    auto *self = static_cast<ProgressLine *>(user);
    if (!message) return;
    if (level == 1 && self->verbose_) {
        self->clear();
        std::fprintf(stderr, "kindred: info: %s\n", message);
        return;
    }
    if (level < 2 || self->last_warning_ == message) return;  // once per distinct warning
    self->last_warning_ = message;
    self->clear();
    std::fprintf(stderr, "kindred: warning: %s\n", message);
}

int ProgressLine::callback(void *user, int64_t iteration, double objective, const char *message) {
    auto *self = static_cast<ProgressLine *>(user);
    // At most ten updates a second: a fast fit must not be slowed by the terminal.
    const auto now = std::chrono::steady_clock::now();
    if (now - self->last_ < std::chrono::milliseconds(100)) return 0;
    self->last_ = now;
    char objective_text[48] = "";
    if (std::isfinite(objective)) std::snprintf(objective_text, sizeof objective_text, " | objective %.6g", objective);
    std::fprintf(stderr, "\r\033[K%s | iteration %lld%s | %s", self->label_.c_str(), static_cast<long long>(iteration),
                 objective_text, message ? message : "");
    std::fflush(stderr);
    self->shown_ = true;
    return 0;
}

}  // namespace kindred_cli
