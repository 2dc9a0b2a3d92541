// The one random generator of kindred: xoshiro256** seeded through splitmix64,
// with our own transformations to uniform, normal, gamma and beta variates, so
// that the same seed gives the same numbers on every platform and standard
// library (std:: distributions are implementation-defined).
#ifndef KINDRED_CORE_RNG_HPP
#define KINDRED_CORE_RNG_HPP

#include <cstdint>
#include <vector>

namespace kindred {

class Rng {
public:
    explicit Rng(uint64_t seed = 0);

    uint64_t next_u64();
    // Uniform in [0, 1) with 53 random bits.
    double uniform();
    // Uniform integer in [0, n), n > 0, without modulo bias.
    int64_t below(int64_t n);
    double normal();
    // Gamma(shape, 1), shape > 0 (Marsaglia & Tsang, with the boost for shape < 1).
    double gamma(double shape);
    double beta(double a, double b);
    // Index drawn with probability weights[i] / sum(weights); weights >= 0, sum > 0.
    int64_t categorical(const double *weights, int64_t count);
    template <typename T>
    void shuffle(std::vector<T> &v) {
        for (int64_t i = static_cast<int64_t>(v.size()) - 1; i > 0; --i) {
            int64_t j = below(i + 1);
            T t = v[i]; v[i] = v[j]; v[j] = t;
        }
    }
    // A generator for sub-task `stream` (a restart, a repeat) that does not
    // overlap this one in practice and does not advance it.
    Rng derive(uint64_t stream) const;

private:
    uint64_t s_[4];
    uint64_t seed_;
};

}  // namespace kindred

#endif
