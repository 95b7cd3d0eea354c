// Unit b, through its source file.
#include "b/B.h"
#include "a/A.h"
