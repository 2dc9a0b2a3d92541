// Progress reporting with cancellation, and the per-model log callback.
// A callback's non-zero return throws Error(KINDRED_E_CANCELLED), which
// unwinds the fit and leaves the model unfitted.
#ifndef KINDRED_CORE_PROGRESS_HPP
#define KINDRED_CORE_PROGRESS_HPP

#include <cstdint>
#include <initializer_list>
#include <string>

#include "kindred.h"

namespace kindred {

class Progress {
public:
    Progress() = default;
    Progress(kindred_progress_fn fn, void *user) : fn_(fn), user_(user) {}
    void report(int64_t iteration, double objective, const char *message) const;

private:
    kindred_progress_fn fn_ = nullptr;
    void *user_ = nullptr;
};

// One figure of an iteration record (Log::iteration_record).
struct RecordField {
    const char *name;
    double value;
};

class Log {
public:
    Log() = default;
    Log(kindred_log_fn fn, void *user) : fn_(fn), user_(user) {}
    void debug(const std::string &m) const { emit(0, m); }
    void info(const std::string &m) const { emit(1, m); }
    void warning(const std::string &m) const { emit(2, m); }
    // A fit's per-iteration figures, one debug line per iteration in a fixed
    // form that a benchmark or test parses:
    //   "WHO: iteration N: name=value name=value ..."
    // values written by format_number (they read back exactly with strtod).
    // These diagnostics are not results: a model neither keeps nor saves them.
    void iteration_record(const char *who, int64_t iteration, std::initializer_list<RecordField> fields) const;

private:
    void emit(int level, const std::string &m) const {
        if (fn_) fn_(user_, level, m.c_str());
    }
    kindred_log_fn fn_ = nullptr;
    void *user_ = nullptr;
};

}  // namespace kindred

#endif
