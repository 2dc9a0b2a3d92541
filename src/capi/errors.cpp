// kindred_last_error, kindred_status_string, kindred_version, kindred_version_number.
#include <cstring>
#include <string>

#include "capi/guard.hpp"

namespace kindred {
namespace capi {
namespace {
// The only mutable state outside handles: the per-thread message.
thread_local std::string last_message;
// Part of the message: set when a failure's message could not be stored (no
// memory left for it), so that the caller still reads a message, not "".
thread_local bool message_lost = false;
}  // namespace

void clear_error() noexcept {
    last_message.clear();
    message_lost = false;
}

kindred_status set_error(kindred_status code, const char *message) noexcept {
    try {
        last_message = message;
    } catch (...) {
        message_lost = true;
    }
    return code;
}

const char *last_error() noexcept {
    return message_lost ? "out of memory: the message of this failure could not be stored" : last_message.c_str();
}

}  // namespace capi
}  // namespace kindred

#define KINDRED_STR2(x) #x
#define KINDRED_STR(x) KINDRED_STR2(x)

extern "C" {

const char *kindred_last_error(void) { return kindred::capi::last_error(); }

const char *kindred_status_string(kindred_status status) {
    // Switched on as an int: a caller may pass any value (a newer library's code).
    switch (static_cast<int>(status)) {
    case KINDRED_OK: return "ok";
    case KINDRED_E_INVALID: return "invalid argument";
    case KINDRED_E_DIMENSION: return "dimension mismatch";
    case KINDRED_E_INDEX: return "index out of range";
    case KINDRED_E_INFEASIBLE: return "infeasible constraints";
    case KINDRED_E_NOMEM: return "out of memory";
    case KINDRED_E_NUMERICAL: return "numerical failure";
    case KINDRED_E_CANCELLED: return "cancelled";
    case KINDRED_E_NOT_FOUND: return "not found";
    case KINDRED_E_STATE: return "wrong state";
    case KINDRED_E_IO: return "input/output error";
    case KINDRED_E_CORRUPT: return "corrupt file";
    case KINDRED_E_INTERNAL: return "internal error";
    case KINDRED_E_BUFFER_TOO_SMALL: return "buffer too small";
    default: return "unknown status";
    }
}

const char *kindred_version(void) {
    return KINDRED_STR(KINDRED_VERSION_MAJOR) "." KINDRED_STR(KINDRED_VERSION_MINOR) "." KINDRED_STR(KINDRED_VERSION_PATCH);
}

int kindred_version_number(void) { return KINDRED_VERSION_NUMBER; }

}  // extern "C"
