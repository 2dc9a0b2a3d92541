#include "algorithms/registry.hpp"

#include "core/error.hpp"

namespace kindred {

const AlgorithmSpec &kmeans_spec();
const AlgorithmSpec &dpmeans_spec();
const AlgorithmSpec &gmm_spec();
const AlgorithmSpec &copkmeans_spec();
const AlgorithmSpec &pckmeans_spec();
const AlgorithmSpec &mpckmeans_spec();
const AlgorithmSpec &tcs_gm_spec();
const AlgorithmSpec &tcs_vmf_spec();
const AlgorithmSpec &dcrc_spec();
const AlgorithmSpec &rdpmeans_spec();
const AlgorithmSpec &tvclust_spec();

const std::vector<const AlgorithmSpec *> &all_algorithms() {
    static const std::vector<const AlgorithmSpec *> list = {
        &kmeans_spec(),
        &dpmeans_spec(),
        &gmm_spec(),
        &copkmeans_spec(),
        &pckmeans_spec(),
        &mpckmeans_spec(),
        &tcs_gm_spec(),
        &tcs_vmf_spec(),
        &dcrc_spec(),
        &rdpmeans_spec(),
        &tvclust_spec(),
    };
    return list;
}

const AlgorithmSpec *find_algorithm(const std::string &name) {
    for (const AlgorithmSpec *a : all_algorithms())
        if (a->name == name) return a;
    return nullptr;
}

const AlgorithmSpec &get_algorithm(const std::string &name) {
    if (const AlgorithmSpec *a = find_algorithm(name)) return *a;
    std::string names;
    for (const AlgorithmSpec *a : all_algorithms()) names += (names.empty() ? "" : ", ") + a->name;
    fail(KINDRED_E_NOT_FOUND, "unknown algorithm '", name, "'; known: ", names);
}

}  // namespace kindred
