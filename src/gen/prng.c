/* Deterministic pseudo-random numbers for the generators.
 *
 * Generated platforms are test and benchmark inputs, so "seed S" must name
 * the same file on every machine and libc: rand() and random() do not
 * guarantee that.  xoshiro256** (D. Blackman, S. Vigna, "Scrambled linear
 * pseudorandom number generators", 2018) is small, fast and well tested;
 * its 256-bit state is filled from splitmix64 as its authors recommend. */
#include "src/gen/gen_internal.h"

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void ssched_i_gen_rng_seed(gen_rng_t *rng, uint64_t seed, uint64_t stream)
{
    /* Mix the stream number through splitmix64 first so that neighbouring
     * (seed, stream) pairs do not start from neighbouring states. */
    uint64_t t = stream;
    uint64_t state = seed ^ ssched_i_splitmix64(&t);
    for (int i = 0; i < 4; i++)
        rng->s[i] = ssched_i_splitmix64(&state);
    /* splitmix64 is a bijection of its counter, so four outputs cannot all be
     * zero; keep the guard anyway since the all-zero state is absorbing. */
    if (!(rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]))
        rng->s[0] = 1;
}

uint64_t ssched_i_gen_rng_next(gen_rng_t *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t ssched_i_gen_rng_below(gen_rng_t *rng, uint64_t n)
{
    /* Reject the lowest 2^64 mod n outputs so that every residue is equally
     * likely; at most one retry in two even in the worst case. */
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t r = ssched_i_gen_rng_next(rng);
        if (r >= threshold)
            return r % n;
    }
}
