/* Threat: does not compile. */
int main(void) {
    return 0
}
