/* LUDO-CS model solution: the rules (traditional 1-11, CS-1 to CS-15 as ruled), the four
 * behaviours and the section-3 messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types.h"

enum policy { NEVER_ENTER, STRICT_ENTER };
enum choice_kind { NO_CHOICE, ENTER, SINGLE, BLOCK, STOPPED };

/* What a colour does with one roll. */
struct choice {
    enum choice_kind kind;
    int index;              /* ENTER, SINGLE, STOPPED: the piece */
    struct walk walk;       /* SINGLE and STOPPED */
    int steps;
    struct location would;  /* STOPPED: where the full roll would have gone */
    int square;             /* BLOCK */
    enum direction dir;
    int count;
    int members[PIECES];
    struct walk member_walks[PIECES];
};

static const char *NAMES[PLAYERS] = {"Red", "Green", "Yellow", "Blue"};
static const char *LOWER[PLAYERS] = {"red", "green", "yellow", "blue"};
static const char LETTERS[PLAYERS] = {'R', 'G', 'Y', 'B'};
static const int STARTS[PLAYERS] = {26, 39, 0, 13};
/* Bhawana, Kotuwa and Pita-Kotuwa: 9, 27 and 46 squares on from Yellow's Approach (50). */
static const int BHAWANA = 7, KOTUWA = 25, PITA_KOTUWA = 44;

static int approach(int c) { return (STARTS[c] + SQUARES - 2) % SQUARES; }

static int step(int square, enum direction dir)
{
    return dir == CLOCKWISE ? (square + 1) % SQUARES : (square + SQUARES - 1) % SQUARES;
}

static int random_below(int n) { return rand() % n; }

static const char *render(int c, struct location loc, char *buf)
{
    switch (loc.kind) {
    case BASE: return "Base";
    case HOME: return "Home";
    case SQUARE: sprintf(buf, "%d", loc.n); return buf;
    default: sprintf(buf, "%shomepath%d", LOWER[c], loc.n); return buf;
    }
}

static int at_square(const struct piece *p, int square)
{
    return p->loc.kind == SQUARE && p->loc.n == square;
}

static int count_at(const struct game *g, int c, int square)
{
    int n = 0;
    for (int i = 0; i < PIECES; i++)
        n += at_square(&g->pieces[c][i], square);
    return n;
}

static int opponents_at(const struct game *g, int c, int square)
{
    int n = 0;
    for (int k = 0; k < PLAYERS; k++)
        if (k != c)
            n += count_at(g, k, square);
    return n;
}

/* A piece of an opposing block (two or more pieces of one other colour) on the square. */
static int opposing_block(const struct game *g, int c, int square, int *bc, int *bi)
{
    for (int k = 0; k < PLAYERS; k++) {
        if (k == c || count_at(g, k, square) < 2)
            continue;
        for (int i = 0; i < PIECES; i++)
            if (at_square(&g->pieces[k][i], square)) {
                *bc = k;
                *bi = i;
                return 1;
            }
    }
    return 0;
}

static void reset_piece(struct piece *p)
{
    memset(p, 0, sizeof *p);
    p->loc.kind = BASE;
    p->briefing_round = -1;
}

static int briefed(const struct game *g, const struct piece *p)
{
    return p->briefing_round >= 0 && g->round < p->briefing_round + EFFECT_ROUNDS;
}

static int steps_for(const struct game *g, const struct piece *p, int roll)
{
    if (p->aura == NO_AURA || g->round >= p->aura_round + EFFECT_ROUNDS)
        return roll;
    return p->aura == ENERGISED ? roll * 2 : roll / 2;
}

static int distance_home(const struct game *g, int c, int i)
{
    const struct piece *p = &g->pieces[c][i];
    int to_approach, arrivals;
    switch (p->loc.kind) {
    case BASE: return 1000;
    case HOME: return 0;
    case HOME_PATH: return HOME_CELLS - p->loc.n;
    default:
        if (p->dir == CLOCKWISE)
            to_approach = (approach(c) + SQUARES - p->loc.n) % SQUARES;
        else
            to_approach = (p->loc.n + SQUARES - approach(c)) % SQUARES;
        /* A lap more when the next arrival does not open the home straight yet. */
        arrivals = p->loc.n == approach(c) ? p->passes : p->passes + 1;
        if (arrivals < (p->dir == CLOCKWISE ? 1 : 2))
            to_approach += SQUARES;
        return to_approach + HOME_CELLS + 1;
    }
}

/* Walks a piece; a block of `group` pieces may land on a block no larger than itself. */
static struct walk walk_piece(const struct game *g, int c, int i, enum direction dir, int steps,
                              enum policy policy, int group, int count_passes)
{
    const struct piece *p = &g->pieces[c][i];
    struct walk w = {REACHED, p->loc, p->passes, 0, -1, -1};
    for (int done = 0; done < steps; done++) {
        struct location next;
        struct location cur = w.dest;
        if (cur.kind == SQUARE) {
            int enter = cur.n == approach(c) && policy == STRICT_ENTER && p->captures >= 1 &&
                        (dir == CLOCKWISE ? w.passes >= 1 : w.passes >= 2);
            next.kind = enter ? HOME_PATH : SQUARE;
            next.n = enter ? 0 : step(cur.n, dir);
        } else if (cur.kind == HOME_PATH) {
            next.kind = cur.n + 1 < HOME_CELLS ? HOME_PATH : HOME;
            next.n = cur.n + 1 < HOME_CELLS ? cur.n + 1 : 0;
        } else {
            w.result = OVERSHOOT;
            return w;
        }
        if (next.kind == SQUARE) {
            int bc, bi;
            if (opposing_block(g, c, next.n, &bc, &bi)) {
                int capturable = 1;
                for (int k = 0; k < PLAYERS; k++) {
                    int n = count_at(g, k, next.n);
                    if (k != c && n > 1 && n > group)
                        capturable = 0;
                }
                if (!(done + 1 == steps && group >= 2 && capturable)) {
                    w.result = BLOCKED;
                    w.steps_done = done;
                    w.blocker_colour = bc;
                    w.blocker_index = bi;
                    return w;
                }
            }
            if (next.n == approach(c) && count_passes)
                w.passes++;
        }
        w.dest = next;
    }
    return w;
}

/* The lowest base piece that can come out to X on this roll (Rule 2), or -1. */
static int entry_piece(const struct game *g, int c, int roll)
{
    int bc, bi;
    if (roll != 6 || opposing_block(g, c, STARTS[c], &bc, &bi))
        return -1;
    for (int i = 0; i < PIECES; i++)
        if (g->pieces[c][i].loc.kind == BASE)
            return i;
    return -1;
}

/* The move a piece can make alone: 0 none, else REACHED or BLOCKED + 1 in *w. */
static int single_move(const struct game *g, int c, int i, int roll, struct walk *w, int *steps)
{
    const struct piece *p = &g->pieces[c][i];
    if ((p->loc.kind != SQUARE && p->loc.kind != HOME_PATH) || briefed(g, p))
        return 0;
    *steps = steps_for(g, p, roll);
    if (*steps == 0)
        return 0;
    *w = walk_piece(g, c, i, p->dir, *steps, STRICT_ENTER, 1, 1);
    return w->result == OVERSHOOT ? 0 : 1;
}

/* Where the full roll would go with no opponent in the way (for the blocked message). */
static struct location unblocked(const struct game *g, int c, int i, int steps)
{
    static struct game alone;
    struct walk w;
    for (int k = 0; k < PLAYERS; k++)
        for (int j = 0; j < PIECES; j++)
            reset_piece(&alone.pieces[k][j]);
    alone.pieces[c][i] = g->pieces[c][i];
    alone.round = g->round;
    w = walk_piece(&alone, c, i, g->pieces[c][i].dir, steps, STRICT_ENTER, 1, 1);
    return w.result == REACHED ? w.dest : g->pieces[c][i].loc;
}

/* The first block (lowest square) that can move by roll / members (CS-4). */
static int block_move(const struct game *g, int c, int roll, struct choice *out)
{
    for (int square = 0; square < SQUARES; square++) {
        int ids[PIECES], n = 0, far = -1;
        for (int i = 0; i < PIECES; i++) {
            const struct piece *p = &g->pieces[c][i];
            if (at_square(p, square) && !briefed(g, p))
                ids[n++] = i;
        }
        if (n < 2 || roll / n == 0)
            continue;
        /* A mixed block moves in the direction of the member farthest from home. */
        for (int k = 0; k < n; k++)
            if (far < 0 || distance_home(g, c, ids[k]) > distance_home(g, c, far))
                far = ids[k];
        out->kind = BLOCK;
        out->square = square;
        out->dir = g->pieces[c][far].dir;
        out->steps = roll / n;
        out->count = n;
        int ok = 1;
        for (int k = 0; k < n && ok; k++) {
            int own = g->pieces[c][ids[k]].dir == out->dir;
            out->members[k] = ids[k];
            out->member_walks[k] = walk_piece(g, c, ids[k], out->dir, out->steps,
                                              own ? STRICT_ENTER : NEVER_ENTER, n, own);
            ok = out->member_walks[k].result == REACHED;
        }
        if (ok)
            return 1;
    }
    out->kind = NO_CHOICE;
    return 0;
}

struct options {
    int enter;
    int has_single[PIECES];
    int stopped[PIECES];
    struct walk walks[PIECES];
    int steps[PIECES];
};

static void gather(const struct game *g, int c, int roll, struct options *o)
{
    o->enter = entry_piece(g, c, roll);
    for (int i = 0; i < PIECES; i++) {
        o->has_single[i] = o->stopped[i] = 0;
        if (single_move(g, c, i, roll, &o->walks[i], &o->steps[i])) {
            o->has_single[i] = o->walks[i].result == REACHED;
            o->stopped[i] = o->walks[i].result == BLOCKED;
        }
    }
}

static int captures_at(const struct game *g, int c, struct location dest)
{
    return dest.kind == SQUARE && opponents_at(g, c, dest.n) > 0;
}

static int own_at(const struct game *g, int c, struct location dest)
{
    return dest.kind == SQUARE && count_at(g, c, dest.n) > 0;
}

static int in_block(const struct game *g, int c, int i)
{
    const struct piece *p = &g->pieces[c][i];
    return p->loc.kind == SQUARE && count_at(g, c, p->loc.n) >= 2;
}

/* The closest victim to its own home on a square, for Red. */
static int victim_distance(const struct game *g, int c, struct location dest)
{
    int best = 1 << 30;
    if (dest.kind != SQUARE)
        return best;
    for (int k = 0; k < PLAYERS; k++)
        for (int i = 0; k != c && i < PIECES; i++)
            if (at_square(&g->pieces[k][i], dest.n) && distance_home(g, k, i) < best)
                best = distance_home(g, k, i);
    return best;
}

enum filter { ANY, NOT_OWN_SQUARE, ONTO_OWN, NOT_IN_BLOCK, NEEDY_CAPTURE };

static int passes_filter(const struct game *g, int c, int i, const struct options *o, enum filter f)
{
    struct location dest = o->walks[i].dest;
    switch (f) {
    case NOT_OWN_SQUARE: return !own_at(g, c, dest);
    case ONTO_OWN: return own_at(g, c, dest);
    case NOT_IN_BLOCK: return !in_block(g, c, i);
    case NEEDY_CAPTURE: return g->pieces[c][i].captures == 0 && captures_at(g, c, dest);
    default: return 1;
    }
}

/* The movable piece closest to home among those passing the filter, or -1. */
static int closest(const struct game *g, int c, const struct options *o, enum filter f)
{
    int best = -1;
    for (int i = 0; i < PIECES; i++)
        if (o->has_single[i] && passes_filter(g, c, i, o, f) &&
            (best < 0 || distance_home(g, c, i) < distance_home(g, c, best)))
            best = i;
    return best;
}

static void set_single(struct choice *ch, const struct options *o, int i)
{
    ch->kind = SINGLE;
    ch->index = i;
    ch->walk = o->walks[i];
    ch->steps = o->steps[i];
}

static void choose_red(const struct game *g, int c, const struct options *o, struct choice *ch)
{
    int best = -1, i;
    for (i = 0; i < PIECES; i++)
        if (o->has_single[i] && captures_at(g, c, o->walks[i].dest) &&
            (best < 0 ||
             victim_distance(g, c, o->walks[i].dest) < victim_distance(g, c, o->walks[best].dest)))
            best = i;
    struct location x = {SQUARE, STARTS[c]};
    int entry_capture = o->enter >= 0 && captures_at(g, c, x);
    if (best >= 0 && !(entry_capture &&
                       victim_distance(g, c, x) < victim_distance(g, c, o->walks[best].dest))) {
        set_single(ch, o, best);
    } else if (o->enter >= 0) {
        ch->kind = ENTER;
        ch->index = o->enter;
    } else if ((i = closest(g, c, o, NOT_OWN_SQUARE)) >= 0 || (i = closest(g, c, o, ANY)) >= 0) {
        set_single(ch, o, i); /* Red avoids making blocks */
    }
}

static void choose_green(const struct game *g, int c, int roll, const struct options *o,
                         struct choice *ch)
{
    int i;
    if (o->enter >= 0) {
        if ((i = closest(g, c, o, ONTO_OWN)) >= 0) {
            set_single(ch, o, i); /* a six that makes a block beats leaving base */
        } else {
            ch->kind = ENTER;
            ch->index = o->enter;
        }
    } else if ((i = closest(g, c, o, NOT_IN_BLOCK)) >= 0) {
        set_single(ch, o, i);
    } else if (block_move(g, c, roll, ch)) {
        return;
    } else if ((i = closest(g, c, o, ANY)) >= 0) {
        set_single(ch, o, i);
    }
}

static void choose_yellow(const struct game *g, int c, const struct options *o, struct choice *ch)
{
    int i;
    if (o->enter >= 0) {
        ch->kind = ENTER;
        ch->index = o->enter;
    } else if ((i = closest(g, c, o, NEEDY_CAPTURE)) >= 0 || (i = closest(g, c, o, ANY)) >= 0) {
        set_single(ch, o, i);
    }
}

static void choose_blue(const struct game *g, int c, const struct options *o, struct choice *ch)
{
    for (int k = 0; k < PIECES; k++) {
        int i = (g->blue_next + k) % PIECES;
        if (o->enter >= 0 && g->pieces[c][i].loc.kind == BASE) {
            ch->kind = ENTER;
            ch->index = i;
            return;
        }
        if (o->has_single[i]) {
            set_single(ch, o, i);
            return;
        }
    }
}

static void choose(const struct game *g, int c, int roll, struct choice *ch)
{
    struct options o;
    gather(g, c, roll, &o);
    ch->kind = NO_CHOICE;
    switch (c) {
    case RED: choose_red(g, c, &o, ch); break;
    case GREEN: choose_green(g, c, roll, &o, ch); break;
    case YELLOW: choose_yellow(g, c, &o, ch); break;
    default: choose_blue(g, c, &o, ch); break;
    }
    if (ch->kind != NO_CHOICE || block_move(g, c, roll, ch))
        return;
    int best = -1;
    for (int i = 0; i < PIECES; i++)
        if (o.stopped[i] && (best < 0 || o.walks[i].steps_done > o.walks[best].steps_done))
            best = i;
    if (best >= 0) {
        ch->kind = STOPPED;
        ch->index = best;
        ch->walk = o.walks[best];
        ch->would = unblocked(g, c, best, o.steps[best]);
    }
}

static void count_line(const struct game *g, int c)
{
    int board = 0, base = 0;
    for (int i = 0; i < PIECES; i++) {
        enum where k = g->pieces[c][i].loc.kind;
        board += k == SQUARE || k == HOME_PATH;
        base += k == BASE;
    }
    printf("%s player now has %d/4 on pieces on the board and %d/4 pieces on the base.\n",
           NAMES[c], board, base);
}

/* Sends every opposing piece on the square to base; credits the capturing group (CS-8). */
static int capture(struct game *g, int c, int i, int square, const int *group, int n)
{
    struct piece *p = &g->pieces[c][i];
    if (!at_square(p, square) || opponents_at(g, c, square) == 0)
        return 0;
    for (int k = 0; k < PLAYERS; k++)
        for (int j = 0; k != c && j < PIECES; j++)
            if (at_square(&g->pieces[k][j], square)) {
                printf("%s piece %c%d lands on square %d, captures %s piece %c%d, and returns it "
                       "to the base.\n",
                       NAMES[c], LETTERS[c], i + 1, square, NAMES[k], LETTERS[k], j + 1);
                reset_piece(&g->pieces[k][j]);
                count_line(g, c);
            }
    for (int m = 0; m < n; m++)
        g->pieces[c][group[m]].captures++;
    return 1;
}

static void brief(struct game *g, int c, int i)
{
    printf("%s piece %c%d attends briefing and cannot move for four rounds.\n", NAMES[c],
           LETTERS[c], i + 1);
    g->pieces[c][i].loc.kind = SQUARE;
    g->pieces[c][i].loc.n = KOTUWA;
    g->pieces[c][i].briefing_round = g->round;
}

/* CS-11 to CS-14 for a piece that ended its move on the mystery cell. */
static void mystery_landing(struct game *g, int c, int i)
{
    static const char *PLACES[6] = {"Bhawana", "Kotuwa", "Pita-Kotuwa", "Base", "X", "Approach"};
    struct piece *p = &g->pieces[c][i];
    if (g->mystery < 0 || !at_square(p, g->mystery))
        return;
    int place = random_below(6);
    printf("%s player lands on a mystery cell and is teleported to %s.\n", NAMES[c], PLACES[place]);
    printf("%s piece %c%d teleported to %s.\n", NAMES[c], LETTERS[c], i + 1, PLACES[place]);
    switch (place) {
    case 0:
        p->loc.n = BHAWANA;
        p->aura_round = g->round;
        if (random_below(2) == 0) {
            printf("%s piece %c%d feels energized, and movement speed doubles.\n", NAMES[c],
                   LETTERS[c], i + 1);
            p->aura = ENERGISED;
        } else {
            printf("%s piece %c%d feels sick, and movement speed halves.\n", NAMES[c], LETTERS[c],
                   i + 1);
            p->aura = SICK;
        }
        break;
    case 1: brief(g, c, i); break;
    case 2:
        p->loc.n = PITA_KOTUWA;
        if (p->dir == CLOCKWISE) {
            printf("The %s piece %c%d, which was moving clockwise, has changed to moving "
                   "counterclockwise.\n",
                   NAMES[c], LETTERS[c], i + 1);
            p->dir = COUNTER_CLOCKWISE;
        } else {
            printf("The %s piece %c%d is moving in a counterclockwise direction. Teleporting to "
                   "Kotuwa from Pita-Kotuwa.\n",
                   NAMES[c], LETTERS[c], i + 1);
            brief(g, c, i);
        }
        break;
    case 3: reset_piece(p); break;
    case 4: p->loc.n = STARTS[c]; break;
    default: p->loc.n = approach(c); break;
    }
}

static void move_piece(struct game *g, int c, int i, struct location dest, int passes, int steps,
                       enum direction dir)
{
    char a[32], b[32];
    struct piece *p = &g->pieces[c][i];
    printf("%s moves piece %c%d from location %s to %s by %d units in %s direction.\n", NAMES[c],
           LETTERS[c], i + 1, render(c, p->loc, a), render(c, dest, b), steps,
           dir == CLOCKWISE ? "clockwise" : "counter-clockwise");
    p->loc = dest;
    p->passes = passes;
}

/* Captures on the landing square, then the mystery cell. */
static int land(struct game *g, int c, int i)
{
    struct location at = g->pieces[c][i].loc;
    int captured = at.kind == SQUARE && capture(g, c, i, at.n, &i, 1);
    mystery_landing(g, c, i);
    return captured;
}

/* Plays one roll; returns 1 when it captured (a bonus roll, CS-2). */
static int act(struct game *g, int c, int roll)
{
    struct choice ch;
    char a[32], b[32];
    int captured = 0;
    choose(g, c, roll, &ch);
    switch (ch.kind) {
    case ENTER: {
        struct piece *p = &g->pieces[c][ch.index];
        if (c == BLUE)
            g->blue_next = (ch.index + 1) % PIECES;
        reset_piece(p);
        p->loc.kind = SQUARE;
        p->loc.n = STARTS[c];
        p->dir = random_below(2) == 0 ? CLOCKWISE : COUNTER_CLOCKWISE; /* the coin toss */
        if (g->first_entry_round < 0)
            g->first_entry_round = g->round;
        printf("%s player moves piece %c%d to the starting point.\n", NAMES[c], LETTERS[c],
               ch.index + 1);
        count_line(g, c);
        return capture(g, c, ch.index, STARTS[c], &ch.index, 1);
    }
    case SINGLE:
        if (c == BLUE)
            g->blue_next = (ch.index + 1) % PIECES;
        move_piece(g, c, ch.index, ch.walk.dest, ch.walk.passes, ch.steps,
                   g->pieces[c][ch.index].dir);
        return land(g, c, ch.index);
    case BLOCK:
        for (int k = 0; k < ch.count; k++)
            move_piece(g, c, ch.members[k], ch.member_walks[k].dest, ch.member_walks[k].passes,
                       ch.steps, ch.dir);
        for (int k = 0; k < ch.count; k++) {
            struct location d = ch.member_walks[k].dest;
            int group[PIECES], n = 0;
            if (d.kind != SQUARE)
                continue;
            for (int m = 0; m < ch.count; m++)
                if (ch.member_walks[m].dest.kind == SQUARE && ch.member_walks[m].dest.n == d.n)
                    group[n++] = ch.members[m];
            captured |= capture(g, c, ch.members[k], d.n, group, n);
        }
        for (int k = 0; k < ch.count; k++)
            mystery_landing(g, c, ch.members[k]);
        return captured;
    case STOPPED: {
        struct piece *p = &g->pieces[c][ch.index];
        printf("%s piece %c%d is blocked from moving from %s to %s by %s piece %c%d.\n", NAMES[c],
               LETTERS[c], ch.index + 1, render(c, p->loc, a), render(c, ch.would, b),
               NAMES[ch.walk.blocker_colour], LETTERS[ch.walk.blocker_colour],
               ch.walk.blocker_index + 1);
        if (ch.walk.steps_done == 0) {
            printf("%s does not have other pieces on the board to move instead of the blocked "
                   "piece. Ignoring the throw and moving on to the next player.\n",
                   NAMES[c]);
            return 0;
        }
        printf("%s does not have other pieces on the board to move instead of the blocked piece. "
               "Moved the piece to square %s which is the cell before the block.\n",
               NAMES[c], render(c, ch.walk.dest, a));
        p->loc = ch.walk.dest;
        p->passes = ch.walk.passes;
        return land(g, c, ch.index);
    }
    default: return 0;
    }
}

/* CS-13: three threes in a row send a briefed piece to base. */
static void three_threes(struct game *g, int c, int roll)
{
    g->threes[c] = roll == 3 ? g->threes[c] + 1 : 0;
    if (g->threes[c] < 3)
        return;
    g->threes[c] = 0;
    for (int i = 0; i < PIECES; i++) {
        struct piece *p = &g->pieces[c][i];
        if (briefed(g, p) && p->loc.kind == SQUARE) {
            printf("%s piece %c%d is movement-restricted and has rolled three consecutively. "
                   "Teleporting piece %c%d to base.\n",
                   NAMES[c], LETTERS[c], i + 1, LETTERS[c], i + 1);
            reset_piece(p);
        }
    }
}

/* CS-6: on the third six a blockade breaks: all members but one move on, six squares between
 * them, in their own directions. */
static void break_blockade(struct game *g, int c)
{
    struct choice block;
    if (!block_move(g, c, 6, &block))
        return;
    int steps = 6 / (block.count - 1);
    for (int k = 1; k < block.count; k++) {
        int i = block.members[k];
        struct walk w = walk_piece(g, c, i, g->pieces[c][i].dir, steps, STRICT_ENTER, 1, 1);
        if (w.result == REACHED) {
            move_piece(g, c, i, w.dest, w.passes, steps, g->pieces[c][i].dir);
            land(g, c, i);
        } else if (w.result == BLOCKED && w.steps_done > 0) {
            move_piece(g, c, i, w.dest, w.passes, w.steps_done, g->pieces[c][i].dir);
            land(g, c, i);
        }
    }
}

static int all_home(const struct game *g, int c)
{
    for (int i = 0; i < PIECES; i++)
        if (g->pieces[c][i].loc.kind != HOME)
            return 0;
    return 1;
}

static void turn(struct game *g, int c)
{
    int sixes = 0;
    for (;;) {
        int roll = random_below(6) + 1;
        printf("Player %c rolled a %d\n", LETTERS[c], roll);
        sixes = roll == 6 ? sixes + 1 : 0;
        if (sixes == 3) {
            break_blockade(g, c);
            return;
        }
        three_threes(g, c, roll);
        int captured = act(g, c, roll);
        if (all_home(g, c) || !(roll == 6 || captured))
            return;
    }
}

/* CS-10: on an empty square, never where the last one was. */
static void spawn_mystery(struct game *g)
{
    int free[SQUARES], n = 0;
    for (int s = 0; s < SQUARES; s++) {
        int empty = 1;
        for (int k = 0; k < PLAYERS; k++)
            if (count_at(g, k, s))
                empty = 0;
        if (empty && s != g->last_mystery)
            free[n++] = s;
    }
    if (n == 0) {
        g->mystery = -1;
        return;
    }
    g->mystery = free[random_below(n)];
    g->mystery_left = MYSTERY_ROUNDS;
    g->last_mystery = g->mystery;
    printf("A mystery cell has spawned in location %d and will be at this location for the next "
           "four rounds.\n",
           g->mystery);
}

static void end_round(struct game *g)
{
    char buf[32];
    for (int c = 0; c < PLAYERS; c++) {
        count_line(g, c);
        printf("============================\nLocation of pieces %s\n"
               "============================\n",
               NAMES[c]);
        for (int i = 0; i < PIECES; i++)
            printf("Piece %c%d -> %s\n", LETTERS[c], i + 1, render(c, g->pieces[c][i].loc, buf));
    }
    if (g->mystery >= 0) {
        printf("The mystery cell is at %d and will be at that location for the next %d rounds.\n",
               g->mystery, g->mystery_left - 1);
        if (g->mystery_left > 1)
            g->mystery_left--;
        else
            spawn_mystery(g);
    } else if (g->first_entry_round >= 0 && g->round >= g->first_entry_round + 2) {
        spawn_mystery(g);
    }
}

void play_game(struct game *g)
{
    int best = -1, best_roll = 0;
    memset(g, 0, sizeof *g);
    for (int c = 0; c < PLAYERS; c++)
        for (int i = 0; i < PIECES; i++)
            reset_piece(&g->pieces[c][i]);
    g->mystery = g->last_mystery = g->first_entry_round = -1;
    g->round = 1;
    for (int c = 0; c < PLAYERS; c++)
        printf("The %s player has four (04) pieces named %c1, %c2, %c3, and %c4.\n", LOWER[c],
               LETTERS[c], LETTERS[c], LETTERS[c], LETTERS[c]);
    for (int c = 0; c < PLAYERS; c++) {
        int roll = random_below(6) + 1;
        printf("%s rolls %d\n", NAMES[c], roll);
        if (roll > best_roll) { /* ties go to the first of the highest in seating order */
            best_roll = roll;
            best = c;
        }
    }
    for (int k = 0; k < PLAYERS; k++)
        g->order[k] = (best + k) % PLAYERS;
    printf("%s player has the highest roll and will begin the game.\n", NAMES[best]);
    printf("The order of a single round is %s, %s, %s, and %s.\n", NAMES[g->order[0]],
           NAMES[g->order[1]], NAMES[g->order[2]], NAMES[g->order[3]]);
    for (; g->round <= MAX_ROUNDS; g->round++) {
        for (int k = 0; k < PLAYERS; k++) {
            int c = g->order[k];
            turn(g, c);
            if (all_home(g, c)) {
                printf("Player %s Wins !!!\n", NAMES[c]);
                return;
            }
        }
        end_round(g);
    }
}
