#include <stdio.h>
#include "q7pred.h"
int main(void) { printf("%zu leaves\n", q7_leaf_count()); return 0; }
