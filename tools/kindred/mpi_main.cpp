// The `kindred-mpi` program: `kindred fit` across the ranks of an MPI job
// (docs/distributed.md), built only where MPI is found, never installed with
// libkindred or the `kindred` program (neither depends on MPI):
//
//   mpirun -np N kindred-mpi fit ALGORITHM --data part-%r.csv [--OPTION VALUE ...]
//          [--out labels-%r.csv | --out labels.csv] [--model m.kdm] [--json]
//
// --data with %r: each rank reads its own file (%r = its rank), and the
// files' rows follow each other in rank order. Without %r: every rank reads
// the one file and fits its own range of rows (rank r of N: rows
// [n r / N, n (r + 1) / N)). --out with %r: each rank writes its own rows'
// labels; without: the labels are gathered and rank 0 writes them all. Rank 0
// saves the model and prints the summary. --pairs, --triplets and
// --partial-labels are about all the points, by global row number (or by ID
// with --id-column and the one file): every rank reads them in full, as the
// library asks (the same side information on every rank). A failure on any rank (a file
// missing on one machine, the library's refusal) ends every rank with the same
// exit code, and rank 0 prints it once, naming the rank.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli_error.hpp"
#include "command.hpp"
#include "dataset.hpp"
#include "handles.hpp"
#include "json_writer.hpp"
#include "kindred_mpi.h"
#include "label_files.hpp"
#include "model_runs.hpp"
#include "options_from_registry.hpp"
#include "side_files.hpp"
#include "side_flags.hpp"

namespace kindred_cli {

namespace {

constexpr const char *kUsage =
    "usage: mpirun -np N kindred-mpi fit ALGORITHM --data X.csv|part-%r.csv [--OPTION VALUE ...]\n"
    "                        [--out labels.csv|labels-%r.csv] [--model m.kdm] [--json]\n"
    "  %r in a file name is the rank. --data part-%r.csv: one file per rank, their rows in rank order;\n"
    "  --data X.csv: every rank reads X.csv and fits its own range of rows. --out labels-%r.csv: one\n"
    "  labels file per rank; --out labels.csv: rank 0 writes them all. The data flags of `kindred fit`\n"
    "  (--delimiter, --no-header, --columns, --drop, --id-column, --label-column) apply to every file.\n"
    "  Side information, about all the points (global row numbers), read in full by every rank:\n"
    "  Algorithms: those with sharded fits (kindred_algorithm_uses: KINDRED_USES_SHARDS; docs/distributed.md).\n";

// kUsage, then the side-information flags of `kindred fit`, whose help text is theirs.
std::string usage() {
    const std::string u = kUsage;
    const size_t cut = u.find("  Algorithms:");
    return u.substr(0, cut) + kSideFlagsHelp + u.substr(cut);
}

// `pattern` with every %r replaced by the rank (and %% by %).
std::string with_rank(const std::string &pattern, int rank) {
    std::string out;
    for (size_t k = 0; k < pattern.size(); ++k) {
        if (pattern[k] == '%' && k + 1 < pattern.size() && (pattern[k + 1] == 'r' || pattern[k + 1] == '%')) {
            out += pattern[k + 1] == 'r' ? std::to_string(rank) : "%";
            ++k;
        } else {
            out += pattern[k];
        }
    }
    return out;
}

bool has_rank(const std::string &pattern) { return with_rank(pattern, 0) != with_rank(pattern, 1); }

// Runs step on every rank. When it fails on one or more, every rank throws the
// error of the lowest failing rank (its exit code; its message, naming the rank),
// so that no rank waits in a collective call that the others will not make.
void agree(MPI_Comm comm, const std::function<void()> &step) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    long long mine[2] = {kExitOk, 0};  // exit code, message length
    std::string message;
    try {
        step();
    } catch (const CliError &e) {
        mine[0] = e.exit_code();
        message = e.what();
    } catch (const std::bad_alloc &) {
        mine[0] = kExitRuntime;
        message = "out of memory";
    } catch (const std::exception &e) {
        mine[0] = kExitRuntime;
        message = e.what();
    }
    mine[1] = static_cast<long long>(message.size());
    std::vector<long long> all(static_cast<size_t>(2 * size));
    MPI_Allgather(mine, 2, MPI_LONG_LONG, all.data(), 2, MPI_LONG_LONG, comm);
    // A failure of every rank (the command line, which all share) is said without naming one.
    bool everywhere = true;
    for (int r = 0; r < size; ++r) everywhere = everywhere && all[2 * r] != kExitOk;
    for (int r = 0; r < size; ++r) {
        if (all[2 * r] == kExitOk) continue;
        std::string text(static_cast<size_t>(all[2 * r + 1]), '\0');
        if (r == rank) text = message;
        MPI_Bcast(&text[0], static_cast<int>(text.size()), MPI_CHAR, r, comm);
        throw CliError(static_cast<int>(all[2 * r]), size > 1 && !everywhere ? "rank " + std::to_string(r) + ": " + text : text);
    }
}

int run_fit(Arguments &args) {
    MPI_Comm world = MPI_COMM_WORLD;
    int rank = 0, size = 1;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);

    // The command line is the same on every rank: its errors are too, but agree() keeps that a fact.
    std::string algorithm, out_path, model_path;
    bool json = false;
    DataRequest request;
    SideFiles side_files;
    ModelPtr model;
    agree(world, [&] {
        if (args.positionals().empty()) usage_error("fit needs an algorithm: kindred-mpi fit ALGORITHM --data X.csv");
        algorithm = args.positionals().front();
        require_algorithm(algorithm);
        args.expect_positionals("fit", 1);
        if (!(algorithm_uses(algorithm) & (KINDRED_USES_SHARDS | KINDRED_USES_SHARDS_APPROX)))
            usage_error(algorithm, " has no sharded fit yet (docs/distributed.md lists those that have)");
        request = take_data_flags(args, "fit", false);
        side_files = take_side_flags(args);
        out_path = args.take("out").value_or("");
        model_path = args.take("model").value_or("");
        json = args.take_switch("json");
        model = new_model(algorithm);
        apply_option_flags(model.get(), args.remaining());
        if (request.path == "-") usage_error("kindred-mpi fit: --data - (standard input) is not available; name a file");
        if (has_rank(model_path)) usage_error("--model: rank 0 saves the whole model; its name takes no %r");
        if (has_rank(side_files.pairs) || has_rank(side_files.triplets) || has_rank(side_files.partial_labels))
            usage_error("side information is about all the points and every rank reads it in full: its file names take no %r");
    });

    // This rank's rows.
    const bool file_per_rank = has_rank(request.path);
    Dataset data, whole;  // whole: the one file, on rank 0 (the points' names for a gathered --out)
    int64_t row_offset = 0, n_total = 0;
    agree(world, [&] {
        DataRequest mine = request;
        mine.path = with_rank(request.path, rank);
        data = load_dataset(mine);
        if (data.sparse) runtime_error(mine.path, ": kindred-mpi fits dense data only (CSV)");
        if (file_per_rank && !out_path.empty() && !has_rank(out_path) && data.has_ids())
            usage_error("--id-column with one file per rank: write one labels file per rank (--out labels-%r.csv)");
        if (file_per_rank && side_files.any() && data.has_ids())
            usage_error("--id-column with one file per rank: a rank does not know the other files' IDs, so the "
                        "side-information files cannot name points by ID; drop --id-column (points are then global "
                        "row numbers) or give the one file (--data X.csv)");
    });
    if (file_per_rank) {
        std::vector<int64_t> counts(static_cast<size_t>(size));
        MPI_Allgather(&data.n, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, world);
        for (int r = 0; r < size; ++r) {
            if (r < rank) row_offset += counts[static_cast<size_t>(r)];
            n_total += counts[static_cast<size_t>(r)];
        }
    } else {
        n_total = data.n;
        row_offset = n_total * rank / size;
        std::vector<int64_t> rows;
        for (int64_t i = row_offset; i < n_total * (rank + 1) / size; ++i) rows.push_back(i);
        whole = std::move(data);
        data = subset_rows(whole, rows);
        data.source = whole.source;
    }

    // Side information about all n_total points, read in full on every rank. Points are checked
    // against n_total here (a pairs file for other data names its row and n; a partial-labels file
    // names both counts), so that a file for other data fails on every rank before the fit.
    SidePtr side;
    if (side_files.any()) {
        agree(world, [&] {
            if (file_per_rank) {  // no rank holds every point: their count is all a reader needs
                Dataset points;
                points.n = n_total;
                points.source = request.path;
                side = read_side_files(side_files, points);
            } else {
                side = read_side_files(side_files, whole);  // IDs (--id-column) included
            }
        });
        if (rank == 0) note_unused_side(algorithm, side_files, "kindred-mpi");
    }
    if (rank != 0) whole = Dataset();  // only rank 0 writes gathered labels with the points' names

    // The fit: collective, the same status and message on every rank.
    kindred_mpi_link link;
    kindred_comm comm;
    const int mpi_status = kindred_mpi_comm(world, &link, &comm);
    if (mpi_status != MPI_SUCCESS) runtime_error("kindred_mpi_comm failed (MPI error ", mpi_status, ")");
    const auto start = std::chrono::steady_clock::now();
    const kindred_status s = kindred_model_fit_dense_shard(model.get(), &comm, data.dense.data(), data.n, data.d,
                                                           KINDRED_ROW_MAJOR, data.d, row_offset, n_total, side.get());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    kindred_mpi_link_free(&link);
    const std::string where = has_rank(request.path) ? request.path + " (" + std::to_string(size) + " files)" : data.source;
    check(s, algorithm + " on " + where);
    const FitSummary fit = summarize_fit(model.get(), seconds);

    // The labels: one file per rank, or gathered on rank 0.
    const std::vector<int32_t> labels = fitted_labels(model.get(), data.n);
    if (!out_path.empty() && has_rank(out_path)) {
        agree(world, [&] { write_cluster_csv(with_rank(out_path, rank), labels, data); });
    } else if (!out_path.empty()) {
        std::vector<int> counts(static_cast<size_t>(size)), displs(static_cast<size_t>(size));
        const int n_mine = static_cast<int>(data.n);
        if (n_total > 2147483647) runtime_error("--out ", out_path, ": more than 2^31 - 1 labels to gather; use --out labels-%r.csv");
        MPI_Gather(&n_mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, world);
        for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
        std::vector<int32_t> all(static_cast<size_t>(rank == 0 ? n_total : 0) + 1);
        MPI_Gatherv(labels.data(), n_mine, MPI_INT32_T, all.data(), counts.data(), displs.data(), MPI_INT32_T, 0, world);
        agree(world, [&] {
            if (rank != 0) return;
            all.resize(static_cast<size_t>(n_total));
            if (file_per_rank) whole.n = n_total;  // no names: one file per rank has no --id-column here
            write_cluster_csv(out_path, all, whole);
        });
    }
    if (!model_path.empty())
        agree(world, [&] {
            if (rank == 0) check(kindred_model_save(model.get(), model_path.c_str()), "saving the model to " + model_path);
        });

    if (rank != 0) return kExitOk;
    if (json) {
        JsonObject o = fit_report(algorithm, fit);
        o.add("data", request.path)
            .add("n", n_total)
            .add("d", data.d)
            .add("ranks", static_cast<int64_t>(size));
        std::cout << o.str() << "\n";
        return kExitOk;
    }
    std::cout << algorithm << " on " << where << ": " << n_total << " points, " << data.d << " features, " << size
              << " ranks\n"
              << fit_line(fit) << "\n";
    if (!out_path.empty()) std::cout << "labels written to " << out_path << "\n";
    if (!model_path.empty()) std::cout << "model saved to " << model_path << "\n";
    return kExitOk;
}

int run(int argc, char **argv) {
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0) std::cout << usage();
        return argc < 2 ? kExitUsage : kExitOk;
    }
    if (std::strcmp(argv[1], "fit") != 0)
        usage_error("kindred-mpi has one command, fit; got '", argv[1], "' (kindred-mpi --help)");
    Arguments args = Arguments::parse(argc, argv, 2);
    return run_fit(args);
}

}  // namespace

}  // namespace kindred_cli

int main(int argc, char **argv) {
    using namespace kindred_cli;
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int code = kExitOk;
    std::string message;
    try {
        code = run(argc, argv);
    } catch (const CliError &e) {
        code = e.exit_code();
        message = e.what();
    } catch (const std::bad_alloc &) {
        code = kExitRuntime;
        message = "out of memory";
    } catch (const std::exception &e) {
        code = kExitRuntime;
        message = e.what();
    }
    std::cout.flush();
    // Errors are the same on every rank (agree(), the library's own agreement): rank 0 says it once.
    if (code != kExitOk && rank == 0 && !message.empty()) std::fprintf(stderr, "kindred-mpi: %s\n", message.c_str());
    MPI_Finalize();
    return code;
}
