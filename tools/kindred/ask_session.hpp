// The answers of `kindred ask`, kept in the output file as they come: one row
// appended per answer (so that Ctrl-C or a crash loses nothing), the file
// rewritten only by undo, and read back by a second run to resume.
#ifndef KINDRED_CLI_ASK_SESSION_HPP
#define KINDRED_CLI_ASK_SESSION_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "dataset.hpp"

namespace kindred_cli {

// One answered question: the points (2 for a pair, 3 for a triplet) and the
// answer +1 (same / a closer to b), -1 (different / a closer to c), 0 (don't know).
struct Answer {
    std::vector<int64_t> points;
    int value = 0;
};

class AnswerFile {
public:
    // Reads the answers already in `path` (a pairs CSV i,j,value, or a
    // triplets CSV a,b,c,answer when `arity` is 3), or creates it with its header.
    AnswerFile(const std::string &path, const Dataset &data, size_t arity);
    const std::vector<Answer> &answers() const { return answers_; }
    // Appends one answer to the file at once.
    void add(const Answer &answer);
    // Removes the last answer (the file is rewritten); false when there is none.
    bool undo();

private:
    std::string row(const Answer &a) const;
    std::string header() const;
    std::string path_;
    const Dataset &data_;
    size_t arity_;
    std::vector<Answer> answers_;
};

}  // namespace kindred_cli

#endif
