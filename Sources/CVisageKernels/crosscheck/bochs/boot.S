// The boot sector that runs vectors.c on Bochs with no operating system (the AVX-512 set's check on
// a machine without AVX-512; Scripts/check-kernels-cross.sh builds it). The BIOS loads it at 0x7C00 in
// real mode; it identity-maps the first GiB with 2 MiB pages, enters 64-bit long mode, enables SSE,
// AVX and AVX-512 state (CR4.OSFXSR/OSXMMEXCPT/OSXSAVE, XCR0 = x87|SSE|AVX|opmask|ZMM), and calls the
// harness Bochs loaded at 0x4000000 (64 MiB: the BIOS writes below) (bare.c's `_start`) with a stack below 0x1000000. When it returns,
// it writes "Shutdown" to Bochs's port 0x8900, which ends the emulator.
    .code16
    .globl boot
boot:
    cli
    xor %ax, %ax
    mov %ax, %ds
    mov %ax, %es
    mov %ax, %ss
    mov $0x7C00, %sp
    // Fast A20.
    in $0x92, %al
    or $2, %al
    out %al, $0x92
    // Page tables at 0x1000 (PML4), 0x2000 (PDPT), 0x3000 (one directory of 512 × 2 MiB pages).
    mov $0x1000, %di
    mov $0x3000, %cx
    xor %eax, %eax
    rep stosb
    movl $0x2003, 0x1000
    movl $0x3003, 0x2000
    mov $0x3000, %di
    mov $0x83, %eax            // present, writable, 2 MiB page
    mov $512, %cx
1:  movl %eax, (%di)
    add $0x200000, %eax
    add $8, %di
    loop 1b
    lgdtl gdt_pointer
    mov %cr4, %eax
    or $0x20, %eax             // PAE
    mov %eax, %cr4
    mov $0x1000, %eax
    mov %eax, %cr3
    mov $0xC0000080, %ecx      // EFER.LME
    rdmsr
    or $0x100, %eax
    wrmsr
    mov %cr0, %eax
    or $0x80000001, %eax       // paging, protection
    mov %eax, %cr0
    ljmpl $0x08, $long_mode

    .code64
long_mode:
    mov $0x10, %ax
    mov %ax, %ds
    mov %ax, %es
    mov %ax, %ss
    mov %ax, %fs
    mov %ax, %gs
    mov $0x1000000, %rsp
    mov %cr0, %rax
    and $~0x4, %rax            // EM off
    or $0x2, %rax              // MP on
    mov %rax, %cr0
    mov %cr4, %rax
    or $0x40600, %rax          // OSFXSR, OSXMMEXCPT, OSXSAVE
    mov %rax, %cr4
    xor %ecx, %ecx
    mov $0xE7, %eax            // x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM
    xor %edx, %edx
    xsetbv
    mov $0x4000000, %rax
    call *%rax
    mov $0x8900, %dx
    lea shutdown(%rip), %rsi
    mov $8, %rcx
2:  lodsb
    out %al, %dx
    loop 2b
3:  hlt
    jmp 3b

shutdown:
    .ascii "Shutdown"
    .p2align 3
gdt:
    .quad 0
    .quad 0x00AF9A000000FFFF       // 64-bit code
    .quad 0x00CF92000000FFFF       // data
gdt_pointer:
    .word gdt_pointer - gdt - 1
    .long gdt
    .org 510
    .word 0xAA55
