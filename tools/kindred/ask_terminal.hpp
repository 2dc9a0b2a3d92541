// The questions of `kindred ask` on the terminal: shows two (or three) points
// of the data and reads the person's answer, one line at a time.
#ifndef KINDRED_CLI_ASK_TERMINAL_HPP
#define KINDRED_CLI_ASK_TERMINAL_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "dataset.hpp"

namespace kindred_cli {

// kYes: same (pairs) or "A is more like B" (triplets); kNo: different / more like C.
enum class Reply { kYes, kNo, kDontKnow, kUndo, kQuit };

// Shows one line per point: its tag, its name (ID or row number) and its
// --show columns, or else its first feature values; `header` is printed above,
// e.g. "question 3 of 20". Then asks `question` until a known answer comes:
// `yes_words` / `no_words` (e.g. {"s", "same"}), k don't know, u undo, q quit;
// end of input is kQuit.
Reply ask_person(const Dataset &data, const std::string &header, const std::vector<int64_t> &points,
                 const std::vector<std::string> &tags, const std::string &question,
                 const std::vector<std::string> &yes_words, const std::vector<std::string> &no_words,
                 const std::string &choices);

}  // namespace kindred_cli

#endif
