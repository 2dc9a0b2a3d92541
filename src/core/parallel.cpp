#include "core/parallel.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kindred {

int resolve_threads(int64_t requested) {
    if (requested > 0) return static_cast<int>(requested);
    const unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : static_cast<int>(hw);
}

void parallel_chunks(int threads, int64_t n, int64_t chunk,
                     const std::function<void(int64_t, int64_t, int64_t)> &body) {
    parallel_chunks_by_worker(threads, n, chunk,
                              [&](int, int64_t c, int64_t begin, int64_t end) { body(c, begin, end); });
}

void parallel_chunks_by_worker(int threads, int64_t n, int64_t chunk,
                               const std::function<void(int, int64_t, int64_t, int64_t)> &body) {
    const int64_t chunks = chunk_count(n, chunk);
    const int workers = static_cast<int>(std::min<int64_t>(threads, chunks));
    auto run = [&](int w, int64_t c) { body(w, c, c * chunk, std::min(n, (c + 1) * chunk)); };
    if (workers <= 1) {
        for (int64_t c = 0; c < chunks; ++c) run(0, c);
        return;
    }
    std::atomic<int64_t> next(0);
    std::exception_ptr error;
    std::mutex error_mutex;
    auto worker = [&](int w) {
        for (;;) {
            const int64_t c = next.fetch_add(1);
            if (c >= chunks) return;
            try {
                run(w, c);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
                next.store(chunks);
            }
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(workers - 1);
    for (int w = 1; w < workers; ++w) pool.emplace_back(worker, w);
    worker(0);
    for (auto &t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace kindred
