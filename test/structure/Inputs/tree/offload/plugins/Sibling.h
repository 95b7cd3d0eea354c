#pragma once
// Stays inside offload/ but climbs out of its own folder: reach lib/ through
// an include directory instead.

#include "../lib/Local.h"
