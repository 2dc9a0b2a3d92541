// The list of algorithms. Adding an algorithm = one file under
// src/algorithms/ defining `const AlgorithmSpec &NAME_spec()` and one line
// in registry.cpp.
#ifndef KINDRED_ALGORITHMS_REGISTRY_HPP
#define KINDRED_ALGORITHMS_REGISTRY_HPP

#include <string>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace kindred {

const std::vector<const AlgorithmSpec *> &all_algorithms();
// nullptr when no algorithm has that name.
const AlgorithmSpec *find_algorithm(const std::string &name);
// Throws KINDRED_E_NOT_FOUND listing the names.
const AlgorithmSpec &get_algorithm(const std::string &name);

}  // namespace kindred

#endif
