/* placeholder: replaced by the owner of this subcommand */
#include "cli.h"
int cmd_verify(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("verify: not implemented yet"); }
int cmd_merge(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("merge: not implemented yet"); }
