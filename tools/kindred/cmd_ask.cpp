// `kindred ask ALGORITHM --data X.csv --budget Q --out answers.csv`: a person
// answers, in the terminal, the questions that active selection chooses; the
// answers are kept in the output file as they come, a second run resumes from
// it, and at the end the algorithm is fitted with them.
//
// Pairs (an algorithm that uses pairs): Explore / Consolidate of the library
// (kindred_active_select), whose oracle is the person. The selection is
// deterministic given the seed and the answers, so a resumed or undone
// session replays the recorded answers without asking and goes on from there.
// Triplets (an algorithm that uses triplets, e.g. dcrc): "ambiguous triplets":
// for a random anchor a, among 10 random candidates the two whose distances
// to a are closest to each other become b and c, a question the features alone
// do not answer. The sequence is fixed by the seed, so resuming asks from where
// the file stops.
#include <algorithm>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "ask_session.hpp"
#include "ask_terminal.hpp"
#include "cli_error.hpp"
#include "command.hpp"
#include "dataset.hpp"
#include "active_oracle.hpp"
#include "handles.hpp"
#include "label_files.hpp"
#include "model_runs.hpp"
#include "options_from_registry.hpp"
#include "side_files.hpp"

namespace kindred_cli {

namespace {

const char *const kPairChoices = "same (s) / different (d) / don't know (k) / undo (u) / quit (q)";
const char *const kTripletChoices = "B (b) / C (c) / don't know (k) / undo (u) / quit (q)";

enum class Stop { kNone, kUndo, kQuit, kFailed };

struct PairAsker {
    const Dataset *data;
    AnswerFile *file;
    int64_t budget = 0, calls = 0;
    std::map<std::pair<int64_t, int64_t>, int> recorded;
    Stop stop = Stop::kNone;
    std::string failure;
};

// The oracle: a recorded answer is replayed, else the person is asked. Nothing
// may unwind through the library, so a failure is kept and the selection stopped
// with an answer outside {-1, 0, 1}.
int pair_oracle(void *user, int64_t i, int64_t j) {
    auto *s = static_cast<PairAsker *>(user);
    ++s->calls;
    const auto found = s->recorded.find({i, j});
    if (found != s->recorded.end()) return found->second;
    try {
        for (;;) {
            const Reply r = ask_person(*s->data, text("question ", s->calls, " of at most ", s->budget), {i, j}, {"A", "B"},
                                       "Are A and B the same kind?", {"s", "same"}, {"d", "different"}, kPairChoices);
            if (r == Reply::kUndo && s->file->answers().empty()) {
                std::cout << "(nothing to undo)\n";
                continue;
            }
            if (r == Reply::kUndo || r == Reply::kQuit) {
                s->stop = r == Reply::kUndo ? Stop::kUndo : Stop::kQuit;
                return 2;
            }
            const int value = r == Reply::kYes ? 1 : r == Reply::kNo ? -1 : 0;
            s->file->add(Answer{{i, j}, value});
            s->recorded[{i, j}] = value;
            return value;
        }
    } catch (const std::exception &e) {
        s->stop = Stop::kFailed;
        s->failure = e.what();
        return 2;
    }
}

// Runs the selection until it ends or the person quits; undo restarts it. The
// answers are in `file`; `inferred` receives the library's pairs when it ended
// (Consolidate stores must-links it inferred without a question).
void ask_pairs(const Dataset &data, AnswerFile &file, const std::string &strategy, int64_t k, int64_t budget,
               uint64_t seed, SidePtr &inferred) {
    for (;;) {
        PairAsker asker{&data, &file, budget, 0, {}, Stop::kNone, ""};
        for (const Answer &a : file.answers())
            asker.recorded[{std::min(a.points[0], a.points[1]), std::max(a.points[0], a.points[1])}] = a.value;
        SidePtr side = new_side(data.n);
        const ActiveOptionsPtr options = active_options(strategy, k, budget, seed);
        const kindred_status status = kindred_active_select(options.get(), data.dense.data(), data.n, data.d,
                                                            KINDRED_ROW_MAJOR, data.d, pair_oracle, &asker, side.get());
        if (asker.stop == Stop::kFailed) runtime_error(asker.failure);
        if (asker.stop == Stop::kUndo) {
            file.undo();
            std::cout << "(the last answer is undone)\n";
            continue;
        }
        if (asker.stop == Stop::kQuit) return;
        check(status, "active selection (" + strategy + ") on " + data.source);
        inferred = std::move(side);
        return;
    }
}

double squared_distance(const Dataset &data, int64_t a, int64_t b) {
    double s = 0;
    for (int64_t c = 0; c < data.d; ++c) {
        const double t = data.dense[static_cast<size_t>(a * data.d + c)] - data.dense[static_cast<size_t>(b * data.d + c)];
        s += t * t;
    }
    return s;
}

// The first `count` ambiguous triplets of the seed (see the top of this file).
std::vector<std::vector<int64_t>> ambiguous_triplets(const Dataset &data, int64_t count, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int64_t> point(0, data.n - 1);
    std::vector<std::vector<int64_t>> out;
    const int candidates = static_cast<int>(std::min<int64_t>(10, data.n - 1));
    for (int64_t q = 0; q < count; ++q) {
        const int64_t a = point(rng);
        std::vector<std::pair<double, int64_t>> near;
        while (static_cast<int>(near.size()) < candidates) {
            const int64_t p = point(rng);
            if (p == a || std::any_of(near.begin(), near.end(), [p](const auto &e) { return e.second == p; })) continue;
            near.emplace_back(squared_distance(data, a, p), p);
        }
        std::sort(near.begin(), near.end());
        size_t best = 0;
        for (size_t k = 1; k + 1 < near.size(); ++k)
            if (near[k + 1].first - near[k].first < near[best + 1].first - near[best].first) best = k;
        out.push_back({a, near[best].second, near[best + 1].second});
    }
    return out;
}

void ask_triplets(const Dataset &data, AnswerFile &file, int64_t budget, uint64_t seed) {
    const std::vector<std::vector<int64_t>> plan = ambiguous_triplets(data, budget, seed);
    for (size_t k = 0; k < file.answers().size() && k < plan.size(); ++k)
        if (file.answers()[k].points != plan[k])
            usage_error("the answers already in the output file were asked with another seed, budget or data (row ", k + 1,
                        " differs); give another --out to start again");
    while (file.answers().size() < plan.size()) {
        const std::vector<int64_t> &t = plan[file.answers().size()];
        const Reply r = ask_person(data, text("question ", file.answers().size() + 1, " of ", budget), t, {"A", "B", "C"},
                                   "Is A more like B or like C?", {"b"}, {"c"}, kTripletChoices);
        if (r == Reply::kQuit) return;
        if (r == Reply::kUndo) {
            std::cout << (file.undo() ? "(the last answer is undone)\n" : "(nothing to undo)\n");
            continue;
        }
        file.add(Answer{t, r == Reply::kYes ? 1 : r == Reply::kNo ? -1 : 0});
    }
}

std::string cluster_sizes(const std::vector<int32_t> &labels) {
    std::map<int32_t, int64_t> sizes;
    for (int32_t l : labels) ++sizes[l];
    std::string out;
    for (const auto &s : sizes) out += (out.empty() ? "" : ", ") + text(s.first, ": ", s.second);
    return out;
}

int run_ask(Arguments &args) {
    if (args.positionals().empty()) usage_error("ask needs an algorithm that uses pairs or triplets: kindred ask ALGORITHM --data X.csv --budget Q --out answers.csv");
    const std::string algorithm = args.positionals().front();
    require_algorithm(algorithm);
    args.expect_positionals("ask", 1);
    const int uses = algorithm_uses(algorithm);
    if (!(uses & (KINDRED_USES_PAIRS | KINDRED_USES_TRIPLETS)))
        usage_error(algorithm, " uses neither pairs nor triplets; ask for one that does (kindred algorithms)");
    const bool pairs = (uses & KINDRED_USES_PAIRS) != 0;

    DataRequest request = take_data_flags(args, "ask", false);
    if (request.path == "-") usage_error("ask reads the answers from standard input, so --data - cannot be used; give a file");
    if (auto show = args.take("show")) request.show = column_list("show", *show);
    const int64_t budget = args.take_int("budget", 1, 1000000).value_or(-1);
    if (budget < 0) usage_error("ask needs --budget Q (the most questions to ask)");
    const std::string out_path = args.take_required("out", "ask");
    const std::string strategy = args.take("strategy").value_or(default_active_strategy());
    if (!is_active_strategy(strategy))
        usage_error("--strategy must be one of ", active_strategies(), ", not '", strategy, "'");
    const std::string clusters_path = args.take("clusters").value_or("");
    const std::string model_path = args.take("model").value_or("");
    ModelPtr model = new_model(algorithm);
    apply_option_flags(model.get(), args.remaining());
    const uint64_t seed = static_cast<uint64_t>(std::stoull(current_option(model.get(), "seed")));
    const std::string k_text = has_option(algorithm, "k") ? current_option(model.get(), "k") : "";
    const int64_t k = k_text.empty() ? -1 : std::stoll(k_text);

    const Dataset data = load_dataset(request);
    if (data.sparse) usage_error("ask needs dense (CSV) data; ", data.source, " is sparse");
    if (k > data.n) usage_error("--k ", k, " is more than the ", data.n, " points of ", data.source);
    AnswerFile file(out_path, data, pairs ? 2 : 3);
    if (!file.answers().empty())
        std::cout << "resuming: " << file.answers().size() << " answers already in " << out_path << "\n";
    std::cout << "Answer each question with a letter and Enter; every answer is saved to " << out_path
              << " at once (Ctrl-C loses nothing; run the same command again to go on).\n";

    SidePtr inferred;
    if (pairs) ask_pairs(data, file, strategy, k, budget, seed, inferred);
    else ask_triplets(data, file, budget, seed);

    // The side information: every recorded answer, and the pairs the selection inferred.
    SidePtr side = new_side(data.n);
    int64_t same = 0, different = 0, unknown = 0;
    std::set<std::pair<int64_t, int64_t>> answered;
    for (const Answer &a : file.answers()) {
        ++(a.value > 0 ? same : a.value < 0 ? different : unknown);
        if (pairs) {
            const double v = a.value;
            check(kindred_side_add_pairs(side.get(), &a.points[0], &a.points[1], &v, 1), out_path);
            answered.insert(std::make_pair(std::min(a.points[0], a.points[1]), std::max(a.points[0], a.points[1])));
        } else {
            const int32_t v = a.value;
            check(kindred_side_add_triplets(side.get(), &a.points[0], &a.points[1], &a.points[2], &v, 1), out_path);
        }
    }
    int64_t inferred_count = 0;
    if (inferred) {
        const PairList p = side_pairs(inferred.get());
        for (size_t q = 0; q < p.i.size(); ++q)
            if (!answered.count(std::make_pair(p.i[q], p.j[q]))) {
                check(kindred_side_add_pairs(side.get(), &p.i[q], &p.j[q], &p.value[q], 1), "inferred pairs");
                ++inferred_count;
            }
    }
    std::cout << "\n" << file.answers().size() << " answers in " << out_path << " (" << same << (pairs ? " same, " : " B, ")
              << different << (pairs ? " different, " : " C, ") << unknown << " don't know)";
    if (inferred_count > 0) std::cout << "; " << inferred_count << " must-links inferred";
    std::cout << "\n";
    const FitSummary fit = fit_model(model.get(), data, side.get());
    const std::vector<int32_t> labels = fitted_labels(model.get(), data.n);
    std::cout << algorithm << ": " << fit.clusters << " clusters (sizes " << cluster_sizes(labels) << ")\n";
    if (!clusters_path.empty()) {
        write_cluster_csv(clusters_path, labels, data);
        std::cout << "labels written to " << clusters_path << "\n";
    }
    if (!model_path.empty()) {
        check(kindred_model_save(model.get(), model_path.c_str()), "saving the model to " + model_path);
        std::cout << "model saved to " << model_path << "\n";
    }
    return 0;
}

}  // namespace

const Command &cmd_ask() {
    static const std::string details =
        std::string(kDataFlagsHelp) +
        "  --show A,B,...         columns shown with each point (default: its first features)\n"
        "  --budget Q             ask at most Q questions\n"
        "  --out FILE             the answers: pairs CSV i,j,value (+1 same, -1 different, 0 don't know)\n"
        "                         or triplets CSV a,b,c,answer; appended at each answer, read back to resume\n"
        "  --strategy S           pairs: " + active_strategies_help() + "\n"
        "  --k K                  Explore / Consolidate stops exploring at K neighbourhoods (the algorithm's\n"
        "                         k); without a k only Explore runs\n"
        "  --clusters FILE        write the labels of the final fit, CSV `cluster` (with the IDs)\n"
        "  --model FILE           save the final model\n"
        "  --OPTION VALUE         options of ALGORITHM (`kindred help ALGORITHM`); --seed fixes the questions\n"
        "Answers: s same, d different, k don't know, u undo the last answer, q quit (then fit);\n"
        "for triplets b (A is more like B) or c (more like C). A triplet algorithm gets ambiguous\n"
        "triplets: a random A, and of 10 random points the two whose distances to A are closest.\n";
    static const Command c{"ask",
                           "kindred ask ALGORITHM --data X.csv [--id-column ID] [--show COLS] --budget Q --out answers.csv\n"
                           "            [--k K] [--clusters labels.csv] [--model m.kdm] [--OPTION VALUE ...]",
                           "ask a person, in the terminal, the questions active selection chooses; then fit",
                           details.c_str(), run_ask};
    return c;
}

}  // namespace kindred_cli
