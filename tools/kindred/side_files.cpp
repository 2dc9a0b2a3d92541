#include "side_files.hpp"

#include <vector>

#include "cli_error.hpp"
#include "csv_dialect.hpp"
#include "csv_fields.hpp"
#include "text_file.hpp"

namespace kindred_cli {

namespace {

// Rows of a small CSV with a fixed number of columns; the header is optional.
struct CsvRows {
    std::vector<std::vector<std::string>> cells;
    std::vector<int64_t> line;  // line number of each row
};

// Whether a cell names a point of `data` (its ID, or a row number).
bool is_point(const std::string &cell, const Dataset &data) {
    if (data.has_ids()) return data.row_of_id.count(cell) > 0;
    double ignored = 0;
    return parse_finite_double(cell, ignored);
}

CsvRows read_rows(const std::string &path, size_t columns, const char *expected_header, const Dataset &data) {
    const std::string text = read_text_file(path);
    const char delimiter = detect_delimiter(text);
    LineCursor lines(text);
    std::string line;
    CsvRows rows;
    bool first = true;
    while (lines.next_nonblank(line)) {
        const std::string where = at(path, lines.line_number());
        std::vector<std::string> cells = split_csv_line(line, where, delimiter);
        if (cells.size() != columns)
            runtime_error(where, ": ", cells.size(), " cells, expected ", columns, " (", expected_header, ")");
        if (first && !is_point(cells[0], data)) {  // a header row
            first = false;
            continue;
        }
        first = false;
        rows.cells.push_back(std::move(cells));
        rows.line.push_back(lines.line_number());
    }
    if (rows.cells.empty()) runtime_error(path, ": empty file (expected rows ", expected_header, ")");
    return rows;
}

int64_t point_index(const std::string &cell, const Dataset &data, const std::string &path, int64_t line, int64_t col) {
    const int64_t n = data.n;
    if (data.has_ids()) {
        const auto found = data.row_of_id.find(cell);
        if (found == data.row_of_id.end())
            runtime_error(at(path, line, col), ": unknown ID '", cell, "' (not in column '", data.id_column, "' of ", data.source, ")");
        return found->second;
    }
    int64_t v = 0;
    if (!parse_integer(cell, v)) runtime_error(at(path, line, col), ": '", cell, "' is not a point index (0-based integer)");
    if (v < 0 || v >= n) runtime_error(at(path, line, col), ": point index ", v, " out of range for n = ", n);
    return v;
}

void add_pairs(kindred_side *side, const std::string &path, const Dataset &data) {
    const PairList p = read_pairs_csv(path, data);
    check(kindred_side_add_pairs(side, p.i.data(), p.j.data(), p.value.data(), static_cast<int64_t>(p.i.size())), path);
}

int32_t triplet_answer(const std::string &cell, const std::string &path, int64_t line) {
    if (cell == "yes" || cell == "1" || cell == "+1") return 1;
    if (cell == "no" || cell == "-1") return -1;
    if (cell == "dnk" || cell == "0") return 0;
    runtime_error(at(path, line, 4), ": answer '", cell, "' must be yes, no, dnk (or 1, -1, 0)");
}

void add_triplets(kindred_side *side, const std::string &path, const Dataset &data) {
    const CsvRows rows = read_rows(path, 4, "a,b,c,answer", data);
    std::vector<int64_t> a, b, c;
    std::vector<int32_t> answer;
    for (size_t r = 0; r < rows.cells.size(); ++r) {
        const auto &cells = rows.cells[r];
        const int64_t line = rows.line[r];
        a.push_back(point_index(cells[0], data, path, line, 1));
        b.push_back(point_index(cells[1], data, path, line, 2));
        c.push_back(point_index(cells[2], data, path, line, 3));
        if (a.back() == b.back() || a.back() == c.back() || b.back() == c.back())
            runtime_error(at(path, line), ": a triplet needs three different points");
        answer.push_back(triplet_answer(cells[3], path, line));
    }
    check(kindred_side_add_triplets(side, a.data(), b.data(), c.data(), answer.data(), static_cast<int64_t>(a.size())), path);
}

// `ID,label` rows for the labelled points only; label words get ids by first appearance.
void set_partial_labels_by_id(kindred_side *side, const std::string &path, const Dataset &data) {
    const CsvRows rows = read_rows(path, 2, "ID,label", data);
    std::vector<int32_t> labels(static_cast<size_t>(data.n), -1);
    LabelCoder coder;
    for (size_t r = 0; r < rows.cells.size(); ++r) {
        const auto &c = rows.cells[r];
        const int64_t point = point_index(c[0], data, path, rows.line[r], 1);
        if (c[1].empty() || c[1] == "-1") continue;
        if (labels[static_cast<size_t>(point)] >= 0)
            runtime_error(at(path, rows.line[r], 1), ": ID '", c[0], "' is labelled twice");
        labels[static_cast<size_t>(point)] = coder.id(c[1]);
    }
    check(kindred_side_set_partial_labels(side, labels.data(), data.n), path);
}

void set_partial_labels(kindred_side *side, const std::string &path, int64_t n) {
    const std::string text = read_text_file(path);
    LineCursor lines(text);
    std::string line;
    if (!lines.next_nonblank(line)) runtime_error(path, ": empty file (expected a header `label` and one row per point)");
    const std::vector<std::string> header = split_csv_line(line, at(path, lines.line_number()));
    if (header.size() != 1 || header[0] != "label")
        runtime_error(at(path, lines.line_number()), ": the header must be the one column `label`");
    std::vector<int32_t> labels;
    size_t trailing_blank = 0;  // blank lines at the end so far: a final newline or two, not points
    // Blank lines are unknown labels here (an empty cell is allowed), so read every line.
    while (lines.next(line)) {
        trailing_blank = line.empty() ? trailing_blank + 1 : 0;
        const std::string where = at(path, lines.line_number());
        const std::vector<std::string> cells = split_csv_line(line, where);
        if (cells.size() != 1) runtime_error(where, ": ", cells.size(), " cells, expected 1 (label)");
        int64_t v = -1;
        if (!cells[0].empty() && (!parse_integer(cells[0], v) || v < -1 || v > INT32_MAX))
            runtime_error(at(path, lines.line_number(), 1), ": label '", cells[0], "' must be an integer >= 0, or -1 / empty for unknown");
        labels.push_back(static_cast<int32_t>(v));
    }
    // A final newline leaves no extra line; trailing blank lines beyond n are tolerated, but a -1
    // written beyond n is a row for a point the data does not have (a file made for other data).
    const size_t rows = labels.size();
    if (rows > static_cast<size_t>(n) && rows - trailing_blank <= static_cast<size_t>(n)) labels.resize(static_cast<size_t>(n));
    if (static_cast<int64_t>(labels.size()) != n)
        runtime_error(path, ": ", rows > static_cast<size_t>(n) ? rows - trailing_blank : rows, " labels, but the data has ", n,
                      " points");
    check(kindred_side_set_partial_labels(side, labels.data(), n), path);
}

}  // namespace

PairList read_pairs_csv(const std::string &path, const Dataset &data) {
    const CsvRows rows = read_rows(path, 3, "i,j,value", data);
    PairList p;
    for (size_t r = 0; r < rows.cells.size(); ++r) {
        const auto &c = rows.cells[r];
        const int64_t line = rows.line[r];
        p.i.push_back(point_index(c[0], data, path, line, 1));
        p.j.push_back(point_index(c[1], data, path, line, 2));
        if (p.i.back() == p.j.back()) runtime_error(at(path, line), ": a pair needs two different points (i = j = ", c[0], ")");
        double v = 0;
        if (!parse_finite_double(c[2], v))
            runtime_error(at(path, line, 3), ": value '", c[2], "' is not a finite number (> 0 must-link, < 0 cannot-link)");
        p.value.push_back(v);
    }
    return p;
}

SidePtr read_side_files(const SideFiles &files, const Dataset &data) {
    SidePtr side = new_side(data.n);
    if (!files.pairs.empty()) add_pairs(side.get(), files.pairs, data);
    if (!files.triplets.empty()) add_triplets(side.get(), files.triplets, data);
    if (!files.partial_labels.empty()) {
        if (data.has_ids()) set_partial_labels_by_id(side.get(), files.partial_labels, data);
        else set_partial_labels(side.get(), files.partial_labels, data.n);
    }
    return side;
}

PairList side_pairs(const kindred_side *side) {
    int64_t count = 0;
    check(kindred_side_counts(side, nullptr, &count, nullptr, nullptr), "side information");
    PairList p;
    p.i.resize(static_cast<size_t>(count));
    p.j.resize(static_cast<size_t>(count));
    p.value.resize(static_cast<size_t>(count));
    if (count > 0) check(kindred_side_pairs(side, p.i.data(), p.j.data(), p.value.data(), count), "side information");
    return p;
}

std::string pair_row(const Dataset &data, int64_t i, int64_t j, double value) {
    return text(csv_cell(data.point_name(i)), ",", csv_cell(data.point_name(j)), ",", value, "\n");
}

void write_pairs_csv(const std::string &path, const kindred_side *side, const Dataset *names) {
    const PairList p = side_pairs(side);
    std::string out = "i,j,value\n";
    for (size_t k = 0; k < p.i.size(); ++k)
        out += names ? pair_row(*names, p.i[k], p.j[k], p.value[k]) : text(p.i[k], ",", p.j[k], ",", p.value[k], "\n");
    write_text_file(path, out);
}

void write_triplets_csv(const std::string &path, const kindred_side *side, const Dataset *names) {
    int64_t count = 0;
    check(kindred_side_counts(side, nullptr, nullptr, &count, nullptr), "side information");
    std::vector<int64_t> a(static_cast<size_t>(count)), b(static_cast<size_t>(count)), c(static_cast<size_t>(count));
    std::vector<int32_t> answer(static_cast<size_t>(count));
    if (count > 0)
        check(kindred_side_triplets(side, a.data(), b.data(), c.data(), answer.data(), count), "side information");
    std::string out = "a,b,c,answer\n";
    for (int64_t k = 0; k < count; ++k) {
        if (names)
            out += text(csv_cell(names->point_name(a[k])), ",", csv_cell(names->point_name(b[k])), ",",
                        csv_cell(names->point_name(c[k])), ",", answer[k], "\n");
        else
            out += text(a[k], ",", b[k], ",", c[k], ",", answer[k], "\n");
    }
    write_text_file(path, out);
}

}  // namespace kindred_cli
