// A small SVG writer for the pictures of `kindred plot` and `kindred eval
// --plot`: shapes in pixel coordinates, text escaped, one colour palette.
// The library has no plotting dependency; pictures are the program's job.
#ifndef KINDRED_CLI_SVG_DOCUMENT_HPP
#define KINDRED_CLI_SVG_DOCUMENT_HPP

#include <string>
#include <utility>
#include <vector>

namespace kindred_cli {

// Ten colours that stay apart for the colour-blind (Okabe-Ito, then Tol's
// muted scheme); cluster c gets palette()[c % 10]. Tests count them in the
// rendered image, so they are never blended (opacity 1).
const std::vector<std::string> &palette();

class SvgDocument {
public:
    SvgDocument(int width, int height);
    void circle(double x, double y, double r, const std::string &fill);
    void line(double x1, double y1, double x2, double y2, const std::string &stroke, double width,
              const std::string &dash = "");
    void polyline(const std::vector<std::pair<double, double>> &points, const std::string &stroke, double width);
    void rect(double x, double y, double w, double h, const std::string &fill, const std::string &stroke = "none");
    // anchor: "start", "middle" or "end"; rotate: degrees about (x, y).
    void text(double x, double y, const std::string &words, double size, const std::string &anchor = "start",
              double rotate = 0);
    std::string str() const;

private:
    int width_, height_;
    std::string body_;
};

// A linear map from data values [lo, hi] to pixels [from, to], with round tick values.
struct Scale {
    double lo, hi, from, to;
    double operator()(double v) const { return hi > lo ? from + (v - lo) / (hi - lo) * (to - from) : (from + to) / 2; }
    // About `count` round values (1, 2 or 5 times a power of ten) within [lo, hi].
    std::vector<double> ticks(int count) const;
};

// [lo, hi] of the values widened by `margin` of its length on each side
// (a single value gets a unit range), so that no mark sits on the frame.
Scale scale_of(const std::vector<double> &values, double from, double to, double margin);

// Draws the frame, the ticks with their values and the two axis titles of a
// plot area whose scales are x (left to right) and y (bottom to top).
void draw_axes(SvgDocument &svg, const Scale &x, const Scale &y, const std::string &x_title,
               const std::string &y_title);

// A number as a tick label: at most 4 significant digits, no trailing zeros.
std::string tick_text(double v);

}  // namespace kindred_cli

#endif
