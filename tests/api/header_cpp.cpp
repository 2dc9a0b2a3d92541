// kindred.h compiles as C++17 (-pedantic -Werror -Wall -Wextra), with its
// declarations given C linkage, and links against the library.
#include "kindred.h"

#include <cstring>

namespace {
int never_cancel(void *, int64_t, double, const char *) noexcept { return 0; }
}  // namespace

int main() {
    kindred_progress_fn progress = never_cancel;
    kindred_model *model = nullptr;
    if (kindred_model_new(&model, "kmeans") != KINDRED_OK) return 1;
    if (kindred_model_set_progress(model, progress, nullptr) != KINDRED_OK) return 1;
    if (std::strcmp(kindred_model_algorithm(model), "kmeans") != 0) return 1;
    kindred_model_free(model);
    const kindred_status unknown = static_cast<kindred_status>(99);
    return std::strcmp(kindred_status_string(unknown), "unknown status") == 0 ? 0 : 1;
}
