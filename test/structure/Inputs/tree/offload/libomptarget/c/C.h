// Unit c: included by b, includes nothing of the folder.
#include <vector>
