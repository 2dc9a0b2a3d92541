// The picture of quality against the number of constraints: one panel per
// measure (NMI, ARI, F-measure), one line per algorithm, the mean over
// repeats with error bars of one standard deviation.
#ifndef KINDRED_CLI_PLOT_CURVE_HPP
#define KINDRED_CLI_PLOT_CURVE_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace kindred_cli {

struct CurveLine {
    std::string algorithm;
    // [measure][point]: measure 0 NMI, 1 ARI, 2 F-measure; one point per count.
    std::vector<std::vector<double>> mean, std;
};

struct CurvePicture {
    std::string title, x_title;
    std::vector<int64_t> counts;
    std::vector<CurveLine> lines;
};

extern const char *const kCurveMeasures[3];

std::string curve_svg(const CurvePicture &picture);

}  // namespace kindred_cli

#endif
