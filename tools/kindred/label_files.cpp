#include "label_files.hpp"

#include "cli_error.hpp"
#include "csv_fields.hpp"
#include "text_file.hpp"

namespace kindred_cli {

namespace {

std::string trimmed(const std::string &s) {
    const size_t b = s.find_first_not_of(" \t");
    const size_t e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

void attach_label_lines(Dataset &data, const std::string &path) {
    const std::string text = read_text_file(path);
    LineCursor lines(text);
    std::string line;
    LabelCoder coder;
    std::vector<int32_t> labels;
    while (lines.next_nonblank(line)) {
        if (static_cast<int64_t>(labels.size()) == data.n)
            runtime_error(at(path, lines.line_number()), ": more labels than the ", data.n, " points of ", data.source);
        labels.push_back(coder.id(trimmed(line)));
    }
    if (labels.empty()) runtime_error(path, ": empty file (one label per line is expected)");
    if (static_cast<int64_t>(labels.size()) != data.n)
        runtime_error(path, ": ", labels.size(), " labels, but ", data.source, " has ", data.n, " points");
    data.labels = std::move(labels);
    data.label_names = coder.names();
}

void write_cluster_csv(const std::string &path, const std::vector<int32_t> &labels, const Dataset &data) {
    std::string out = data.has_ids() ? csv_cell(data.id_column) + ",cluster\n" : "cluster\n";
    out.reserve(labels.size() * 3 + 8);
    for (size_t r = 0; r < labels.size(); ++r) {
        if (data.has_ids()) out += csv_cell(data.ids[r]) + ",";
        out += std::to_string(labels[r]);
        out += '\n';
    }
    write_text_file(path, out);
}

}  // namespace kindred_cli
