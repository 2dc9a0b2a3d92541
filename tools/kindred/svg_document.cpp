#include "svg_document.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kindred_cli {

namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string escaped(const std::string &s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default:
            // Control characters are not allowed in XML 1.0.
            if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') out += c;
        }
    }
    return out;
}

}  // namespace

const std::vector<std::string> &palette() {
    // No black or grey: text and axes use those.
    static const std::vector<std::string> colours = {"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9",
                                                     "#d55e00", "#f0e442", "#882255", "#44aa99", "#999933"};
    return colours;
}

SvgDocument::SvgDocument(int width, int height) : width_(width), height_(height) {}

void SvgDocument::circle(double x, double y, double r, const std::string &fill) {
    body_ += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(r) + "\" fill=\"" + fill + "\"/>\n";
}

void SvgDocument::line(double x1, double y1, double x2, double y2, const std::string &stroke, double width,
                       const std::string &dash) {
    body_ += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) +
             "\" stroke=\"" + stroke + "\" stroke-width=\"" + num(width) + "\"" +
             (dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"") + "/>\n";
}

void SvgDocument::polyline(const std::vector<std::pair<double, double>> &points, const std::string &stroke,
                           double width) {
    body_ += "<polyline fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"" + num(width) + "\" points=\"";
    for (const auto &p : points) body_ += num(p.first) + "," + num(p.second) + " ";
    body_ += "\"/>\n";
}

void SvgDocument::rect(double x, double y, double w, double h, const std::string &fill, const std::string &stroke) {
    body_ += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) +
             "\" fill=\"" + fill + "\" stroke=\"" + stroke + "\"/>\n";
}

void SvgDocument::text(double x, double y, const std::string &words, double size, const std::string &anchor,
                       double rotate) {
    body_ += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + num(size) + "\" text-anchor=\"" + anchor +
             "\"" + (rotate != 0 ? " transform=\"rotate(" + num(rotate) + " " + num(x) + " " + num(y) + ")\"" : "") +
             ">" + escaped(words) + "</text>\n";
}

std::string SvgDocument::str() const {
    const std::string w = std::to_string(width_), h = std::to_string(height_);
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
           "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n" + body_ + "</svg>\n";
}

std::vector<double> Scale::ticks(int count) const {
    std::vector<double> out;
    if (!(hi > lo) || count < 1) return out;
    const double raw = (hi - lo) / count;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = power;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * power >= raw) {
            step = m * power;
            break;
        }
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
    return out;
}

Scale scale_of(const std::vector<double> &values, double from, double to, double margin) {
    double lo = 0, hi = 1;
    if (!values.empty()) {
        const auto mm = std::minmax_element(values.begin(), values.end());
        lo = *mm.first;
        hi = *mm.second;
    }
    if (!(hi > lo)) {
        lo -= 0.5;
        hi += 0.5;
    }
    const double pad = (hi - lo) * margin;
    return Scale{lo - pad, hi + pad, from, to};
}

std::string tick_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

void draw_axes(SvgDocument &svg, const Scale &x, const Scale &y, const std::string &x_title,
               const std::string &y_title) {
    const std::string axis = "#444444";
    svg.rect(x.from, y.to, x.to - x.from, y.from - y.to, "none", axis);
    for (double v : x.ticks(5)) {
        svg.line(x(v), y.from, x(v), y.from + 4, axis, 1);
        svg.text(x(v), y.from + 16, tick_text(v), 11, "middle");
    }
    for (double v : y.ticks(5)) {
        svg.line(x.from - 4, y(v), x.from, y(v), axis, 1);
        svg.text(x.from - 7, y(v) + 4, tick_text(v), 11, "end");
    }
    svg.text((x.from + x.to) / 2, y.from + 34, x_title, 12, "middle");
    svg.text(x.from - 44, (y.from + y.to) / 2, y_title, 12, "middle", -90);
}

}  // namespace kindred_cli
