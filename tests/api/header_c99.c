/* kindred.h compiles as strict C99 (-std=c99 -pedantic -Werror -Wall -Wextra)
 * on its own, and its declarations link against the library. */
#include "kindred.h"

int main(void) {
    kindred_status status = KINDRED_OK;
    kindred_side *side = NULL;
    kindred_model *model = NULL;
    kindred_progress_fn progress = NULL;
    kindred_log_fn log = NULL;
    kindred_oracle_fn oracle = NULL;
    enum kindred_uses uses = KINDRED_USES_PAIRS;
    kindred_layout layout = KINDRED_ROW_MAJOR;
    kindred_option_type type = KINDRED_OPTION_INT;
    int64_t count = 0;
    (void)progress;
    (void)log;
    (void)oracle;
    (void)uses;
    (void)layout;
    (void)type;
    if (kindred_version()[0] != '0' + KINDRED_VERSION_MAJOR) return 1;
    if (kindred_status_string(status) == NULL) return 1;
    if (kindred_side_new(&side, 2) != KINDRED_OK) return 1;
    if (kindred_side_counts(side, &count, NULL, NULL, NULL) != KINDRED_OK || count != 2) return 1;
    kindred_side_free(side);
    if (kindred_model_new(&model, "kmeans") != KINDRED_OK) return 1;
    kindred_model_free(model);
    return kindred_last_error()[0] == '\0' ? 0 : 1;
}
