/* Threat: includes a file only root may read; the compiler's error message would quote its
   first line in the build log. */
#include "/etc/shadow"
int main(void) {
    return 0;
}
