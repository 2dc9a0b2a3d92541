#include "plot_curve.hpp"

#include <algorithm>

#include "svg_document.hpp"

namespace kindred_cli {

const char *const kCurveMeasures[3] = {"NMI", "ARI", "F-measure"};

namespace {

constexpr int kPanelWidth = 300, kHeight = 360, kLegendHeight = 22;
constexpr double kLeft = 62, kRight = 16, kTop = 50, kBottom = 70;

}  // namespace

std::string curve_svg(const CurvePicture &p) {
    const int legend_rows = static_cast<int>(p.lines.size());
    SvgDocument svg(3 * kPanelWidth, kHeight + kLegendHeight * legend_rows);
    svg.text(kLeft, 22, p.title, 14);
    std::vector<double> counts(p.counts.begin(), p.counts.end());
    for (int m = 0; m < 3; ++m) {
        const double origin = m * kPanelWidth;
        std::vector<double> values;
        for (const CurveLine &l : p.lines)
            for (size_t k = 0; k < p.counts.size(); ++k) {
                values.push_back(l.mean[m][k] - l.std[m][k]);
                values.push_back(l.mean[m][k] + l.std[m][k]);
            }
        values.push_back(0.0);  // quality from 0 (ARI may go below)
        values.push_back(1.0);
        const Scale x = scale_of(counts, origin + kLeft, origin + kPanelWidth - kRight, 0.05);
        const Scale y = scale_of(values, kHeight - kBottom, kTop, 0.02);
        draw_axes(svg, x, y, p.x_title, kCurveMeasures[m]);
        for (size_t a = 0; a < p.lines.size(); ++a) {
            const std::string &colour = palette()[a % palette().size()];
            const CurveLine &l = p.lines[a];
            std::vector<std::pair<double, double>> points;
            for (size_t k = 0; k < p.counts.size(); ++k) {
                const double px = x(counts[k]), py = y(l.mean[m][k]);
                points.emplace_back(px, py);
                if (l.std[m][k] > 0) {
                    const double lo = y(l.mean[m][k] - l.std[m][k]), hi = y(l.mean[m][k] + l.std[m][k]);
                    svg.line(px, lo, px, hi, colour, 1.5);
                    svg.line(px - 4, lo, px + 4, lo, colour, 1.5);
                    svg.line(px - 4, hi, px + 4, hi, colour, 1.5);
                }
            }
            svg.polyline(points, colour, 2.5);
            for (const auto &pt : points) svg.circle(pt.first, pt.second, 4, colour);
        }
    }
    for (size_t a = 0; a < p.lines.size(); ++a) {
        const double row = kHeight + kLegendHeight * static_cast<double>(a) + 4;
        svg.line(kLeft, row - 4, kLeft + 30, row - 4, palette()[a % palette().size()], 2.5);
        svg.text(kLeft + 38, row, p.lines[a].algorithm, 12);
    }
    return svg.str();
}

}  // namespace kindred_cli
