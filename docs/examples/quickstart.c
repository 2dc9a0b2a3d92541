#include <stdio.h>
#include <kindred.h>

int main(void) {
    double x[6 * 2] = {0.0, 0.1, 0.2, 0.0, 5.0, 5.1, 5.2, 4.9, 9.0, 9.1, 9.2, 8.8}; /* 6 points, row-major */
    int64_t i[2] = {0, 2}, j[2] = {1, 4};                      /* pairs (0, 1) and (2, 4) */
    double value[2] = {1.0, -1.0};                             /* > 0 must-link, < 0 cannot-link */
    kindred_side *side = NULL;  kindred_model *model = NULL;  int32_t labels[6];
    if (kindred_side_new(&side, 6) != KINDRED_OK || kindred_side_add_pairs(side, i, j, value, 2) != KINDRED_OK ||
        kindred_model_new(&model, "pckmeans") != KINDRED_OK ||        /* any name of kindred_algorithm_name() */
        kindred_model_set_int(model, "k", 3) != KINDRED_OK ||         /* options by name, checked */
        kindred_model_fit_dense(model, x, 6, 2, KINDRED_ROW_MAJOR, 2, side) != KINDRED_OK ||
        kindred_model_labels(model, labels, 6) != KINDRED_OK) {       /* results copied into your buffer */
        fprintf(stderr, "kindred: %s\n", kindred_last_error());   /* a message naming the problem */
        kindred_model_free(model);  kindred_side_free(side);
        return 1;
    }
    for (int p = 0; p < 6; ++p) printf("point %d: cluster %d\n", p, (int)labels[p]);
    kindred_model_free(model);  kindred_side_free(side);          /* both accept NULL */
    return 0;
}
