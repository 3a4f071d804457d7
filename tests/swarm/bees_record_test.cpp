// The order-preserving keys gpu-bees folds its per-cycle bests with (cuba_record.h): key order must be
// value order for every sign and magnitude, decode must invert encode, and the memset fill must sit
// above every value, NaN included.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "bees/cuba_record.h"

namespace {

template <typename Real>
void check_order() {
    using swarm::bees::from_ordered_key;
    using swarm::bees::ordered_key;
    const Real inf = std::numeric_limits<Real>::infinity();
    const std::vector<Real> sorted = {-inf, Real(-837.97), Real(-1), Real(-1e-30), Real(-0.0), Real(0),
                                      std::numeric_limits<Real>::denorm_min(), Real(1e-3), Real(1), Real(3),
                                      std::numeric_limits<Real>::max(), inf};
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        const Real back = from_ordered_key<Real>(ordered_key(sorted[i]));
        EXPECT_EQ(back, sorted[i]);
        EXPECT_EQ(std::signbit(back), std::signbit(sorted[i])) << i;
        if (i > 0) {
            EXPECT_LT(ordered_key(sorted[i - 1]), ordered_key(sorted[i])) << i;
        }
    }
    const auto nan = ordered_key(std::numeric_limits<Real>::quiet_NaN());
    const auto neg_nan = ordered_key(-std::numeric_limits<Real>::quiet_NaN());
    const auto empty = ~swarm::bees::KeyWord<Real>(0);
    EXPECT_GT(nan, ordered_key(inf));
    EXPECT_GT(neg_nan, ordered_key(inf));
    EXPECT_LT(nan, empty);
    EXPECT_TRUE(std::isnan(from_ordered_key<Real>(nan)));
}

TEST(BeesRecord, FloatKeysFollowValueOrder) { check_order<float>(); }
TEST(BeesRecord, DoubleKeysFollowValueOrder) { check_order<double>(); }

} // namespace
