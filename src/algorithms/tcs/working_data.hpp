// What TCS-GM and TCS-VM share before any learning: the partial labels read
// into compact classes (with the bad-input checks of issue 5), and the data
// as one dense row-major working matrix, reduced by SVD when d is large
// (Gopal & Yang 2014, section 4.2: "on datasets with more than 200
// dimensions, we used SVD to fold the data into a 30 dimensional space").
#ifndef KINDRED_ALGORITHMS_TCS_WORKING_DATA_HPP
#define KINDRED_ALGORITHMS_TCS_WORKING_DATA_HPP

#include <cstdint>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "core/rng.hpp"

namespace kindred {
namespace tcs {

struct LabelledClasses {
    std::vector<int32_t> class_ids;  // the K distinct labels, ascending
    std::vector<int64_t> labelled;   // indices of the labelled points
    std::vector<int32_t> class_of;   // compact class (0..K-1) of each labelled point
    std::vector<int64_t> unlabelled; // indices of the other points
    int64_t k() const { return static_cast<int64_t>(class_ids.size()); }
};

// Reads SideInfo::partial_labels() (about all n_total points in a sharded fit). Errors: no partial labels, no labelled
// point, a single labelled class, a label >= n.
LabelledClasses read_partial_labels(const FitContext &ctx, const char *algorithm);

// Compact classes of a subset of labelled points (used to hold classes out).
LabelledClasses subset_classes(const LabelledClasses &all, const std::vector<int32_t> &keep_classes);

struct WorkingData {
    int64_t n = 0, d = 0;      // d after reduction
    std::vector<double> x;     // n x d row-major
    std::vector<double> basis; // original d x d (empty: no reduction)
    int64_t original_d = 0;
};

// Dense copy of the data, projected on its leading right singular vectors when
// d > svd_threshold (options "svd_threshold", "svd_dim"). Errors when svd_dim
// does not fit the data, or when d is too large to learn a full matrix, or
// (the SVD's sums are not chunk sums yet) when a sharded fit would reduce.
// In a sharded fit w holds this rank's rows.
WorkingData make_working_data(const FitContext &ctx, const char *algorithm);

// The labelled points alone: their rows in the order of cls.labelled, and
// their classes with `labelled` indexing those rows. Everything TCS learns
// from them (the transformation, gamma) reads only these. In a sharded fit
// every rank gets the rows of all labelled points from the ranks that hold
// them (Collective::rows) and learns from the very numbers of one process,
// the same bits on every rank without a sum over ranks; the cost is
// N_labelled x d values per rank (docs/algorithms/tcs.md, "On several ranks").
struct LabelledData {
    WorkingData w;
    LabelledClasses cls;
};
LabelledData labelled_data(const FitContext &ctx, const WorkingData &w, const LabelledClasses &cls);

// What a TCS fit reads before it learns: the ranks (one process: all the
// points), the partial labels, the working data, the number k of new clusters
// (checked against the unlabelled points) and the labelled points alone.
struct FitInputs {
    Collective ranks;
    LabelledClasses cls;
    WorkingData w;
    int64_t k = 0;
    LabelledData known;
};
FitInputs read_fit_inputs(const FitContext &ctx, const char *algorithm);

// Rows `rows` of the working matrix, row-major.
std::vector<double> gather_rows(const WorkingData &w, const std::vector<int64_t> &rows);

// Options shared by both algorithms (SVD reduction).
void append_reduction_options(OptionTable &t);

// New points in the working space of a fitted model ("svd_basis" if present).
std::vector<double> reduce_new_points(const FitResult &model, const DataView &data);

}  // namespace tcs
}  // namespace kindred

#endif
