/* vbool fields, the _t gate, mask logic, bitkill, FS bank and bit-plane. */
#include "q7pred.h"
#include "platform/bits.h"

uint32_t q7_field(bool t, unsigned bits) { return t ? ones(bits) : 0; }
uint32_t q7_gate(uint32_t pred, uint32_t value) { return (pred & 1) ? value : 0; }

q7_vbool q7_andb(q7_vbool a, q7_vbool b) { return a & b; }
q7_vbool q7_orb(q7_vbool a, q7_vbool b) { return a | b; }
q7_vbool q7_xorb(q7_vbool a, q7_vbool b) { return a ^ b; }
q7_vbool q7_andnotb(q7_vbool a, q7_vbool b) { return a & ~b; }
q7_vbool q7_ornotb(q7_vbool a, q7_vbool b) { return a | ~b; }
q7_vbool q7_notb(q7_vbool a) { return ~a; }
uint32_t q7_notb1(uint32_t a) { return ~a & 1; }
uint32_t q7_andnotb1(uint32_t a, uint32_t b) { return a & ~b & 1; }
uint32_t q7_ornotb1(uint32_t a, uint32_t b) { return (a | ~b) & 1; }

uint32_t q7_bitkillt(uint32_t pred, unsigned bits) { return (pred & 1) ? 0 : ones(bits); }
uint32_t q7_bitkillf(uint32_t pred, unsigned bits) { return (pred & 1) ? ones(bits) : 0; }

uint32_t q7_fsltu(uint32_t a, uint32_t b) { return q7_ltu(a, b); }

q7_vbool q7_borfs(const q7_vbool m[8])
{
    q7_vbool fs = 0;
    for (int i = 0; i < 8; i++) fs |= m[i];
    return fs;
}

q7_vbool q7_bnorfs(const q7_vbool m[8]) { return ~q7_borfs(m); }

bool q7_extbi(uint32_t val, uint32_t bit, unsigned lane_bits)
{
    return (val >> (bit % lane_bits)) & 1;
}

uint32_t q7_injbi8(uint32_t base, uint32_t pred, uint32_t bit)
{
    uint32_t m = 1u << (bit & 7);
    return (base & ~m) | ((pred & 1) ? m : 0);
}

/* FS_j holds bit-plane j of the 64 bytes: FS_j bit k = bit j of byte k. */
void q7_movfsv(const q7_vec *v, q7_vbool fs[8])
{
    for (int j = 0; j < 8; j++) {
        fs[j] = 0;
        for (int k = 0; k < 64; k++) fs[j] |= (q7_vbool)((v->u8[k] >> j) & 1) << k;
    }
}

void q7_movvfs(const q7_vbool fs[8], q7_vec *v)
{
    for (int k = 0; k < 64; k++) {
        uint8_t byte = 0;
        for (int j = 0; j < 8; j++) byte |= (uint8_t)(((fs[j] >> k) & 1) << j);
        v->u8[k] = byte;
    }
}
