// Calls into the archives of archive-extraction.test.
#include <cstdio>
int aEntry(int);
int main() { std::printf("result=%d\n", aEntry(1)); }
