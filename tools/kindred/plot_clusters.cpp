#include "plot_clusters.hpp"

#include <algorithm>
#include <set>

#include "svg_document.hpp"

namespace kindred_cli {

namespace {

constexpr int kWidth = 780, kHeight = 540;
constexpr double kLeft = 70, kRight = 560, kTop = 40, kBottom = 480;  // the plot area; the legend is to its right
const char *const kLinkColour = "#222222";
const char *const kNoCluster = "#bbbbbb";

}  // namespace

std::string clusters_svg(const ClusterPicture &p, Violations &violations) {
    SvgDocument svg(kWidth, kHeight);
    const Scale x = scale_of(p.x, kLeft, kRight, 0.04);
    const Scale y = scale_of(p.y, kBottom, kTop, 0.04);
    svg.text(kLeft, kTop - 14, p.title, 14);
    draw_axes(svg, x, y, p.x_title, p.y_title);

    // Links first, so that the points stay visible on top of them.
    violations = Violations{};
    for (size_t k = 0; k < p.pairs.i.size(); ++k) {
        const int64_t a = p.pairs.i[k], b = p.pairs.j[k];
        const bool same = p.labels[a] == p.labels[b] && p.labels[a] >= 0;
        const bool must = p.pairs.value[k] > 0;
        if (must == same || p.pairs.value[k] == 0) continue;  // respected
        ++(must ? violations.must : violations.cannot);
        svg.line(x(p.x[a]), y(p.y[a]), x(p.x[b]), y(p.y[b]), kLinkColour, 1.2, must ? "" : "5,3");
    }
    std::set<int32_t> clusters;
    for (size_t i = 0; i < p.x.size(); ++i) {
        const int32_t c = p.labels[i];
        clusters.insert(c);
        svg.circle(x(p.x[i]), y(p.y[i]), 3.5, c < 0 ? kNoCluster : palette()[static_cast<size_t>(c) % palette().size()]);
    }

    double row = kTop + 10;
    for (int32_t c : clusters) {
        if (row > kBottom - 60) {
            svg.text(kRight + 20, row, "...", 12);
            break;
        }
        svg.circle(kRight + 26, row - 4, 5, c < 0 ? kNoCluster : palette()[static_cast<size_t>(c) % palette().size()]);
        svg.text(kRight + 38, row, c < 0 ? std::string("no cluster") : "cluster " + std::to_string(c), 12);
        row += 18;
    }
    if (!p.pairs.i.empty()) {
        row += 10;
        svg.line(kRight + 18, row - 4, kRight + 36, row - 4, kLinkColour, 1.2);
        svg.text(kRight + 40, row, "must-link broken (" + std::to_string(violations.must) + ")", 11);
        row += 18;
        svg.line(kRight + 18, row - 4, kRight + 36, row - 4, kLinkColour, 1.2, "5,3");
        svg.text(kRight + 40, row, "cannot-link broken (" + std::to_string(violations.cannot) + ")", 11);
    }
    return svg.str();
}

}  // namespace kindred_cli
