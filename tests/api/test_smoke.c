/* End-to-end smoke test through the public header: kmeans on two blobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kindred.h"

static void kmeans_separates_two_blobs(void **state) {
    (void)state;
    double x[20];
    for (int i = 0; i < 10; ++i) {
        x[2 * i] = (i < 5 ? 0.0 : 10.0) + 0.01 * i;
        x[2 * i + 1] = (i < 5 ? 0.0 : 10.0) - 0.01 * i;
    }
    kindred_model *m = NULL;
    assert_int_equal(kindred_model_new(&m, "kmeans"), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "k", 2), KINDRED_OK);
    assert_int_equal(kindred_model_fit_dense(m, x, 10, 2, KINDRED_ROW_MAJOR, 2, NULL), KINDRED_OK);
    int32_t labels[10];
    assert_int_equal(kindred_model_labels(m, labels, 10), KINDRED_OK);
    for (int i = 1; i < 5; ++i) assert_int_equal(labels[i], labels[0]);
    for (int i = 6; i < 10; ++i) assert_int_equal(labels[i], labels[5]);
    assert_int_not_equal(labels[0], labels[5]);
    kindred_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kmeans_separates_two_blobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
