// The library's own threads. Work is cut into chunks whose boundaries depend
// only on the problem size, never on the thread count, and per-chunk partial
// results are combined in chunk order: results are identical for any number
// of threads. BLAS calls are made from the calling thread only, so that our
// threads and OpenBLAS's never oversubscribe the cores together.
#ifndef KINDRED_CORE_PARALLEL_HPP
#define KINDRED_CORE_PARALLEL_HPP

#include <cstdint>
#include <functional>

namespace kindred {

// 0 = all cores.
int resolve_threads(int64_t requested);

// Number of chunks of `chunk` items covering n items.
inline int64_t chunk_count(int64_t n, int64_t chunk) { return (n + chunk - 1) / chunk; }

// Calls body(chunk_index, begin, end) for every chunk, on up to `threads`
// threads. An exception thrown by a body is rethrown in the caller.
void parallel_chunks(int threads, int64_t n, int64_t chunk,
                     const std::function<void(int64_t, int64_t, int64_t)> &body);

// As parallel_chunks, and also passes the index of the worker (in [0, threads))
// running the chunk, so that each worker can use scratch of its own.
void parallel_chunks_by_worker(int threads, int64_t n, int64_t chunk,
                               const std::function<void(int, int64_t, int64_t, int64_t)> &body);

}  // namespace kindred

#endif
