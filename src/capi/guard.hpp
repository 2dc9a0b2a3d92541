// The one guard around every exported function: clears the thread-local
// message on entry, runs the body, and turns any C++ exception into a
// kindred_status and a message. No exception crosses the C boundary.
#ifndef KINDRED_CAPI_GUARD_HPP
#define KINDRED_CAPI_GUARD_HPP

#include <new>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "kindred.h"

namespace kindred {
namespace capi {

void clear_error() noexcept;
kindred_status set_error(kindred_status code, const char *message) noexcept;

template <typename Body>
kindred_status guarded(Body &&body) noexcept {
    clear_error();
    try {
        body();
        // Cleared again: a progress / log / oracle callback may have called a
        // kindred function that failed, and a success leaves no message.
        clear_error();
        return KINDRED_OK;
    } catch (const Error &e) {
        return set_error(e.code(), e.what());
    } catch (const std::bad_alloc &) {
        return set_error(KINDRED_E_NOMEM, "out of memory: an allocation the call needs was refused (data or sizes too large for this machine)");
    } catch (const std::length_error &) {
        // A container asked for more than it can ever hold (e.g. a size near
        // INT64_MAX): the same failure for the caller as a refused allocation.
        return set_error(KINDRED_E_NOMEM, "out of memory: the requested size exceeds what can be allocated");
    } catch (const std::exception &e) {
        return set_error(KINDRED_E_INTERNAL, e.what());
    } catch (...) {
        return set_error(KINDRED_E_INTERNAL, "unknown internal error");
    }
}

// Argument checks shared by the entry points. Returns p, so that a handle is
// checked where it is used: require_pointer(model, "model")->options.
template <typename T>
T *require_pointer(T *p, const char *what) {
    if (!p) fail(KINDRED_E_INVALID, what, " must not be NULL");
    return p;
}

}  // namespace capi
}  // namespace kindred

#endif
