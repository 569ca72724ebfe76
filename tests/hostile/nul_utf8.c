/* Threat: prints NUL bytes and invalid UTF-8 where the board belongs. */
#include <stdio.h>
int main(void) {
    const char bytes[] = "Enter the board dimension: \0\xff\xfe\xc3\x28 abcd\n\x80\x81\n";
    fwrite(bytes, 1, sizeof bytes - 1, stdout);
    return 0;
}
