// Errors inside the C++ core: one small hierarchy carrying a kindred_status.
// The C boundary (src/capi/guard.hpp) turns them into status codes and the
// thread-local message; nothing else catches them.
#ifndef KINDRED_CORE_ERROR_HPP
#define KINDRED_CORE_ERROR_HPP

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "kindred.h"

namespace kindred {

class Error : public std::runtime_error {
public:
    Error(kindred_status code, const std::string &message)
        : std::runtime_error(message), code_(code) {}
    kindred_status code() const noexcept { return code_; }

private:
    kindred_status code_;
};

// Concatenates its arguments with operator<< (numbers in full precision).
template <typename... Args>
std::string cat(Args &&...args) {
    std::ostringstream out;
    out.precision(17);
    (out << ... << std::forward<Args>(args));
    return out.str();
}

template <typename... Args>
[[noreturn]] void fail(kindred_status code, Args &&...args) {
    throw Error(code, cat(std::forward<Args>(args)...));
}

}  // namespace kindred

#endif
