"""Using cards and abilities: which bonus cards and rotate abilities a seat may use and where
(`plays`, `window`), playing them (a rival may cancel a bonus card, `counter`), resolving
their operations (`run`), rerolls, and completing a goal (a mission's prize is operations too).
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar

from .choices import PASS, OnCard, Choice, Play
from .state import Flow, State
from .tables import (B_ORG, B_SKILL, EXPLORATION, GROUP_LIMIT, MOVEMENT, W_BATTLE,
                     W_CANCEL_BONUS, W_CANCEL_EVENT, W_CANCEL_MONSTER, W_CLAIM, W_NORMAL, W_REROLL,
                     W_TRAVEL, D6, Effects)


class Over(Exception):
    """Raised inside the flow when a seat completes the final mission: the game ends at once."""


class Cards(State):
    """Cards and abilities in use; `run` resolves operations through ``OPS``, the operations of
    the finished match class (`operations.Operations` registers them)."""

    #: Operation name -> the function that carries it out (the hot path's table), per class.
    OPS: ClassVar[dict[str, Callable[..., Flow[None]]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.OPS = {name: op.func for name, op in cls.OPERATIONS.items() if op.func is not None}

    def complete_goal(self, s: int, m: int) -> Flow[None]:
        """``s`` has reached the current goal of mission ``m``: the last goal of a basic mission
        completes it (the first completed reveals the final mission) and its prize resolves; the
        last goal of the final mission wins the game."""
        p = self.p
        if self.log is not None:
            self.log.append(("goal", s, p.cid[m],))
        if p.final[m]:
            self.fgi[s] += 1
            if self.fgi[s] >= len(p.goals[m]):
                self.winner = s
                self.st_mission_turn[p.dix[m]] = self.turn
                self.played.append((p.dix[m], s))
                if self.log is not None:
                    self.log.append(("win", s, p.cid[m],))
                raise Over
            return
        self.gi[m] += 1
        if self.gi[m] < len(p.goals[m]):
            return
        self.missions[s].remove(m)
        self.done[s].append(m)
        self.st_mission_turn[p.dix[m]] = self.turn
        self.played.append((p.dix[m], s))
        if self.log is not None:
            self.log.append(("mission", s, p.cid[m],))
        if not self.final and self.final_deck:
            self.final.append(self.final_deck.pop())
            if self.log is not None:
                self.log.append(("final", p.cid[self.final[0]],))
        yield from self.run(s, m, p.prize[m])

    # ------------------------------------------------------------------ using cards
    def _can(self, s: int, ops: Effects, held: bool) -> bool:
        """Whether an own-phase card (``held``: from the hand, which it leaves first) or ability
        would do something now (DECISION: the engine offers only cards that can take effect;
        what brings bonus cards needs room in the hand)."""
        if not ops:
            return False
        name, a = ops[0]
        if name in ("draw_bonus", "steal_bonus") and self.room(s) + held <= 0:
            return False
        if name == "draw_bonus":
            return bool(self.bonus_deck or self.bonus_discard)
        if name == "hire":
            if len(self.group[s]) >= GROUP_LIMIT:
                return False
            return bool(self.char_discard) if a["source"] == "discard" else bool(self.char_deck or self.char_discard)
        if name == "steal_bonus":
            L = self.loc[s]
            return L >= 0 and any(t != s and self.loc[t] == L and self.hand[t] for t in range(self.n))
        if name == "peek":
            return len(self.peek_deck(s, a["deck"])) >= 2
        if name == "sleep":
            return bool(self.sleep_targets(s, a["target"]))
        return True

    def _users(self, s: int, h: int) -> list[int]:
        """Characters of ``s`` who may play skill card ``h`` (awake, not rotated, with its
        skill; a rotated Magic character too while the organisation's free Magic play is left)."""
        p = self.p
        bits = p.skill[h]
        free = bits == 1 and not self.free_used[s] and self.duty(s, "free_magic")
        rot, asleep, skill = self.rot, self.asleep, p.skill
        return [c for c in self.group[s] if skill[c] & bits and not asleep[c] and (free or not rot[c])]

    def _card_options(self, s: int, h: int) -> list[Play]:
        """`play h`: by each character who may (a skill card), else by nobody."""
        if self.p.bsub[h] == B_SKILL:
            return self.choices.plays(h, self._users(s, h))
        return [self.choices.alone[h]]

    def plays(self, s: int, phase: int) -> list[Choice]:
        """Cards of the hand and rotate abilities ``s`` may use in its own ``phase`` step."""
        p = self.p
        win, ops = p.win, p.ops
        out: list[Choice] = []
        for h in self.hand[s]:
            w = win[h]
            if w == W_NORMAL:
                if p.bphase[h] >= 0 and p.bphase[h] != phase:
                    continue
                if p.bsub[h] == B_ORG:
                    if self.org[s] or (p.needs[h] and not self.has_skill(s, p.needs[h])):
                        continue
                    out.append(self.choices.alone[h])
                elif self._can(s, ops[h], True):
                    out += self._card_options(s, h)
            elif (w == W_TRAVEL and phase == MOVEMENT and self.active) or \
                    (w == W_CLAIM and phase == EXPLORATION and self.rewards_here(s, self.loc[s])):
                out += self._card_options(s, h)
        rot, asleep = self.rot, self.asleep
        for c in self.group[s]:
            if win[c] == W_NORMAL and not rot[c] and not asleep[c] and \
                    (p.cphase[c] < 0 or p.cphase[c] == phase) and self._can(s, ops[c], False):
                out.append(self.choices.on_card["use"][c])
        return out

    def play_card(self, s: int, h: int, c: int) -> Flow[bool]:
        """Play bonus card ``h`` (a skill card with character ``c``, who rotates): a rival may
        cancel it; then its operations resolve and it goes to the discard pile, or an
        organisation stays in front of its member. Returns False when it was cancelled."""
        p = self.p
        self.hand[s].remove(h)
        self.played.append((p.dix[h], s))
        if c >= 0:
            if p.skill[h] == 1 and not self.free_used[s] and self.duty(s, "free_magic"):
                self.free_used[s] = True
            else:
                self.rot[c] = True
        if self.log is not None:
            self.log.append(("play", s, p.cid[h],))
        self.revealed.append(h)
        countered = yield from self.counter(s, h)
        self.revealed.remove(h)
        if countered:
            self.bonus_discard.append(h)
            return False
        if p.bsub[h] == B_ORG:
            self.org[s].append(h)
            return True
        self.revealed.append(h)
        yield from self.run(s, h, p.ops[h])
        self.revealed.remove(h)
        self.bonus_discard.append(h)
        return True

    def use_ability(self, s: int, c: int) -> Flow[None]:
        self.rot[c] = True
        self.played.append((self.p.dix[c], s))
        if self.log is not None:
            self.log.append(("use", s, self.p.cid[c],))
        yield from self.run(s, c, self.p.ops[c])

    def act(self, s: int, choice: OnCard | Play) -> Flow[bool]:
        """Carry out a ``play`` or ``use`` option."""
        if isinstance(choice, OnCard):
            yield from self.use_ability(s, choice.card)
            return True
        return (yield from self.play_card(s, choice.card, choice.user))

    def run(self, s: int, src: int, ops: Effects) -> Flow[None]:
        """Resolve operations for ``s`` (``src`` is the card they come from)."""
        if not ops:
            return
        self._abort = False
        table = self.OPS
        for name, args in ops:
            yield from table[name](self, s, src, **args)
            if self._abort:
                self._abort = False
                break

    def counter(self, s: int, h: int) -> Flow[bool]:
        """DECISION: when a seat plays a bonus card, every other seat (in turn order) that can
        may cancel it with a `cancel: bonus` card; that card itself cannot be cancelled."""
        p = self.p
        for t in self.order or range(self.n):
            if t == s or self.lost[t]:
                continue
            opts: list[Choice] = [o for x in self.hand[t] if p.win[x] == W_CANCEL_BONUS
                                  for o in self._card_options(t, x)]
            opts += self.choices.cards("use", [c for c in self.group[t] if p.win[c] == W_CANCEL_BONUS
                                               and not self.rot[c] and not self.asleep[c]])
            if not opts:
                continue
            c = yield from self.ask("counter", t, [PASS, *opts])
            if c.verb == "pass":
                continue
            if c.verb == "use":
                self.rot[c.card] = True
                self.played.append((p.dix[c.card], t))
            else:
                self.hand[t].remove(c.card)
                self.played.append((p.dix[c.card], t))
                if c.user >= 0:
                    self.rot[c.user] = True
                self.bonus_discard.append(c.card)
            if self.log is not None:
                self.log.append(("counter", t, p.cid[h],))
            return True
        return False

    def window(self, s: int, w: int, extra: Any = None) -> list[Choice]:
        """Options of ``s`` to use a card or ability of window ``w`` (reroll kinds / level in
        ``extra``)."""
        p = self.p
        out: list[Choice] = []
        for h in self.hand[s]:
            if p.win[h] == w and self._fits(h, w, extra):
                out += self._card_options(s, h)
        for c in self.group[s]:
            if p.win[c] == w and not self.rot[c] and not self.asleep[c] and self._fits(c, w, extra):
                out.append(self.choices.on_card["use"][c])
        return out

    def _fits(self, h: int, w: int, extra: Any) -> bool:
        if w == W_REROLL:
            return bool(self.p.rkind[h] & extra)
        if w in (W_CANCEL_EVENT, W_CANCEL_MONSTER):
            return any(n == "cancel" and a.get("level", 3) >= extra for n, a in self.p.ops[h])
        return True

    def _rerolls(self, s: int) -> bool:
        """Whether ``s`` holds a reroll card or an unused reroll ability at all (a quick test
        before the window)."""
        win = self.p.win
        for h in self.hand[s]:
            if win[h] == W_REROLL:
                return True
        for c in self.group[s]:
            if win[c] == W_REROLL and not self.rot[c]:
                return True
        return False

    def _armed(self, s: int) -> bool:
        """Whether ``s`` may have something for a battle window (a quick test)."""
        p = self.p
        win = p.win
        for h in self.hand[s]:
            w = win[h]
            if w == W_BATTLE or w == W_CANCEL_MONSTER or p.pvp_sleep[h]:
                return True
        for c in self.group[s]:
            w = win[c]
            if (w == W_BATTLE or w == W_CANCEL_MONSTER) and not self.rot[c]:
                return True
        return False

    def reroll(self, s: int, value: int, kind: int) -> Flow[int]:
        """After a roll of ``s``: it may reroll with a card or ability that rerolls this kind of
        roll (``kind``: a bit of ROLL_KINDS), keeping the new result; again while it can."""
        while True:
            opts = self.window(s, W_REROLL, kind)
            if not opts:
                return value
            c = yield from self.ask("reroll", s, [PASS, *opts])
            if c.verb == "pass":
                return value
            yield from self.act(s, c)
            value = self.resolve(D6)
            if self.log is not None:
                self.log.append(("reroll", s, value,))
