// The options that pckmeans and mpckmeans share for constraint propagation
// (unit_driver.cpp), the unit of the constraint weight and the whitening of
// the points by the must-links (algorithms/relevant_components.hpp), declared once.
#include "algorithms/mpckmeans/hmrf.hpp"
#include "algorithms/relevant_components.hpp"

namespace kindred {
namespace hmrf {

void append_propagation_options(OptionTable &t) {
    t.push_back(OptionSpec::choice(
        "propagation", "auto", "auto|robust|transitive|off",
        "must-links are transitive and cannot-links separate whole groups, throughout the fit: robust (groups grown "
        "from the answers that agree most), transitive (the must-link closure), off (the paper's point-wise HMRF, "
        "pairs as given), or auto (robust or off, chosen by cross-validation over the pairs; off when a pair "
        "contradicts the robust units, i.e. some answers are wrong; robust below 10 pairs)"));
    t.push_back(OptionSpec::restarts(10,
                                    "restarts (the first from the must-link neighbourhoods as in the paper, the "
                                    "others k-means++); the lowest objective is kept; 1 = the paper's single start"));
    t.push_back(OptionSpec::choice("weight_unit", "spread", "spread|absolute",
                                   "unit of the constraint weight: the mean distortion of a point to the global "
                                   "centroid (the same default fits raw and standardised data), or absolute (the "
                                   "papers' units of distortion)"));
    t.push_back(whitening_option());
    t.push_back(OptionSpec::integer(
        "cleaning_rounds", 1, 0, 10,
        "point-wise fits (propagation off, or chosen by the tuning: a sign of wrong answers): while the fit violates "
        "some pairs (answers that the features and the other answers outvote), refit up to this many times on the "
        "pairs the last fit satisfies, the tuned weight and distortion kept; 0: the answers as given (the papers)"));
}

void read_propagation_options(const OptionValues &o, Config &cfg, bool &tune_propagation) {
    const std::string mode = o.get_choice("propagation");
    tune_propagation = mode == "auto";
    cfg.propagate = mode != "off";
    cfg.propagation = mode == "transitive" ? Propagation::Transitive : Propagation::Robust;
    cfg.n_init = o.get_int("n_init");
    cfg.relative_weight = o.get_choice("weight_unit") == "spread";
    cfg.whiten = o.get_choice("whitening") == "rca";
    cfg.cleaning_rounds = o.get_int("cleaning_rounds");
}

}  // namespace hmrf
}  // namespace kindred
