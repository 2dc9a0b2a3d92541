// What every harness needs from the fuzzer's bytes: small numbers and
// doubles taken from the front, and the bytes as a file with a path (the
// loaders and readers under test open files by name).
#ifndef KINDRED_FUZZ_BYTES_HPP
#define KINDRED_FUZZ_BYTES_HPP

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kindred.h"

namespace kindred_fuzz {

// Consumes the input from the front; past its end every read is 0, so that
// any input drives the harness to the end.
class Bytes {
public:
    Bytes(const uint8_t *data, size_t size) : data_(data), size_(size) {}
    size_t left() const { return size_; }

    uint64_t u64(int bytes) {
        uint64_t v = 0;
        for (int k = 0; k < bytes; ++k) v = (v << 8) | take();
        return v;
    }
    // An integer in [lo, hi].
    int64_t in(int64_t lo, int64_t hi) {
        return lo + static_cast<int64_t>(u64(4) % static_cast<uint64_t>(hi - lo + 1));
    }
    // Any double bit pattern: NaN, infinities, subnormals and huge values included.
    double raw_double() {
        const uint64_t bits = u64(8);
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    // A short string (for option names and values), up to `max` bytes.
    std::string text(size_t max) {
        size_t n = static_cast<size_t>(take()) % (max + 1);
        if (n > size_) n = size_;
        std::string s(reinterpret_cast<const char *>(data_), n);
        data_ += n;
        size_ -= n;
        return s;
    }

private:
    uint8_t take() {
        if (size_ == 0) return 0;
        --size_;
        return *data_++;
    }
    const uint8_t *data_;
    size_t size_;
};

// The bytes as an anonymous in-memory file, named by /proc/self/fd/N (no
// disk writes, no clean-up of temporary files between runs).
class MemoryFile {
public:
    MemoryFile(const uint8_t *data, size_t size) : fd_(memfd_create("kindred-fuzz", 0)) {
        if (fd_ < 0) std::abort();  // the harness cannot run at all
        for (size_t done = 0; done < size;) {
            const ssize_t w = ::write(fd_, data + done, size - done);
            if (w <= 0) std::abort();
            done += static_cast<size_t>(w);
        }
        path_ = "/proc/self/fd/" + std::to_string(fd_);
    }
    ~MemoryFile() { ::close(fd_); }
    MemoryFile(const MemoryFile &) = delete;
    MemoryFile &operator=(const MemoryFile &) = delete;
    const std::string &path() const { return path_; }

private:
    int fd_;
    std::string path_;
};

// A failure of the C API is one of its documented codes (KINDRED_E_INVALID
// up to the last one, KINDRED_E_BUFFER_TOO_SMALL), other than
// KINDRED_E_INTERNAL (a bug by definition), and comes with a message.
inline void check_status(kindred_status status) {
    if (status == KINDRED_OK) return;
    if (status < KINDRED_E_INVALID || status > KINDRED_E_BUFFER_TOO_SMALL || status == KINDRED_E_INTERNAL) std::abort();
    if (kindred_last_error()[0] == '\0') std::abort();
}

// Copies out every result array of a fitted model whose size is at most
// `max_values` (a loaded file may describe larger ones, already checked).
inline void read_arrays(const kindred_model *m, int64_t max_values) {
    int64_t arrays = 0;
    check_status(kindred_model_array_count(m, &arrays));
    for (int64_t a = 0; a < arrays; ++a) {
        const char *name = nullptr;
        int64_t rows = 0, cols = 0;
        check_status(kindred_model_array_info(m, a, &name, &rows, &cols));
        if (rows * cols > max_values) continue;
        std::vector<double> values(static_cast<size_t>(rows * cols));
        check_status(kindred_model_array(m, name, values.data(), rows * cols));
    }
}

}  // namespace kindred_fuzz

#endif
