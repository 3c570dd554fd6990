/*
 * A test library that loads cleanly and exports none of the 86
 * module__xdref_* leaves: `q7pred verify --lib` of it can check nothing,
 * which is a usage error, never a PASS.
 */
__attribute__((visibility("default"))) int q7_test_nosyms_add(int a, int b) { return a + b; }
