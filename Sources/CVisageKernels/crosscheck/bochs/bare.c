// What vectors.c and the kernels need from a C library, for running them on Bochs with no operating
// system (see boot.S): output to the first serial port (Bochs writes it to a file), a bump allocator, the string functions, expf for
// the portable logistic, and `_start`, which Bochs loads at 0x4000000 (in 128 KiB optional RAM images,
// the most Bochs loads from one). The vector file is read from the first ATA disk into VECTORS_ADDRESS,
// after a 16-byte header: "VBAR", its byte count, a mask of the kernel sets to run (bit n: visage_isa
// n; 0: every available set), and a mask of the sets whose warp runs are skipped.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define VECTORS_ADDRESS 0x10000000u
#define HEAP_END 0x0F000000u

int vectors_run(const uint32_t *data, size_t word_count, unsigned set_mask);
extern unsigned vectors_skip_warp;

static unsigned char inb(unsigned short port) {
    unsigned char v;
    __asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}
static void outb(unsigned short port, unsigned char v) { __asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port)); }

/// Reads `count` (1–256) sectors from LBA `lba` of the primary ATA master by PIO.
static void read_sectors(uint32_t lba, unsigned count, void *to) {
    while (inb(0x1F7) & 0x80) {}
    outb(0x1F6, (unsigned char)(0xE0 | ((lba >> 24) & 0x0F)));
    outb(0x1F2, (unsigned char)count);
    outb(0x1F3, (unsigned char)lba);
    outb(0x1F4, (unsigned char)(lba >> 8));
    outb(0x1F5, (unsigned char)(lba >> 16));
    outb(0x1F7, 0x20);  // READ SECTORS
    uint16_t *p = to;
    for (unsigned s = 0; s < (count ? count : 256); s++) {
        while ((inb(0x1F7) & 0x88) != 0x08) {}  // not busy, data ready
        __asm__ __volatile__("rep insw" : "+D"(p), "+c"((unsigned long){256}) : "d"((unsigned short)0x1F0) : "memory");
    }
}

static void put(char c);

/// Ends Bochs (its port 0x8900 shutdown sequence) once the serial port has sent everything.
static void shutdown(void) {
    while (!(inb(0x3FD) & 0x40)) {}
    for (const char *p = "Shutdown"; *p; p++) outb(0x8900, (unsigned char)*p);
    for (;;) __asm__ __volatile__("cli; hlt");
}

static void put(char c) {
    unsigned char status;
    do __asm__ __volatile__("inb %1, %0" : "=a"(status) : "Nd"((unsigned short)0x3FD)); while (!(status & 0x20));
    __asm__ __volatile__("outb %0, %1" : : "a"(c), "Nd"((unsigned short)0x3F8));
}

// ---- memory
extern char __bss_start[], _end[];
static uintptr_t heap;

void *malloc(size_t n) {
    heap = (heap + 63) & ~(uintptr_t)63;
    if (heap + n > HEAP_END) {
        const char *m = "bare: out of memory\n";
        while (*m) put(*m++);
        shutdown();
    }
    void *p = (void *)heap;
    heap += n;
    return p;
}
void free(void *p) { (void)p; }
void *memset(void *d, int c, size_t n) { unsigned char *p = d; while (n--) *p++ = (unsigned char)c; return d; }
void *calloc(size_t count, size_t size) { return memset(malloc(count * size), 0, count * size); }
void *memcpy(void *d, const void *s, size_t n) { unsigned char *p = d; const unsigned char *q = s; while (n--) *p++ = *q++; return d; }
void *memmove(void *d, const void *s, size_t n) {
    unsigned char *p = d; const unsigned char *q = s;
    if (p < q) while (n--) *p++ = *q++; else while (n--) p[n] = q[n];
    return d;
}
int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *p = a, *q = b;
    for (; n--; p++, q++) if (*p != *q) return *p - *q;
    return 0;
}
size_t strlen(const char *s) { size_t n = 0; while (s[n]) n++; return n; }
int strcmp(const char *a, const char *b) { while (*a && *a == *b) a++, b++; return (unsigned char)*a - (unsigned char)*b; }
char *getenv(const char *name) { (void)name; return NULL; }
void abort(void) {
    const char *m = "bare: abort\n";
    while (*m) put(*m++);
    shutdown();
}

// ---- math: what the portable logistic calls; double-precision range reduction and series, so it
// is within an ulp of the correctly rounded float.
float fabsf(float x) { return __builtin_fabsf(x); }
float expf(float xf) {
    const double x = xf;
    if (x != x) return xf;
    if (x > 89) return __builtin_inff();
    if (x < -104) return 0;
    const double ln2 = 0.6931471805599453;
    const int k = (int)(x / ln2 + (x < 0 ? -0.5 : 0.5));
    const double r = x - k * ln2;
    double term = 1, sum = 1;
    for (int i = 1; i < 16; i++) { term *= r / i; sum += term; }
    union { double d; uint64_t u; } scale = {.u = (uint64_t)(1023 + k) << 52};
    if (1023 + k <= 0) { scale.u = (uint64_t)(1023 + k + 64) << 52; return (float)(sum * scale.d / 18446744073709551616.0); }
    return (float)(sum * scale.d);
}

// ---- formatting: %d %u %zu %s %c %g (with an optional precision) and %%.
typedef struct sink { char *buffer; size_t size, length; } sink;
static void emit(sink *s, char c) {
    if (s->buffer == NULL) put(c);
    else if (s->length + 1 < s->size) s->buffer[s->length] = c;
    s->length++;
}
static void emit_unsigned(sink *s, unsigned long long v) {
    char digits[24];
    int n = 0;
    do { digits[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n) emit(s, digits[--n]);
}
static void emit_double(sink *s, double v, int precision) {
    if (v != v) { emit(s, 'n'); emit(s, 'a'); emit(s, 'n'); return; }
    if (v < 0) { emit(s, '-'); v = -v; }
    if (v > 1e300) { emit(s, 'i'); emit(s, 'n'); emit(s, 'f'); return; }
    int exponent = 0;
    if (v != 0) {
        while (v >= 10) { v /= 10; exponent++; }
        while (v < 1) { v *= 10; exponent--; }
    }
    // d.ddd…e±xx with `precision` significant digits.
    unsigned long long scaled = 1;
    for (int i = 1; i < precision; i++) scaled *= 10;
    unsigned long long digits = (unsigned long long)(v * (double)scaled + 0.5);
    if (digits >= scaled * 10) { digits /= 10; exponent++; }
    char text[24];
    int n = 0;
    for (int i = 0; i < precision; i++) { text[n++] = (char)('0' + digits % 10); digits /= 10; }
    emit(s, text[--n]);
    if (n) emit(s, '.');
    while (n) emit(s, text[--n]);
    emit(s, 'e');
    if (exponent < 0) { emit(s, '-'); exponent = -exponent; } else emit(s, '+');
    emit_unsigned(s, (unsigned long long)exponent);
}
static void format(sink *s, const char *f, va_list args) {
    for (; *f; f++) {
        if (*f != '%') { emit(s, *f); continue; }
        f++;
        int precision = 6;
        if (*f == '.') { precision = 0; for (f++; *f >= '0' && *f <= '9'; f++) precision = precision * 10 + (*f - '0'); }
        int size_t_arg = 0;
        if (*f == 'z') { size_t_arg = 1; f++; }
        switch (*f) {
        case 'd': { long long v = size_t_arg ? (long long)va_arg(args, size_t) : va_arg(args, int);
                    if (v < 0) { emit(s, '-'); v = -v; } emit_unsigned(s, (unsigned long long)v); break; }
        case 'u': emit_unsigned(s, size_t_arg ? va_arg(args, size_t) : va_arg(args, unsigned)); break;
        case 's': { const char *t = va_arg(args, const char *); while (*t) emit(s, *t++); break; }
        case 'c': emit(s, (char)va_arg(args, int)); break;
        case 'g': emit_double(s, va_arg(args, double), precision < 1 ? 1 : precision > 17 ? 17 : precision); break;
        case '%': emit(s, '%'); break;
        default: emit(s, '?'); break;
        }
    }
}
int printf(const char *f, ...) {
    sink s = {NULL, 0, 0};
    va_list args;
    va_start(args, f);
    format(&s, f, args);
    va_end(args);
    return (int)s.length;
}
int snprintf(char *buffer, size_t size, const char *f, ...) {
    sink s = {buffer, size, 0};
    va_list args;
    va_start(args, f);
    format(&s, f, args);
    va_end(args);
    if (size) buffer[s.length < size ? s.length : size - 1] = 0;
    return (int)s.length;
}

// ---- exceptions: each of the 32 vectors reports its number and the words on its stack (the error
// code where there is one, then RIP), then halts, instead of Bochs's triple fault and reset.
__asm__(".text\n.p2align 4\ntrap_stubs:\n"
        ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
        ".p2align 4\npushq $\\n\njmp trap_common\n.endr\n"
        "trap_common:\nmov %rsp, %rdi\nand $-16, %rsp\ncall trap_report\n1: cli\nhlt\njmp 1b\n");
extern char trap_stubs[];
void trap_report(const uint64_t *stack) {
    printf("bare: exception %u, stack %u %u %u (rip is the first or second)\n", (unsigned)stack[0], (unsigned)stack[1],
           (unsigned)stack[2], (unsigned)stack[3]);
    shutdown();
}
static struct __attribute__((packed)) { uint16_t low, selector; uint8_t ist, type; uint16_t middle; uint32_t high, zero; } idt[32];

__attribute__((section(".text.start"))) void _start(void) {
    memset(__bss_start, 0, (size_t)(_end - __bss_start));
    heap = (uintptr_t)_end;
    // The serial port: 8 data bits, no parity, one stop bit (it starts at 5 bits).
    outb(0x3FB, 0x80);
    outb(0x3F8, 1);
    outb(0x3F9, 0);
    outb(0x3FB, 0x03);
    for (int n = 0; n < 32; n++) {
        const uint64_t handler = (uint64_t)(uintptr_t)trap_stubs + 16 * (uint64_t)n;
        idt[n].low = (uint16_t)handler;
        idt[n].selector = 0x08;
        idt[n].type = 0x8E;  // present, interrupt gate
        idt[n].middle = (uint16_t)(handler >> 16);
        idt[n].high = (uint32_t)(handler >> 32);
    }
    struct __attribute__((packed)) { uint16_t limit; uint64_t base; } pointer = {sizeof idt - 1, (uint64_t)(uintptr_t)idt};
    __asm__ __volatile__("lidt %0" : : "m"(pointer));
    uint32_t *header = (uint32_t *)(uintptr_t)VECTORS_ADDRESS;
    read_sectors(0, 1, header);
    if (header[0] != 0x52414256u) {  // "VBAR"
        printf("bare: no vector file on the disk\n");
        return;
    }
    const uint32_t sectors = (16 + header[1] + 511) / 512;
    for (uint32_t lba = 1; lba < sectors; lba += 128) {
        const unsigned count = sectors - lba < 128 ? sectors - lba : 128;
        read_sectors(lba, count, (char *)header + 512 * (size_t)lba);
    }
    vectors_skip_warp = header[3];
    const int failed = vectors_run(header + 4, header[1] / 4, header[2]);
    printf("bare: exit %d\n\n", failed ? 1 : 0);
    while (!(inb(0x3FD) & 0x40)) {}  // transmitter empty before boot.S shuts Bochs down
}
