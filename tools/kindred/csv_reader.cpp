#include "csv_reader.hpp"

#include "cli_error.hpp"
#include "csv_fields.hpp"
#include "text_file.hpp"

namespace kindred_cli {

Dataset parse_csv_data(const std::string &text, const std::string &source,
                       const std::string &label_column, bool label_column_required) {
    Dataset data;
    data.source = source;
    LineCursor lines(text);
    std::string line;
    if (!lines.next_nonblank(line)) runtime_error(source, ": empty file (a header row and data rows are expected)");

    // A UTF-8 byte-order mark (spreadsheet exports) is not part of the first column's name.
    if (line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
    const std::vector<std::string> header = split_csv_line(line, at(source, lines.line_number()));
    int64_t label_at = -1;
    for (size_t c = 0; c < header.size(); ++c) {
        if (header[c].empty()) runtime_error(at(source, lines.line_number(), static_cast<int64_t>(c) + 1), ": empty column name in the header");
        if (header[c] == label_column) {
            if (label_at >= 0) runtime_error(at(source, lines.line_number(), static_cast<int64_t>(c) + 1), ": column '", label_column, "' appears twice");
            label_at = static_cast<int64_t>(c);
        } else {
            data.columns.push_back(header[c]);
        }
    }
    if (label_at < 0 && label_column_required)
        runtime_error(source, ": no column named '", label_column, "' in the header");
    data.d = static_cast<int64_t>(data.columns.size());
    if (data.d == 0) runtime_error(at(source, lines.line_number()), ": no feature columns (only the label column)");

    LabelCoder coder;
    while (lines.next_nonblank(line)) {
        const int64_t line_no = lines.line_number();
        const std::vector<std::string> cells = split_csv_line(line, at(source, line_no));
        if (cells.size() != header.size())
            runtime_error(at(source, line_no), ": ", cells.size(), " cells, but the header has ", header.size(), " columns");
        for (size_t c = 0; c < cells.size(); ++c) {
            const int64_t col = static_cast<int64_t>(c) + 1;
            if (static_cast<int64_t>(c) == label_at) {
                if (cells[c].empty()) runtime_error(at(source, line_no, col), ": empty label");
                data.labels.push_back(coder.id(cells[c]));
                continue;
            }
            double v = 0;
            if (!parse_finite_double(cells[c], v)) {
                if (cells[c].empty()) runtime_error(at(source, line_no, col), ": empty cell in column '", header[c], "'");
                runtime_error(at(source, line_no, col), ": '", cells[c], "' is not a finite number (column '", header[c], "')");
            }
            data.dense.push_back(v);
        }
        ++data.n;
    }
    if (data.n == 0) runtime_error(source, ": no data rows after the header");
    data.label_names = coder.names();
    return data;
}

}  // namespace kindred_cli
