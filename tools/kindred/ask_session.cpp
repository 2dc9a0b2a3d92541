#include "ask_session.hpp"

#include <filesystem>

#include "cli_error.hpp"
#include "csv_fields.hpp"
#include "handles.hpp"
#include "side_files.hpp"
#include "text_file.hpp"

namespace kindred_cli {

namespace {

// Whether a file holds no answer yet: missing, empty, or its header only.
bool holds_no_answer(const std::string &path, const std::string &header) {
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) return true;
    const std::string content = read_text_file(path);
    LineCursor lines(content);
    std::string line;
    if (!lines.next_nonblank(line)) return true;
    return line + "\n" == header && !lines.next_nonblank(line);
}

int sign_of(double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

}  // namespace

AnswerFile::AnswerFile(const std::string &path, const Dataset &data, size_t arity)
    : path_(path), data_(data), arity_(arity) {
    if (holds_no_answer(path, header())) {
        write_text_file(path, header());
        return;
    }
    SideFiles files;
    (arity == 2 ? files.pairs : files.triplets) = path;
    if (arity == 2) {
        const PairList p = read_pairs_csv(path, data);
        for (size_t k = 0; k < p.i.size(); ++k) answers_.push_back(Answer{{p.i[k], p.j[k]}, sign_of(p.value[k])});
        return;
    }
    // Triplets are checked and read through a side handle, which keeps the file's order.
    SidePtr side = read_side_files(files, data);
    int64_t count = 0;
    check(kindred_side_counts(side.get(), nullptr, nullptr, &count, nullptr), path);
    std::vector<int64_t> a(static_cast<size_t>(count)), b(a.size()), c(a.size());
    std::vector<int32_t> v(a.size());
    if (count > 0) check(kindred_side_triplets(side.get(), a.data(), b.data(), c.data(), v.data(), count), path);
    for (size_t k = 0; k < a.size(); ++k) answers_.push_back(Answer{{a[k], b[k], c[k]}, v[k]});
}

std::string AnswerFile::header() const { return arity_ == 2 ? "i,j,value\n" : "a,b,c,answer\n"; }

std::string AnswerFile::row(const Answer &a) const {
    std::string out;
    for (int64_t p : a.points) out += csv_cell(data_.point_name(p)) + ",";
    return out + std::to_string(a.value) + "\n";
}

void AnswerFile::add(const Answer &answer) {
    answers_.push_back(answer);
    append_text_file(path_, row(answer));
}

bool AnswerFile::undo() {
    if (answers_.empty()) return false;
    answers_.pop_back();
    std::string content = header();
    for (const Answer &a : answers_) content += row(a);
    write_text_file(path_, content);
    return true;
}

}  // namespace kindred_cli
