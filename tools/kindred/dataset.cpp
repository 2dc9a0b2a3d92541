#include "dataset.hpp"

#include "cli_error.hpp"
#include "csv_reader.hpp"
#include "label_files.hpp"
#include "mtx_reader.hpp"
#include "text_file.hpp"

namespace kindred_cli {

int32_t LabelCoder::id(const std::string &word) {
    auto it = ids_.find(word);
    if (it != ids_.end()) return it->second;
    const int32_t id = static_cast<int32_t>(names_.size());
    ids_.emplace(word, id);
    names_.push_back(word);
    return id;
}

namespace {

bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Dataset load_dataset(const DataRequest &request) {
    Dataset data;
    if (ends_with(request.path, ".mtx")) {
        if (request.delimiter || request.no_header || !request.id_column.empty() || !request.columns.empty() ||
            !request.drop.empty())
            usage_error(request.path, ": --delimiter, --no-header, --id-column, --columns and --drop are for CSV data, not Matrix Market");
        data = read_matrix_market(read_text_file(request.path), request.path);
        if (!request.labels_path.empty()) {
            attach_label_lines(data, request.labels_path);
        } else if (request.labels_required) {
            usage_error(request.path, ": Matrix Market data has no label column; give the labels with --labels FILE (one per line)");
        }
    } else {
        if (!request.labels_path.empty())
            usage_error("--labels FILE is for .mtx data; in CSV data the labels are a column (--label-column NAME)");
        CsvRequest csv;
        csv.source = input_name(request.path);
        csv.label_column = request.label_column;
        csv.label_column_required = request.label_column_given;
        csv.delimiter = request.delimiter;
        csv.no_header = request.no_header;
        csv.id_column = request.id_column;
        csv.columns = request.columns;
        csv.drop = request.drop;
        csv.show = request.show;
        data = parse_csv_data(read_text_file(request.path), csv);
        if (request.labels_required && !data.has_labels())
            runtime_error(input_name(request.path), ": no label column '", request.label_column,
                          "' (ground truth is needed; name it with --label-column NAME)");
    }
    return data;
}

Dataset subset_rows(const Dataset &data, const std::vector<int64_t> &rows) {
    Dataset out;
    out.source = data.source;
    out.n = static_cast<int64_t>(rows.size());
    out.d = data.d;
    out.columns = data.columns;
    out.sparse = data.sparse;
    out.label_names = data.label_names;
    if (data.sparse) {
        out.indptr.push_back(0);
        for (int64_t r : rows) {
            for (int64_t p = data.indptr[r]; p < data.indptr[r + 1]; ++p) {
                out.indices.push_back(data.indices[p]);
                out.values.push_back(data.values[p]);
            }
            out.indptr.push_back(static_cast<int64_t>(out.indices.size()));
        }
    } else {
        out.dense.reserve(rows.size() * static_cast<size_t>(data.d));
        for (int64_t r : rows)
            out.dense.insert(out.dense.end(), data.dense.begin() + r * data.d, data.dense.begin() + (r + 1) * data.d);
    }
    if (data.has_labels())
        for (int64_t r : rows) out.labels.push_back(data.labels[r]);
    if (data.has_ids()) {
        out.id_column = data.id_column;
        for (int64_t r : rows) {
            out.row_of_id.emplace(data.ids[r], static_cast<int64_t>(out.ids.size()));
            out.ids.push_back(data.ids[r]);
        }
    }
    return out;
}

}  // namespace kindred_cli
