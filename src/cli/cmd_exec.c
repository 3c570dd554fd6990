/* placeholder: replaced by the owner of this subcommand */
#include "cli.h"
int cmd_exec(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("exec: not implemented yet"); }
