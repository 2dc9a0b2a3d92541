// Owning wrappers for the library's handles, so that every exit path frees them.
#ifndef KINDRED_CLI_HANDLES_HPP
#define KINDRED_CLI_HANDLES_HPP

#include <memory>
#include <string>

#include "cli_error.hpp"
#include "kindred.h"

namespace kindred_cli {

struct ModelDeleter {
    void operator()(kindred_model *m) const { kindred_model_free(m); }
};
struct SideDeleter {
    void operator()(kindred_side *s) const { kindred_side_free(s); }
};
using ModelPtr = std::unique_ptr<kindred_model, ModelDeleter>;
struct ActiveOptionsDeleter {
    void operator()(kindred_active_options *o) const { kindred_active_options_free(o); }
};
using SidePtr = std::unique_ptr<kindred_side, SideDeleter>;
using ActiveOptionsPtr = std::unique_ptr<kindred_active_options, ActiveOptionsDeleter>;

inline ModelPtr new_model(const std::string &algorithm) {
    kindred_model *m = nullptr;
    const kindred_status s = kindred_model_new(&m, algorithm.c_str());
    if (s == KINDRED_E_NOT_FOUND) usage_error(kindred_last_error(), " (see `kindred algorithms`)");
    check(s, "cannot create a " + algorithm + " model");
    return ModelPtr(m);
}

inline SidePtr new_side(int64_t n) {
    kindred_side *s = nullptr;
    check(kindred_side_new(&s, n), "cannot create side information");
    return SidePtr(s);
}

}  // namespace kindred_cli

#endif
