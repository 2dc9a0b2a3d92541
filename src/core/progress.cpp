#include "core/progress.hpp"

#include "core/error.hpp"
#include "core/options.hpp"

namespace kindred {

void Progress::report(int64_t iteration, double objective, const char *message) const {
    if (fn_ && fn_(user_, iteration, objective, message ? message : "") != 0)
        fail(KINDRED_E_CANCELLED, "cancelled by the progress callback at iteration ", iteration);
}

void Log::iteration_record(const char *who, int64_t iteration, std::initializer_list<RecordField> fields) const {
    if (!fn_) return;  // no text formed when nobody listens
    std::string line = cat(who, ": iteration ", iteration, ":");
    for (const RecordField &f : fields) line += cat(" ", f.name, "=", format_number(f.value));
    emit(0, line);
}

}  // namespace kindred
