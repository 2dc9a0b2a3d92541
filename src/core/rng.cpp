#include "core/rng.hpp"

#include <cmath>

namespace kindred {
namespace {

uint64_t splitmix64(uint64_t &state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Rng::Rng(uint64_t seed) : seed_(seed) {
    uint64_t st = seed;
    for (auto &w : s_) w = splitmix64(st);
}

uint64_t Rng::next_u64() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

double Rng::uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

int64_t Rng::below(int64_t n) {
    // Lemire's multiply-shift with rejection of the biased low range.
    const uint64_t range = static_cast<uint64_t>(n);
    unsigned __int128 m = static_cast<unsigned __int128>(next_u64()) * range;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < range) {
        const uint64_t threshold = (0 - range) % range;
        while (low < threshold) {
            m = static_cast<unsigned __int128>(next_u64()) * range;
            low = static_cast<uint64_t>(m);
        }
    }
    return static_cast<int64_t>(m >> 64);
}

double Rng::normal() {
    // Marsaglia's polar method; the second variate is dropped so that the
    // generator carries no hidden cache.
    double u, v, s;
    do {
        u = 2.0 * uniform() - 1.0;
        v = 2.0 * uniform() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * std::sqrt(-2.0 * std::log(s) / s);
}

double Rng::gamma(double shape) {
    if (shape < 1.0) {
        double u;
        do { u = uniform(); } while (u == 0.0);
        return gamma(shape + 1.0) * std::pow(u, 1.0 / shape);
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do {
            x = normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = uniform();
        if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
        if (u > 0.0 && std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
    }
}

double Rng::beta(double a, double b) {
    const double x = gamma(a);
    const double y = gamma(b);
    return x / (x + y);
}

int64_t Rng::categorical(const double *weights, int64_t count) {
    double total = 0.0;
    for (int64_t i = 0; i < count; ++i) total += weights[i];
    double r = uniform() * total;
    int64_t last_positive = 0;
    for (int64_t i = 0; i < count; ++i) {
        if (weights[i] > 0.0) last_positive = i;
        if (r < weights[i]) return i;
        r -= weights[i];
    }
    return last_positive;  // rounding left r just above the last weight
}

Rng Rng::derive(uint64_t stream) const {
    uint64_t st = seed_ ^ (0xD1B54A32D192ED03ULL * (stream + 1));
    return Rng(splitmix64(st));
}

}  // namespace kindred
