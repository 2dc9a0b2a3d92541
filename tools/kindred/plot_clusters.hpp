// The picture of a clustering: points on two axes (principal components or
// two columns), coloured by cluster, with the must-links and cannot-links the
// clustering violates drawn between their points.
#ifndef KINDRED_CLI_PLOT_CLUSTERS_HPP
#define KINDRED_CLI_PLOT_CLUSTERS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "side_files.hpp"

namespace kindred_cli {

struct ClusterPicture {
    std::string title, x_title, y_title;
    std::vector<double> x, y;      // one position per point
    std::vector<int32_t> labels;   // cluster of each point (< 0: none, drawn grey)
    PairList pairs;                // the pairs to check; only violated ones are drawn
};

struct Violations {
    int64_t must = 0, cannot = 0;  // violated must-links / cannot-links
};

// The SVG document; `violations` receives the counts drawn.
std::string clusters_svg(const ClusterPicture &picture, Violations &violations);

}  // namespace kindred_cli

#endif
