#include "core/progress.hpp"

#include "core/error.hpp"

namespace kindred {

void Progress::report(int64_t iteration, double objective, const char *message) const {
    if (fn_ && fn_(user_, iteration, objective, message ? message : "") != 0)
        fail(KINDRED_E_CANCELLED, "cancelled by the progress callback at iteration ", iteration);
}

}  // namespace kindred
