#include "core/model_file.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace kindred {
namespace {

const char kMagic[8] = {'K', 'I', 'N', 'D', 'R', 'E', 'D', 'M'};
const uint32_t kFormatVersion = 1;

// Values are written in the host's byte order, which is little-endian on
// every platform kindred is built for; the magic check rejects a mismatch.
class Writer {
public:
    template <typename T>
    void put(T v) {
        const auto *p = reinterpret_cast<const unsigned char *>(&v);
        bytes.insert(bytes.end(), p, p + sizeof(T));
    }
    void put_string(const std::string &s) {
        put<uint64_t>(s.size());
        bytes.insert(bytes.end(), s.begin(), s.end());
    }
    std::vector<unsigned char> bytes;
};

class Reader {
public:
    Reader(const unsigned char *p, size_t size) : p_(p), left_(size) {}
    template <typename T>
    T get(const char *what) {
        need(sizeof(T), what);
        T v;
        std::memcpy(&v, p_, sizeof(T));
        advance(sizeof(T));
        return v;
    }
    std::string get_string(const char *what) {
        const uint64_t size = get<uint64_t>(what);
        need(size, what);
        std::string s(reinterpret_cast<const char *>(p_), size);
        advance(size);
        return s;
    }
    void need(uint64_t size, const char *what) const {
        if (size > left_) fail(KINDRED_E_CORRUPT, "model file: truncated or corrupt while reading ", what);
    }
    // count items of item_size bytes, without forming count * item_size
    // (a corrupt count could make the product wrap around).
    void need_items(uint64_t count, size_t item_size, const char *what) const {
        if (count > left_ / item_size) fail(KINDRED_E_CORRUPT, "model file: truncated or corrupt while reading ", what);
    }
    size_t left() const { return left_; }

private:
    void advance(size_t s) { p_ += s; left_ -= s; }
    const unsigned char *p_;
    size_t left_;
};

}  // namespace

uint64_t checksum64(const unsigned char *data, size_t size) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t k = 0; k < size; ++k) {
        h ^= data[k];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void write_model_file(const std::string &path, const ModelRecord &record) {
    Writer payload;
    payload.put_string(record.algorithm);
    payload.put<uint64_t>(record.options.size());
    for (const auto &o : record.options) {
        payload.put_string(o.first);
        payload.put_string(o.second);
    }
    const FitResult &r = record.result;
    payload.put<int64_t>(r.n);
    payload.put<int64_t>(r.d);
    payload.put<int64_t>(r.clusters);
    payload.put<int64_t>(r.iterations);
    payload.put<uint8_t>(r.converged ? 1 : 0);
    payload.put<double>(r.objective);
    payload.put<uint64_t>(r.labels.size());
    for (int32_t l : r.labels) payload.put<int32_t>(l);
    payload.put<uint64_t>(r.arrays.size());
    for (const auto &a : r.arrays) {
        payload.put_string(a.name);
        payload.put<int64_t>(a.rows);
        payload.put<int64_t>(a.cols);
        for (double v : a.values) payload.put<double>(v);
    }

    Writer file;
    file.bytes.insert(file.bytes.end(), kMagic, kMagic + 8);
    file.put<uint32_t>(kFormatVersion);
    file.put<uint64_t>(payload.bytes.size());
    file.bytes.insert(file.bytes.end(), payload.bytes.begin(), payload.bytes.end());
    file.put<uint64_t>(checksum64(payload.bytes.data(), payload.bytes.size()));

    // Never truncated in place: a crash or a full disk during the save would
    // destroy the caller's previous model.
    const std::string failed = write_file_atomically(path, file.bytes.data(), file.bytes.size());
    if (!failed.empty()) fail(KINDRED_E_IO, failed);
}

ModelRecord read_model_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(KINDRED_E_IO, "cannot open '", path, "' for reading");
    std::vector<unsigned char> bytes;
    try {
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } catch (const std::ios_base::failure &e) {
        // libstdc++ throws from the stream buffer when read() fails, e.g. on a directory.
        fail(KINDRED_E_IO, "cannot read '", path, "': ", e.what());
    }
    if (in.bad()) fail(KINDRED_E_IO, "cannot read '", path, "'");

    if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0)
        fail(KINDRED_E_CORRUPT, "'", path, "' is not a kindred model file (bad magic number)");
    Reader header(bytes.data() + 8, bytes.size() - 8);
    const uint32_t version = header.get<uint32_t>("the format version");
    if (version != kFormatVersion)
        fail(KINDRED_E_CORRUPT, "'", path, "' has model format version ", version, "; this library reads version ", kFormatVersion);
    const uint64_t size = header.get<uint64_t>("the payload length");
    header.need(size, "the payload");
    const unsigned char *payload = bytes.data() + 8 + 4 + 8;
    Reader tail(payload + size, header.left() - size);
    const uint64_t stored = tail.get<uint64_t>("the checksum");
    if (tail.left() != 0) fail(KINDRED_E_CORRUPT, "'", path, "' has ", tail.left(), " unexpected bytes after the checksum");
    if (stored != checksum64(payload, size)) fail(KINDRED_E_CORRUPT, "'", path, "' is corrupt (checksum mismatch)");

    Reader r(payload, size);
    ModelRecord rec;
    rec.algorithm = r.get_string("the algorithm name");
    const uint64_t n_options = r.get<uint64_t>("the option count");
    for (uint64_t k = 0; k < n_options; ++k) {
        std::string name = r.get_string("an option name");
        std::string text = r.get_string("an option value");
        rec.options.emplace_back(std::move(name), std::move(text));
    }
    FitResult &f = rec.result;
    f.n = r.get<int64_t>("n");
    f.d = r.get<int64_t>("d");
    f.clusters = r.get<int64_t>("the cluster count");
    f.iterations = r.get<int64_t>("the iteration count");
    f.converged = r.get<uint8_t>("the converged flag") != 0;
    f.objective = r.get<double>("the objective");
    const uint64_t n_labels = r.get<uint64_t>("the label count");
    r.need_items(n_labels, sizeof(int32_t), "the labels");
    f.labels.resize(n_labels);
    for (auto &l : f.labels) l = r.get<int32_t>("a label");
    const uint64_t n_arrays = r.get<uint64_t>("the array count");
    for (uint64_t k = 0; k < n_arrays; ++k) {
        NamedArray a;
        a.name = r.get_string("an array name");
        a.rows = r.get<int64_t>("an array shape");
        a.cols = r.get<int64_t>("an array shape");
        if (a.rows < 0 || a.cols < 0 || (a.cols > 0 && a.rows > INT64_MAX / 8 / a.cols))
            fail(KINDRED_E_CORRUPT, "model file: array '", a.name, "' has an impossible shape");
        r.need(static_cast<uint64_t>(a.rows * a.cols) * sizeof(double), "an array");
        a.values.resize(static_cast<size_t>(a.rows * a.cols));
        for (auto &v : a.values) v = r.get<double>("an array value");
        f.arrays.push_back(std::move(a));
    }
    if (r.left() != 0) fail(KINDRED_E_CORRUPT, "model file: ", r.left(), " unexpected bytes at the end of the payload");
    if (f.n <= 0 || f.d <= 0 || static_cast<int64_t>(f.labels.size()) != f.n)
        fail(KINDRED_E_CORRUPT, "model file: inconsistent sizes (n = ", f.n, ", d = ", f.d, ", ", f.labels.size(), " labels)");
    // The checksum catches accidents, not a file written by hand: check the
    // counts and labels the C API hands out as well. (Labels may exceed the
    // cluster count: tcs-* keep the caller's class ids.)
    if (f.clusters < 1 || f.clusters > INT32_MAX || f.iterations < 0)
        fail(KINDRED_E_CORRUPT, "model file: impossible counts (", f.clusters, " clusters, ", f.iterations, " iterations)");
    for (size_t i = 0; i < f.labels.size(); ++i)
        if (f.labels[i] < -1) fail(KINDRED_E_CORRUPT, "model file: label ", f.labels[i], " of point ", i, " is below -1");
    return rec;
}

}  // namespace kindred
