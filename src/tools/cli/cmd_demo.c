/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `q7pred demo`: the spec's section 10 driver, computed through the
 * exported symbols.
 */
#include <string.h>

#include "cli.h"
#include "options.h"
#include "q7pred_xdref.h"

/* The spec's section 10 driver, line for line, through the exported ABI
 * symbols with the same arguments (xstate NULL, result pointers as bound
 * there). Its output is the page's captured output. */
static void demo(void)
{
    uint32_t o = 0, aux = 0;
    module__xdref_oeq_1_1_16f_16f(NULL, 0x3c00, 0x3c00, &aux, &o);
    printf("oeq(1,1)        = %u\n", o);
    module__xdref_oeq_1_1_16f_16f(NULL, 0x3c00, 0x7e00, &aux, &o);
    printf("oeq(1,qNaN)     = %u\n", o);
    module__xdref_un_1_1_16f_16f(NULL, 0x3c00, 0x7e00, &o);
    printf("un(1,qNaN)      = %u\n", o);
    module__xdref_clsfy_16f_16f(NULL, 0x7c01, &o);
    printf("clsfy(sNaN 0x7c01) = 0x%02x\n", o);
    module__xdref_clsfy_16f_16f(NULL, 0x7e00, &o);
    printf("clsfy(qNaN 0x7e00) = 0x%02x\n", o);
    module__xdref_clsfy_16f_16f(NULL, 0x3c00, &o);
    printf("clsfy(+1.0)        = 0x%02x\n", o);
    module__xdref_lt_2_16_16(NULL, 0x8000, 0x0001, &o);
    printf("lt (0x8000,1)  = 0x%x\n", o);
    module__xdref_ltu_2_16_16(NULL, 0x8000, 0x0001, &o);
    printf("ltu(0x8000,1)  = 0x%x\n", o);
    module__xdref_bitkillt_16_2(NULL, 1, &o);
    printf("bitkillt(pred=1) = 0x%04x\n", o);
    module__xdref_bitkillt_16_2(NULL, 0, &o);
    printf("bitkillt(pred=0) = 0x%04x\n", o);
}

typedef struct demo_args {
    bool help;
} demo_args;

/* demo takes no option but --help, and no operand */
static const cli_options demo_options = { "demo", NULL, 0, offsetof(demo_args, help), NULL, 0, NULL, false };

static int demo_parse(void *args, int argc, char **argv)
{
    return cli_options_parse(&demo_options, args, argc, argv);
}

static int demo_run(void *args)
{
    const demo_args *a = args;
    if (a->help) {
        fputs("usage: q7pred demo [--]\n"
              "\n"
              "Prints the captured output of the spec's section 10 driver (the NaN split,\n"
              "the sNaN/qNaN classify, the signed/unsigned separator and the bitkillt\n"
              "merge mask), each value computed by a call of this library's exported\n"
              "module__xdref_* symbol with the driver's arguments.\n"
              "\n"
              "Exit status: 0, or 2 on a usage error (demo takes no arguments).\n"
              "\n"
              "examples:\n"
              "  q7pred demo\n",
              stdout);
        return CLI_OK;
    }
    demo();
    return CLI_OK;
}

const cli_command cli_cmd_demo = {
    "demo", "the spec's section 10 driver, computed by the library", sizeof(demo_args), demo_parse, demo_run, NULL, NULL,
};
