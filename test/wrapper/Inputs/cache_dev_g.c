int g(void) { return G_VALUE; }
