"""Battles and events: a battle against another group, a monster or a foe (battle cards, dice,
rerolls), what losing costs (a death at the kill margin, defeat effects), a character's death,
and resolving an event where a group stands or arrives.
"""
from __future__ import annotations

from .cards import Cards
from .choices import PASS as PASS_OPTION, Choice
from .state import Fight, Flow, Totals
from .tables import (ALARM, CANCELLED, D6, FAIL, FLED, KILL_MARGIN, LOSE, PASS, WIN, W_BATTLE,
                     W_CANCEL_EVENT, W_CANCEL_MONSTER, W_GUARD, W_NORMAL)


class Battles(Cards):
    """Battles, deaths and events."""

    def battle(self, s: int, t: int = -1, monster: int = -1, foe: int = 0, lair: int = 0,
               mission: int = -1) -> Flow[tuple[int, int]]:
        """A battle of the group of ``s`` against seat ``t``, a monster, or a foe of Strength
        ``foe`` (for the goal of ``mission``). Returns (outcome, margin) from the side of ``s``: WIN, LOSE, FLED (avoided),
        CANCELLED (a monster sent away). Battle cards are played first (``s``, then ``t``),
        then each side rolls a d6 and may reroll; a rival's die (a chance) rolls for a monster
        or foe. A tie goes to the group against a monster or foe, and is rolled again between
        groups."""
        p = self.p
        self.b_str[s] = 0
        if t >= 0:
            self.b_str[t] = 0
            # the Unseen: the opponent of a member has less Strength in battles between groups
            for o in self.org[s]:
                self.b_str[t] -= p.pvp_hinder[o]
            for o in self.org[t]:
                self.b_str[s] -= p.pvp_hinder[o]
        self._foe_mod = 0
        self._flag = False                         # fled
        self._cancel = False
        self.in_battle = Fight(s, t, monster, mission)
        self.foe_strength = foe
        if monster >= 0:
            self.st_fights[p.dix[monster]] += 1
            if p.ops[monster]:
                yield from self.run(s, monster, p.ops[monster])     # as the battle starts
        if self._armed(s):
            yield from self.battle_cards(s, t, monster)
        if t >= 0 and not self._flag and self._armed(t):
            yield from self.battle_cards(t, s, -1)
        if self._cancel:
            self._end_battle(s, t)
            return CANCELLED, 0
        if self._flag:
            self._end_battle(s, t)
            if self.log is not None:
                self.log.append(("fled", s,))
            return FLED, 0
        ds = self.resolve(D6)
        if self._rerolls(s):
            ds = yield from self.reroll(s, ds, 2)
        if t >= 0:
            dt = self.resolve(D6)
            if self._rerolls(t):
                dt = yield from self.reroll(t, dt, 2)
            mine, theirs = self.strength(s) + ds, self.strength(t) + dt
            while mine == theirs:                  # DECISION: a tie between groups is rolled again
                ds = self.resolve(D6)
                dt = self.resolve(D6)
                mine, theirs = self.strength(s) + ds, self.strength(t) + dt
        else:
            base = p.mstr[monster] + lair + p.grows[monster] * len(self.group[s]) if monster >= 0 else foe
            df = self.resolve(D6)
            mine = self.strength(s) + ds
            theirs = max(0, base + self._foe_mod) + df
        self._end_battle(s, t)
        self.last_battle = Totals(s, t, monster, foe, mine, theirs)
        if self.log is not None:
            self.log.append(("battle", s, t, p.cid[monster] if monster >= 0 else foe, mine, theirs,))
        if mine >= theirs if t < 0 else mine > theirs:
            return WIN, mine - theirs
        if monster >= 0:
            self.st_mwins[p.dix[monster]] += 1
        return LOSE, theirs - mine

    def _end_battle(self, s: int, t: int) -> None:
        self.b_str[s] = 0
        if t >= 0:
            self.b_str[t] = 0
        self.in_battle = None

    def battle_cards(self, s: int, t: int, monster: int) -> Flow[None]:
        """The battle window of ``s``: battle cards and abilities, cancelling a monster, fleeing;
        `fight` (labelled `pass`) starts the dice."""
        p = self.p
        while not self._flag and not self._cancel:
            avoid = not (monster >= 0 and (p.unavoidable[monster] or self.duty(s, "no_avoid")))
            immune = p.immune[monster] if monster >= 0 else 0
            opts: list[Choice] = []
            use = self.choices.on_card["use"]
            for h in self.hand[s]:
                w = p.win[h]
                if w == W_BATTLE or (w == W_NORMAL and t >= 0 and p.pvp_sleep[h] and
                                     self.sleep_targets(s, "near")):
                    if p.skill[h] & immune:
                        continue
                    if not avoid and any(n == "flee" for n, _ in p.ops[h]):
                        continue
                    opts += self._card_options(s, h)
                elif w == W_CANCEL_MONSTER and monster >= 0 and avoid and self._fits(h, w, p.level[monster]) \
                        and not p.skill[h] & immune:
                    opts += self._card_options(s, h)
            for c in self.group[s]:
                if self.rot[c] or self.asleep[c]:
                    continue
                w = p.win[c]
                if w == W_BATTLE and (avoid or not any(n == "flee" for n, _ in p.ops[c])):
                    opts.append(use[c])
                elif w == W_CANCEL_MONSTER and monster >= 0 and avoid and self._fits(c, w, p.level[monster]):
                    opts.append(use[c])
            if not opts:
                return
            c = yield from self.ask("battle", s, [PASS_OPTION, *opts])
            if c.verb == "pass":
                return
            yield from self.act(s, c)

    def lose_battle(self, s: int, margin: int, monster: int = -1) -> Flow[None]:
        """What losing costs: a loss by 5 or more kills a character of the owner's choice
        (DECISION: a monster whose defeat effects kill replaces that death with its own); the
        monster's and the organisation's defeat effects; the turn of ``s`` ends."""
        p = self.p
        fx = p.defeat[monster] if monster >= 0 else ()
        if margin >= KILL_MARGIN and not any(n == "kill" for n, _ in fx):
            yield from self.kill_one(s)
        if fx:
            yield from self.run(s, monster, fx)
        for o in list(self.org[s]):
            if p.defeat[o]:
                yield from self.run(s, o, p.defeat[o])
        self.lost[s] = True

    def kill_one(self, s: int) -> Flow[None]:
        if self.group[s]:
            c = yield from self.ask("kill", s, self.choices.cards("lose", self.group[s]))
            yield from self.die_char(s, c.card)

    def die_char(self, s: int, c: int) -> Flow[None]:
        """Character ``c`` dies, unless a guardian of the group rotates to make it sleep instead
        (DECISION: not a character that cannot sleep). A group left empty takes the top
        character of the deck as its new group, on the road, without its organisation, and its
        turn ends."""
        p = self.p
        if not p.sleepless[c]:
            guards = [g for g in self.group[s] if p.win[g] == W_GUARD and not self.rot[g] and not self.asleep[g]]
            if guards:
                g = yield from self.ask("guard", s, [PASS_OPTION, *self.choices.cards("guard", guards)])
                if g.verb == "guard":
                    self.rot[g.card] = True
                    self.asleep[c] = True
                    self.played.append((p.dix[g.card], s))
                    if self.log is not None:
                        self.log.append(("guard", s, p.cid[c],))
                    return
        self.leave_group(s, c)
        self.char_discard.append(c)
        self.st_died[p.dix[c]] += 1
        if self.log is not None:
            self.log.append(("dies", s, p.cid[c],))
        if not self.group[s]:
            self.bonus_discard.extend(self.org[s])
            self.org[s] = []
            x = yield from self.draw_char()
            if x >= 0:
                self.join(s, x)
            self.off_road(s)
            self.lost[s] = True
            self.wiped[s] += 1
            if self.log is not None:
                self.log.append(("new_group", s,))

    # ------------------------------------------------------------------ events
    def resolve_event(self, s: int, ev: int, L: int, lead: bool) -> Flow[int]:
        """Resolve event ``ev`` for the group of ``s`` at location ``L`` (a lead event stays on
        its location while a monster is not beaten). Returns PASS, FAIL or ALARM (the event is
        above the location's level: discarded, no effect)."""
        p = self.p
        self._ctx_loc = L
        if not lead:
            self.revealed.append(ev)
        self.played.append((p.dix[ev], s))
        if p.level[ev] > p.level[L]:
            self._discard_event(ev, L, lead)
            self.st_alarms += 1
            if self.log is not None:
                self.log.append(("false_alarm", s, p.cid[ev],))
            return ALARM
        if p.monster[ev]:
            res, margin = yield from self.battle(s, monster=ev, lair=p.lair[L] if lead else 0)
            if res in (WIN, CANCELLED):
                self._discard_event(ev, L, lead)
                return PASS
            if res == LOSE:
                yield from self.lose_battle(s, margin, ev)
            if not lead:
                self._discard_event(ev, L, lead)
            return FAIL
        opts = self.window(s, W_CANCEL_EVENT, p.level[ev])
        if opts:
            c = yield from self.ask("cancel", s, [PASS_OPTION, *opts])
            if c.verb != "pass":
                self._cancel = False
                yield from self.act(s, c)
                if self._cancel:
                    self._cancel = False
                    self._discard_event(ev, L, lead)
                    return PASS
        if lead:                                   # a plain lead event is resolved and discarded
            del self.lead[L]
            self.lead_up.discard(L)
            self.faced.discard(L)
            self.revealed.append(ev)
        self._blocked = False
        yield from self.run(s, ev, p.ops[ev])
        self.revealed.remove(ev)
        self.event_discard.append(ev)
        blocked, self._blocked = self._blocked, False
        return FAIL if self.lost[s] or blocked else PASS

    def _discard_event(self, ev: int, L: int, lead: bool) -> None:
        if lead:
            del self.lead[L]
            self.lead_up.discard(L)
            self.faced.discard(L)
        else:
            self.revealed.remove(ev)
        self.event_discard.append(ev)

