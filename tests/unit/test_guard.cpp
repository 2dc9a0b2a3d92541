// The C boundary's guard (src/capi/guard.hpp): every kind of C++ exception
// becomes a status code and a message, and nothing escapes. KINDRED_E_INTERNAL
// cannot come from valid use of the API, so it is triggered here directly.
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "capi/guard.hpp"

// cmocka last: it defines a macro fail() that would shadow kindred::fail.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

namespace capi = kindred::capi;

namespace {

void runtime_error_is_internal(void **) {
    const kindred_status s = capi::guarded([] { throw std::runtime_error("invariant broken in step 3"); });
    assert_int_equal(s, KINDRED_E_INTERNAL);
    assert_string_equal(kindred_last_error(), "invariant broken in step 3");
    assert_int_equal(capi::guarded([] { throw std::logic_error("bad index"); }), KINDRED_E_INTERNAL);
    assert_string_equal(kindred_last_error(), "bad index");
    assert_int_equal(capi::guarded([] { std::vector<int>().at(3); }), KINDRED_E_INTERNAL);
    assert_int_equal(capi::guarded([] { throw 42; }), KINDRED_E_INTERNAL);
    assert_string_equal(kindred_last_error(), "unknown internal error");
}

void kindred_errors_keep_their_code_and_message(void **) {
    for (int code = KINDRED_E_INVALID; code <= KINDRED_E_BUFFER_TOO_SMALL; ++code) {
        const kindred_status s = capi::guarded(
            [code] { throw kindred::Error(static_cast<kindred_status>(code), kindred::cat("problem ", code, " at entry ", 17)); });
        assert_int_equal(s, code);
        assert_string_equal(kindred_last_error(), ("problem " + std::to_string(code) + " at entry 17").c_str());
    }
}

void allocation_failures_are_nomem(void **) {
    assert_int_equal(capi::guarded([] { throw std::bad_alloc(); }), KINDRED_E_NOMEM);
    assert_non_null(strstr(kindred_last_error(), "out of memory: an allocation"));
    assert_int_equal(capi::guarded([] { throw std::bad_array_new_length(); }), KINDRED_E_NOMEM);
    // A container asked for more than it can ever hold.
    assert_int_equal(capi::guarded([] { std::vector<double> v(SIZE_MAX / 2); }), KINDRED_E_NOMEM);
    assert_non_null(strstr(kindred_last_error(), "out of memory"));
}

void success_clears_the_message(void **) {
    assert_int_equal(capi::guarded([] { throw std::runtime_error("x"); }), KINDRED_E_INTERNAL);
    assert_string_equal(kindred_last_error(), "x");
    int ran = 0;
    assert_int_equal(capi::guarded([&] { ran = 1; }), KINDRED_OK);
    assert_int_equal(ran, 1);
    assert_string_equal(kindred_last_error(), "");
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runtime_error_is_internal),
        cmocka_unit_test(kindred_errors_keep_their_code_and_message),
        cmocka_unit_test(allocation_failures_are_nomem),
        cmocka_unit_test(success_clears_the_message),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
