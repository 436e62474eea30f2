/* The engine's headers as the generated bits_c.c includes them on Windows (_WIN32), then
 * structs shaped like the Cython ones that follow them there: Board and ListCrew have a member
 * named `small`.  Compiles only if the headers keep <windows.h>'s stray macros out. */
#include <stdio.h>
#include "_bitops.h"
#include "_clocks.h"
#include "_crew.h"

struct Small { uint64_t valid; };
struct Board { struct Small small; int min; int max; };
struct ListCrew { uint8_t *small; };

int main(void) {
    struct Board b = {{1}, 2, 3};
    uint8_t flag = 1;
    struct ListCrew w = {&flag};
    int64_t now = cm_wall_ns();
    if (b.small.valid != 1 || b.min != 2 || b.max != 3 || *w.small != 1 || now <= 0
            || cm_thread_ns() != -1 || CM_HAVE_PACE_CLOCKS != 0)
        return 1;
    printf("ok windows\n");
    return 0;
}
