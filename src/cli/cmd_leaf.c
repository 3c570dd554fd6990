/* placeholder: replaced by the owner of this subcommand */
#include "cli.h"
int cmd_list(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("list: not implemented yet"); }
int cmd_call(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("call: not implemented yet"); }
int cmd_demo(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("demo: not implemented yet"); }
