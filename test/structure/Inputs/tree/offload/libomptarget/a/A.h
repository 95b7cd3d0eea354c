// Unit a: includes b, which includes a back.
#include "b/B.h"
