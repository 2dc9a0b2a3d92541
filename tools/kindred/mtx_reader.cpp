#include "mtx_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <sstream>

#include <unistd.h>

#include "cli_error.hpp"
#include "csv_fields.hpp"
#include "text_file.hpp"

namespace kindred_cli {

namespace {

struct Entry {
    int64_t row, col;
    double value;
};

std::vector<std::string> words_of(const std::string &line) {
    std::istringstream in(line);
    std::vector<std::string> words;
    std::string w;
    while (in >> w) words.push_back(w);
    return words;
}

std::string lower(std::string s) {
    for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Bytes of memory this machine has (RAM; 0 when unknown).
uint64_t machine_memory() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

int64_t index_word(const std::string &word, int64_t limit, const std::string &where, const char *what) {
    int64_t v = 0;
    if (!parse_integer(word, v)) runtime_error(where, ": ", what, " '", word, "' is not an integer");
    if (v < 1 || v > limit) runtime_error(where, ": ", what, " ", v, " outside [1, ", limit, "] (Matrix Market indices are 1-based)");
    return v - 1;
}

}  // namespace

Dataset read_matrix_market(const std::string &text, const std::string &source) {
    LineCursor lines(text);
    std::string line;
    if (!lines.next(line)) runtime_error(source, ": empty file");
    const std::vector<std::string> banner = words_of(lower(line));
    if (banner.size() != 5 || banner[0] != "%%matrixmarket" || banner[1] != "matrix")
        runtime_error(at(source, 1), ": not a Matrix Market file (expected '%%MatrixMarket matrix coordinate real general')");
    if (banner[2] != "coordinate") runtime_error(at(source, 1), ": only the 'coordinate' format is read, not '", banner[2], "'");
    const std::string field = banner[3], symmetry = banner[4];
    if (field != "real" && field != "integer" && field != "pattern")
        runtime_error(at(source, 1), ": field '", field, "' is not supported (real, integer or pattern)");
    if (symmetry != "general" && symmetry != "symmetric")
        runtime_error(at(source, 1), ": symmetry '", symmetry, "' is not supported (general or symmetric)");

    // Size line: the first line that is neither a comment nor blank.
    bool have_size = false;
    while (lines.next(line))
        if (!is_blank(line) && line[0] != '%') {
            have_size = true;
            break;
        }
    if (!have_size) runtime_error(source, ": no size line (rows columns entries)");
    const std::string size_where = at(source, lines.line_number());
    const std::vector<std::string> size = words_of(line);
    int64_t rows = 0, cols = 0, nnz = 0;
    if (size.size() != 3 || !parse_integer(size[0], rows) || !parse_integer(size[1], cols) || !parse_integer(size[2], nnz) ||
        rows < 1 || cols < 1 || nnz < 0)
        runtime_error(size_where, ": the size line must be three integers 'rows columns entries' with rows, columns >= 1");

    // The row offsets take 8 bytes per row whatever the entries: a size line
    // announcing more rows than the machine's memory holds is refused here,
    // by name, before an allocation that can only fail.
    const uint64_t memory = machine_memory();
    if (memory > 0 && static_cast<uint64_t>(rows) > memory / sizeof(int64_t))
        runtime_error(size_where, ": ", rows, " rows (points) do not fit in memory: their row offsets alone need ",
                      static_cast<double>(rows) * 8.0, " bytes, and this machine has ", static_cast<double>(memory));
    std::vector<Entry> entries;
    entries.reserve(static_cast<size_t>(std::min<int64_t>(nnz, 1 << 26)));
    const size_t per_line = field == "pattern" ? 2 : 3;
    int64_t read = 0;
    while (lines.next(line)) {
        if (is_blank(line) || line[0] == '%') continue;
        const std::string where = at(source, lines.line_number());
        const std::vector<std::string> w = words_of(line);
        if (w.size() != per_line) runtime_error(where, ": expected ", per_line, " numbers, got ", w.size());
        if (read == nnz) runtime_error(where, ": more entries than the ", nnz, " announced on the size line");
        Entry e{index_word(w[0], rows, where, "row"), index_word(w[1], cols, where, "column"), 1.0};
        if (per_line == 3 && !parse_finite_double(w[2], e.value))
            runtime_error(where, ": value '", w[2], "' is not a finite number");
        entries.push_back(e);
        if (symmetry == "symmetric" && e.row != e.col) {
            if (rows != cols) runtime_error(where, ": a symmetric matrix must be square");
            entries.push_back(Entry{e.col, e.row, e.value});
        }
        ++read;
    }
    if (read != nnz) runtime_error(source, ": ", read, " entries, but the size line announces ", nnz, " (truncated file?)");

    std::sort(entries.begin(), entries.end(),
              [](const Entry &a, const Entry &b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
    Dataset data;
    data.source = source;
    data.n = rows;
    data.d = cols;
    data.sparse = true;
    try {
        data.indptr.assign(static_cast<size_t>(rows) + 1, 0);
    } catch (const std::length_error &) {
        runtime_error(size_where, ": ", rows, " rows (points) do not fit in memory");
    } catch (const std::bad_alloc &) {
        runtime_error(size_where, ": ", rows, " rows (points) do not fit in memory");
    }
    for (size_t k = 0; k < entries.size(); ++k) {
        const Entry &e = entries[k];
        if (k > 0 && entries[k - 1].row == e.row && entries[k - 1].col == e.col) {
            data.values.back() += e.value;  // duplicates are summed, as Matrix Market readers do
            continue;
        }
        data.indices.push_back(e.col);
        data.values.push_back(e.value);
        ++data.indptr[static_cast<size_t>(e.row) + 1];
    }
    for (int64_t r = 0; r < rows; ++r) data.indptr[r + 1] += data.indptr[r];
    return data;
}

}  // namespace kindred_cli
