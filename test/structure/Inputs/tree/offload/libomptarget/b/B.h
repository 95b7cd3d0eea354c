// Unit b.
#include "c/C.h"
