#include "agent/options.h"

#include <gtest/gtest.h>
