#pragma once
// The long whole-tracker runs (the scenes, the real-footage runs over many frames) skip where
// TRACKER_SKIP_LONG_RUNS is set: the sanitizer pass of scripts/test.sh, where they would repeat, at several times
// the cost, code that the unit tests and the normal pass already cover.
#include <gtest/gtest.h>

#include <cstdlib>

#define SKIP_WHERE_LONG_RUNS_ARE_OFF()                                                                                 \
    if (std::getenv("TRACKER_SKIP_LONG_RUNS") != nullptr) GTEST_SKIP() << "TRACKER_SKIP_LONG_RUNS is set"
