/* placeholder: replaced by the owner of this subcommand */
#include "cli.h"
int cmd_bench(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("bench: not implemented yet"); }
