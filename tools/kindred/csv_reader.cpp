#include "csv_reader.hpp"

#include <cctype>
#include <cstring>
#include <iostream>
#include <string_view>

#include "cli_error.hpp"
#include "csv_dialect.hpp"
#include "csv_fields.hpp"
#include "read_progress.hpp"

namespace kindred_cli {

namespace {

// Lines of the text as views, numbered from 1; the terminator (LF or CRLF) is not part of a line.
class LineViews {
public:
    explicit LineViews(const std::string &text) : p_(text.data()), end_(text.data() + text.size()) {}
    bool next_nonblank(std::string_view &line) {
        while (p_ < end_) {
            const char *nl = static_cast<const char *>(std::memchr(p_, '\n', static_cast<size_t>(end_ - p_)));
            const char *stop = nl ? nl : end_;
            const char *b = p_;
            p_ = nl ? nl + 1 : end_;
            ++line_number_;
            if (stop > b && stop[-1] == '\r') --stop;
            line = std::string_view(b, static_cast<size_t>(stop - b));
            if (line.find_first_not_of(" \t") != std::string_view::npos) return true;
        }
        return false;
    }
    int64_t line_number() const { return line_number_; }
    const char *position() const { return p_; }

private:
    const char *p_, *end_;
    int64_t line_number_ = 0;
};

std::string_view trimmed(const char *b, const char *e) {
    while (b < e && (*b == ' ' || *b == '\t')) ++b;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t')) --e;
    return std::string_view(b, static_cast<size_t>(e - b));
}

// The cells of a line as views. A line with a quote goes through
// split_csv_line (quotes, doubled quotes); its cells are kept in `store`.
void split_cells(std::string_view line, char delimiter, const std::string &where, std::vector<std::string_view> &cells,
                 std::vector<std::string> &store) {
    cells.clear();
    if (line.find('"') != std::string_view::npos) {
        store = split_csv_line(std::string(line), where, delimiter);
        for (const std::string &s : store) cells.emplace_back(s);
        return;
    }
    const char *b = line.data(), *e = line.data() + line.size();
    for (;;) {
        const char *d = static_cast<const char *>(std::memchr(b, delimiter, static_cast<size_t>(e - b)));
        cells.push_back(trimmed(b, d ? d : e));
        if (!d) return;
        b = d + 1;
    }
}

enum Role { kFeature, kLabel, kId, kLeftOut };

int64_t find_column(const std::vector<std::string> &names, const std::string &name) {
    for (size_t c = 0; c < names.size(); ++c)
        if (names[c] == name) return static_cast<int64_t>(c);
    return -1;
}

std::string listed(const std::vector<std::string> &names) {
    std::string out;
    for (size_t c = 0; c < names.size() && c < 12; ++c) out += (c ? ", " : "") + names[c];
    if (names.size() > 12) out += ", ...";
    return out;
}

// Usage error for a column named by a flag that the file does not have.
[[noreturn]] void unknown_column(const CsvRequest &r, const char *flag, const std::string &name, bool header,
                                 const std::vector<std::string> &names) {
    usage_error(r.source, ": ", flag, " ", name, ": no such column (", header ? "columns: " : "no header row; columns are numbered: ",
                listed(names), ")");
}

std::vector<Role> column_roles(const CsvRequest &r, const std::vector<std::string> &names, bool header,
                               int64_t &label_at) {
    std::vector<Role> roles(names.size(), r.columns.empty() ? kFeature : kLeftOut);
    for (const std::string &name : r.columns) {
        const int64_t c = find_column(names, name);
        if (c < 0) unknown_column(r, "--columns", name, header, names);
        roles[static_cast<size_t>(c)] = kFeature;
    }
    for (const std::string &name : r.drop) {
        const int64_t c = find_column(names, name);
        if (c < 0) unknown_column(r, "--drop", name, header, names);
        roles[static_cast<size_t>(c)] = kLeftOut;
    }
    label_at = -1;
    for (size_t c = 0; c < names.size(); ++c) {
        if (names[c] != r.label_column) continue;
        if (label_at >= 0) runtime_error(at(r.source, 1, static_cast<int64_t>(c) + 1), ": column '", r.label_column, "' appears twice");
        label_at = static_cast<int64_t>(c);
        roles[c] = kLabel;
    }
    if (label_at < 0 && r.label_column_required) {
        if (!header)
            runtime_error(r.source, ": no column named '", r.label_column, "': the file has no header row, so its columns are numbered 1..",
                          names.size(), " (e.g. --label-column ", names.size(), ")");
        runtime_error(r.source, ": no column named '", r.label_column, "' in the header");
    }
    if (!r.id_column.empty()) {
        const int64_t c = find_column(names, r.id_column);
        if (c < 0) unknown_column(r, "--id-column", r.id_column, header, names);
        if (c == label_at) usage_error("--id-column ", r.id_column, " is also the label column");
        roles[static_cast<size_t>(c)] = kId;
    }
    return roles;
}

[[noreturn]] void not_a_number(const CsvRequest &r, int64_t line, int64_t col, const std::string &name, std::string_view cell,
                               char delimiter) {
    const std::string where = at(r.source, line, col);
    if (cell.empty()) runtime_error(where, ": empty cell in column '", name, "'");
    // Two mistakes look alike here: a wrong delimiter (a whole line in one
    // cell) and decimal commas in a semicolon file.
    std::string hint;
    const size_t other = cell.find_first_of(",;\t");
    if (other != std::string_view::npos) {
        const bool decimal_comma = delimiter == ';' && cell[other] == ',' && other > 0 && std::isdigit(static_cast<unsigned char>(cell[other - 1])) &&
                                   other + 1 < cell.size() && std::isdigit(static_cast<unsigned char>(cell[other + 1]));
        hint = decimal_comma ? " (a decimal comma? numbers are read with a decimal point)"
                             : text(" (the cells are split at each ", delimiter_name(delimiter), "; --delimiter sets another)");
    }
    runtime_error(where, ": column '", name, "' is not numeric ('", std::string(cell), "')", hint,
                  "; leave it out with --drop ", name, ", or name it with --id-column ", name,
                  " (the names of the points) or --label-column ", name, " (the ground truth)");
}

}  // namespace

Dataset parse_csv_data(const std::string &csv, const CsvRequest &r) {
    Dataset data;
    data.source = r.source;
    const char delimiter = r.delimiter ? r.delimiter : detect_delimiter(csv);
    LineViews lines(csv);
    std::string_view line;
    std::vector<std::string_view> cells;
    std::vector<std::string> store;
    if (!lines.next_nonblank(line)) runtime_error(r.source, ": empty file (a header row and data rows are expected)");
    const int64_t first_line = lines.line_number();
    std::vector<std::string> first = split_csv_line(std::string(line), at(r.source, first_line), delimiter);

    bool header = false;
    if (!r.no_header) {
        LineViews peek = lines;
        std::string_view second_line;
        if (peek.next_nonblank(second_line)) {
            const std::vector<std::string> second = split_csv_line(std::string(second_line), at(r.source, peek.line_number()), delimiter);
            header = looks_like_header(first, &second);
        } else {
            header = looks_like_header(first, nullptr);
        }
    }
    std::vector<std::string> names;
    if (header) {
        names = first;
        for (size_t c = 0; c < names.size(); ++c)
            if (names[c].empty()) runtime_error(at(r.source, first_line, static_cast<int64_t>(c) + 1), ": empty column name in the header");
    } else {
        for (size_t c = 0; c < first.size(); ++c) names.push_back(std::to_string(c + 1));
        if (!r.no_header)
            std::cerr << "kindred: note: " << r.source << " has no header row (its first row is a point); "
                      << (names.size() == 1 ? std::string("its column is numbered 1")
                                            : text("its ", names.size(), " columns are numbered 1..", names.size()))
                      << "\n";
    }
    int64_t label_at = -1;
    const std::vector<Role> roles = column_roles(r, names, header, label_at);
    for (size_t c = 0; c < names.size(); ++c)
        if (roles[c] == kFeature) data.columns.push_back(names[c]);
    data.d = static_cast<int64_t>(data.columns.size());
    if (data.d == 0) runtime_error(r.source, ": no feature columns (every column is the label, the ID or left out)");
    if (!r.id_column.empty()) data.id_column = r.id_column;
    std::vector<size_t> shown_at;
    for (const std::string &name : r.show) {
        const int64_t c = find_column(names, name);
        if (c < 0) unknown_column(r, "--show", name, header, names);
        shown_at.push_back(static_cast<size_t>(c));
        data.shown_columns.push_back(name);
    }

    // Reserving for every line avoids the copies of a growing vector of 1e7+ numbers.
    size_t line_count = 0;
    for (const char *p = csv.data(), *e = p + csv.size(); (p = static_cast<const char *>(std::memchr(p, '\n', static_cast<size_t>(e - p)))); ++p)
        ++line_count;
    data.dense.reserve((line_count + 1) * static_cast<size_t>(data.d));

    ReadProgress progress(r.source, csv.size());
    LabelCoder coder;
    std::string label_word;
    bool row_pending = !header;  // without a header the first row is a point
    int64_t line_no = first_line;
    for (;;) {
        if (row_pending) {
            row_pending = false;
            line = std::string_view();
            cells.assign(first.begin(), first.end());
        } else {
            if (!lines.next_nonblank(line)) break;
            line_no = lines.line_number();
            split_cells(line, delimiter, at(r.source, line_no), cells, store);
        }
        if (cells.size() != names.size())
            runtime_error(at(r.source, line_no), ": ", cells.size(), " cells, but ", header ? "the header has " : "the first row has ",
                          names.size(), " columns",
                          cells.size() == 1 && line.find_first_of(",;\t") != std::string_view::npos
                              ? text(" (the cells are split at each ", delimiter_name(delimiter), "; --delimiter sets another)")
                              : "");
        for (size_t c = 0; c < cells.size(); ++c) {
            const std::string_view cell = cells[c];
            switch (roles[c]) {
            case kFeature: {
                double v = 0;
                if (!parse_finite_double(cell.data(), cell.data() + cell.size(), v))
                    not_a_number(r, line_no, static_cast<int64_t>(c) + 1, names[c], cell, delimiter);
                data.dense.push_back(v);
                break;
            }
            case kLabel:
                if (cell.empty()) runtime_error(at(r.source, line_no, static_cast<int64_t>(c) + 1), ": empty label");
                label_word.assign(cell);
                data.labels.push_back(coder.id(label_word));
                break;
            case kId: {
                if (cell.empty()) runtime_error(at(r.source, line_no, static_cast<int64_t>(c) + 1), ": empty ID in column '", names[c], "'");
                std::string id(cell);
                if (!data.row_of_id.emplace(id, data.n).second)
                    runtime_error(at(r.source, line_no, static_cast<int64_t>(c) + 1), ": ID '", id, "' appears twice (IDs name one point each)");
                data.ids.push_back(std::move(id));
                break;
            }
            case kLeftOut:
                break;
            }
        }
        for (size_t c : shown_at) data.shown_cells.emplace_back(cells[c]);
        ++data.n;
        if ((data.n & 4095) == 0) progress.update(static_cast<size_t>(lines.position() - csv.data()), data.n);
    }
    if (data.n == 0) runtime_error(r.source, ": no data rows after the header");
    data.label_names = coder.names();
    return data;
}

Dataset parse_csv_data(const std::string &text, const std::string &source, const std::string &label_column,
                       bool label_column_required) {
    CsvRequest r;
    r.source = source;
    r.label_column = label_column;
    r.label_column_required = label_column_required;
    return parse_csv_data(text, r);
}

}  // namespace kindred_cli
