/* The option registry through the public header: every enumerated option of
 * every algorithm refuses its bad values (the cases are generated from
 * kindred_option_info, so that a new option is tested by this code as it
 * stands), and the tier: an internal option is set and read by name but not
 * enumerated. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kindred.h"
#include "testing.h"

/* The status must be INVALID and the message must name the option (and say
 * which algorithm and value, when it does not, to make a failure readable). */
static void expect_refused(kindred_status status, const char *algorithm, const char *name, const char *what) {
    char quoted[128];
    snprintf(quoted, sizeof quoted, "option '%s'", name);
    if (status != KINDRED_E_INVALID || !strstr(kindred_last_error(), quoted))
        print_error("%s: option %s, %s: status %d, message \"%s\"\n", algorithm, name, what, (int)status,
                    kindred_last_error());
    assert_int_equal(status, KINDRED_E_INVALID);
    assert_non_null(strstr(kindred_last_error(), quoted));
}

/* The bounds of a numeric range text: "[1, 2147483647]", "(0, inf)", "0|1". */
typedef struct bounds {
    double lo, hi;
    int lo_open, hi_open;
} bounds;

static bounds parse_range(const char *range) {
    bounds b = {-INFINITY, INFINITY, 0, 0};
    char open = 0, close = 0;
    if (strcmp(range, "0|1") == 0) { /* bool */
        b.lo = 0.0;
        b.hi = 1.0;
        return b;
    }
    assert_int_equal(sscanf(range, "%c%lf, %lf%c", &open, &b.lo, &b.hi, &close), 4);
    assert_true(open == '[' || open == '(');
    assert_true(close == ']' || close == ')');
    b.lo_open = open == '(';
    b.hi_open = close == ')';
    return b;
}

/* Values outside the range of a numeric option: the open bound itself, or
 * beyond a closed one (by 1 for integers, by the next double for reals). */
static void refuse_out_of_range(kindred_model *m, const char *algorithm, const char *name, int type, bounds b) {
    const int integral = type != KINDRED_OPTION_DOUBLE;
    if (isfinite(b.lo)) {
        const double below = b.lo_open ? b.lo : integral ? b.lo - 1.0 : nextafter(b.lo, -INFINITY);
        expect_refused(kindred_model_set_double(m, name, below), algorithm, name, "below its range");
    }
    if (isfinite(b.hi)) {
        const double above = b.hi_open ? b.hi : integral ? b.hi + 1.0 : nextafter(b.hi, INFINITY);
        expect_refused(kindred_model_set_double(m, name, above), algorithm, name, "above its range");
    }
    expect_refused(kindred_model_set_double(m, name, NAN), algorithm, name, "NaN");
    if (integral) {
        /* Halfway between two allowed integers. */
        const double inside = isfinite(b.lo) ? b.lo : (isfinite(b.hi) ? b.hi - 1.0 : 0.0);
        expect_refused(kindred_model_set_double(m, name, inside + 0.5), algorithm, name, "not an integer");
    }
}

/* For every algorithm and every option kindred_option_info lists: out of
 * range (numbers), not a member (choices), the wrong type where the setter
 * allows one, and text that is no value. Each refusal leaves the option's
 * value as it was. */
static void every_option_refuses_bad_values(void **state) {
    (void)state;
    int64_t checked = 0;
    for (int64_t a = 0; a < kindred_algorithm_count(); ++a) {
        const char *algorithm = kindred_algorithm_name(a);
        int64_t count = 0;
        assert_ok(kindred_option_count(algorithm, &count));
        assert_true(count > 0);
        kindred_model *m = NULL;
        assert_ok(kindred_model_new(&m, algorithm));
        for (int64_t o = 0; o < count; ++o) {
            const char *name = NULL, *def = NULL, *range = NULL, *doc = NULL;
            kindred_option_type type = KINDRED_OPTION_INT;
            assert_ok(kindred_option_info(algorithm, o, &name, &type, &def, &range, &doc));
            char before[256], after[256];
            assert_ok(kindred_model_option(m, name, before, sizeof before));
            if (type == KINDRED_OPTION_CHOICE) {
                expect_refused(kindred_model_set_string(m, name, "no-such-choice"), algorithm, name, "a non-member");
                expect_refused(kindred_model_set_string(m, name, ""), algorithm, name, "an empty word");
                expect_refused(kindred_model_set_double(m, name, 1.0), algorithm, name, "a number");
                expect_refused(kindred_model_set_int(m, name, 1), algorithm, name, "an integer");
            } else {
                assert_true(type == KINDRED_OPTION_INT || type == KINDRED_OPTION_DOUBLE || type == KINDRED_OPTION_BOOL);
                refuse_out_of_range(m, algorithm, name, type, parse_range(range));
                expect_refused(kindred_model_set_string(m, name, "ten"), algorithm, name, "a word");
                expect_refused(kindred_model_set_string(m, name, "1 1"), algorithm, name, "two numbers");
            }
            assert_ok(kindred_model_option(m, name, after, sizeof after));
            assert_string_equal(before, after);
            ++checked;
        }
        kindred_model_free(m);
    }
    assert_true(checked >= 50); /* every table was read: 11 algorithms, 3 common options each */
}

/* Every listed option has a name of its own within its table, and its
 * listed default is the value a new model holds: an algorithm that declares
 * a common option itself (dcrc's standardize, default 1) lists it once, with
 * its own default in force. */
static void every_option_is_listed_once_with_its_default(void **state) {
    (void)state;
    for (int64_t a = 0; a < kindred_algorithm_count(); ++a) {
        const char *algorithm = kindred_algorithm_name(a);
        int64_t count = 0;
        assert_ok(kindred_option_count(algorithm, &count));
        kindred_model *m = NULL;
        assert_ok(kindred_model_new(&m, algorithm));
        for (int64_t o = 0; o < count; ++o) {
            const char *name = NULL, *def = NULL;
            assert_ok(kindred_option_info(algorithm, o, &name, NULL, &def, NULL, NULL));
            for (int64_t p = 0; p < o; ++p) {
                const char *earlier = NULL;
                assert_ok(kindred_option_info(algorithm, p, &earlier, NULL, NULL, NULL, NULL));
                if (strcmp(name, earlier) == 0) fail_msg("%s lists option '%s' twice", algorithm, name);
            }
            char value[256];
            assert_ok(kindred_model_option(m, name, value, sizeof value));
            if (strcmp(value, def) != 0)
                fail_msg("%s: option '%s' lists default '%s' but a new model holds '%s'", algorithm, name, def, value);
        }
        kindred_model_free(m);
    }
}

/* An internal option: not among the options kindred_option_info lists, yet
 * set (by every setter its type takes), read back and checked like any other;
 * and an unknown name's message lists the stable options only. */
static void internal_options_are_set_but_not_listed(void **state) {
    (void)state;
    int64_t count = 0;
    assert_ok(kindred_option_count("rdpmeans", &count));
    for (int64_t o = 0; o < count; ++o) {
        const char *name = NULL;
        assert_ok(kindred_option_info("rdpmeans", o, &name, NULL, NULL, NULL, NULL));
        for (int s = 0; s < RDPMEANS_INTERNAL_OPTIONS; ++s) assert_string_not_equal(name, rdpmeans_internal_option(s));
    }
    /* The listed ones are the stable table: lambda ... max_iter, then the common three. */
    assert_int_equal(count, 15);
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "rdpmeans"));
    char text[32];
    for (int s = 0; s < RDPMEANS_INTERNAL_OPTIONS; ++s) {
        const char *name = rdpmeans_internal_option(s);
        assert_ok(kindred_model_option(m, name, text, sizeof text));
        assert_string_equal(text, "1"); /* the default: on */
        assert_ok(kindred_model_set_string(m, name, "false"));
        assert_ok(kindred_model_option(m, name, text, sizeof text));
        assert_string_equal(text, "0");
        assert_ok(kindred_model_set_int(m, name, 1));
        assert_ok(kindred_model_option(m, name, text, sizeof text));
        assert_string_equal(text, "1");
        expect_refused(kindred_model_set_int(m, name, 2), "rdpmeans", name, "2");
        expect_refused(kindred_model_set_string(m, name, "maybe"), "rdpmeans", name, "maybe");
    }
    assert_fails_with(kindred_model_set_int(m, "no_such_option", 1), KINDRED_E_NOT_FOUND, "valid options: lambda");
    for (int s = 0; s < RDPMEANS_INTERNAL_OPTIONS; ++s) assert_null(strstr(kindred_last_error(), rdpmeans_internal_option(s)));
    kindred_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_option_refuses_bad_values),
        cmocka_unit_test(every_option_is_listed_once_with_its_default),
        cmocka_unit_test(internal_options_are_set_but_not_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
