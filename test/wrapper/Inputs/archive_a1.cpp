// libA member 1: needed by main, needs bEntry from libB.
int bEntry(int);
int aEntry(int X) { return bEntry(X) + 1; }
