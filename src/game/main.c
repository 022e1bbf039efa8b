/* main.c — placeholder until the game module lands. */
#include <stdio.h>
int main(void) { puts("strata"); return 0; }
