"""The effect operations of «Аніма: Тінь омеги»: what each operation in the card data does, with
its parameter schema (`forge check` compares the manifest and the cards with these).

Each runs for seat ``s`` (the player of the card, owner of the character, or the group facing
the event); ``src`` is the card it comes from. An operation that sets a flag (`cancel`,
`redirect`, `travel`, `claim_reward`, `flee`) acts where its window reads the flag; a passive one
changes a rule while its card is in play, read where that rule applies.
"""
from __future__ import annotations

from .. import core
from ..core import operation, passive
from .battles import Battles
from .choices import OnCard
from .state import Flow
from .tables import ALARM, FAIL, FLED, GROUP_LIMIT, LOSE, ROLL_KINDS, SKILL_BIT


class Operations(Battles):
    """The operations, registered on the match class with `@operation`."""

    @operation("draw_bonus", count=int)
    def op_draw_bonus(self, s: int, src: int, count: int) -> Flow[None]:
        for _ in range(count):
            if self.room(s) <= 0:
                break
            h = yield from self._draw(self.bonus_deck, self.bonus_discard)
            if h < 0:
                break
            self.hand[s].append(h)

    @operation("lose_bonus", count=int)
    def op_lose_bonus(self, s: int, src: int, count: int) -> Flow[None]:
        for _ in range(min(count, len(self.hand[s]))):
            c = yield from self.ask("lose", s, self.choices.cards("discard", self.hand[s]))
            self.hand[s].remove(c.card)
            self.bonus_discard.append(c.card)

    def _take_from(self, s: int, victims: list[int], count: int) -> Flow[None]:
        """``s`` takes up to ``count`` random bonus cards from one of ``victims``: none once its
        hand is full (the card stays with its owner)."""
        victims = [t for t in victims if self.hand[t]]
        if not victims or self.room(s) <= 0:
            return
        t = victims[0]
        if len(victims) > 1:
            c = yield from self.ask("victim", s, self.choices.seats("rob", victims))
            t = c.seat
        for _ in range(count):
            if not self.hand[t] or self.room(s) <= 0:
                break
            i = yield from self.pick_random("steal", self.hand[t])
            self.hand[s].append(self.hand[t].pop(i))

    @operation("steal_bonus", count=int)
    def op_steal_bonus(self, s: int, src: int, count: int) -> Flow[None]:
        if self._foe >= 0:
            victims = [self._foe]
        else:
            L = self.loc[s]
            victims = [t for t in range(self.n) if t != s and L >= 0 and self.loc[t] == L]
        yield from self._take_from(s, victims, count)

    @operation("rob", count=int)
    def op_rob(self, s: int, src: int, count: int) -> Flow[None]:
        yield from self._take_from(s, [t for t in range(self.n) if t != s], count)

    @operation("hire", source=("deck", "discard"))
    def op_hire(self, s: int, src: int, source: str) -> Flow[None]:
        if len(self.group[s]) >= GROUP_LIMIT:
            return
        if source == "deck":
            x = yield from self.draw_char()
            if x >= 0:
                self.join(s, x)
        elif self.char_discard:
            c = yield from self.ask("recruit", s, self.choices.cards("recruit", self.char_discard))
            self.char_discard.remove(c.card)
            self.join(s, c.card)

    def _mod(self, s: int, stat: str, v: int, until: str) -> None:
        if until == "battle":
            if stat == "strength" and self.in_battle is not None:
                self.b_str[s] += v
        elif until == "turn":
            if stat == "strength":
                self.t_str[s] += v
            else:
                self.t_spd[s] += v
        elif until == "next_turn":
            if stat == "strength":
                self.n_str[s] += v
            else:
                self.n_spd[s] += v
        # `ongoing` lasts while its card is in play: read from the card tables

    @operation("boost", stat=("strength", "speed"), amount=int, until=("battle", "turn", "next_turn", "ongoing"))
    def op_boost(self, s: int, src: int, stat: str, amount: int, until: str) -> Flow[None]:
        self._mod(s, stat, amount, until)
        return
        yield

    @operation("weaken", stat=("strength", "speed"), amount=int, until=("battle", "turn", "next_turn", "ongoing"))
    def op_weaken(self, s: int, src: int, stat: str, amount: int, until: str) -> Flow[None]:
        self._mod(s, stat, -amount, until)
        return
        yield

    @operation("hinder", amount=int)
    def op_hinder(self, s: int, src: int, amount: int) -> Flow[None]:
        b = self.in_battle
        if b is not None:
            a, t = b.seat, b.opponent
            opp = t if s == a else a
            if opp >= 0:
                self.b_str[opp] -= amount
            else:
                self._foe_mod -= amount
        return
        yield

    @operation("lose_turn", which=("current", "next"))
    def op_lose_turn(self, s: int, src: int, which: str) -> Flow[None]:
        if which == "current":
            self.lost[s] = True
        else:
            self.skip[s] += 1
        return
        yield

    @operation("sleep", count=int, target=("own", "any", "near"))
    def op_sleep(self, s: int, src: int, count: int, target: str) -> Flow[None]:
        for _ in range(count):
            cands = self.sleep_targets(s, target)
            if not cands:
                return
            c = yield from self.ask("sleep", s, self.choices.cards("sleep", cands))
            self.asleep[c.card] = True
            if self.log is not None:
                self.log.append(("asleep", self.p.cid[c.card],))

    @operation("sleep_all", skill=("magic", "ki", "trickery"))
    def op_sleep_all(self, s: int, src: int, skill: str) -> Flow[None]:
        bit = SKILL_BIT[skill]
        for c in self.group[s]:
            if self.p.skill[c] & bit and self.can_sleep(c):
                self.asleep[c] = True
        return
        yield

    @operation("kill", count=int)
    def op_kill(self, s: int, src: int, count: int) -> Flow[None]:
        wiped = self.wiped[s]
        for _ in range(count):
            if self.wiped[s] != wiped:
                return                              # a new group is not struck again
            yield from self.kill_one(s)

    @operation("cull", below=int)
    def op_cull(self, s: int, src: int, below: int) -> Flow[None]:
        if len(self.group[s]) < below:
            yield from self.kill_one(s)

    @operation("reroll", roll=ROLL_KINDS)
    def op_reroll(self, s: int, src: int, roll: str) -> Flow[None]:
        """Acts in `reroll` (the window rolls again once the card or ability is used)."""
        return
        yield

    @operation("cancel", what=("event", "monster", "bonus"),
               level=core.Param(int, default=3, required=False))
    def op_cancel(self, s: int, src: int, what: str, level: int = 3) -> Flow[None]:
        """Events and monsters: marks the one being resolved as cancelled; bonus cards are
        cancelled in `counter`."""
        self._cancel = True
        return
        yield

    @operation("redirect")
    def op_redirect(self, s: int, src: int) -> Flow[None]:
        self._redirect = True
        return
        yield

    @operation("travel")
    def op_travel(self, s: int, src: int) -> Flow[None]:
        self._travel = True
        return
        yield

    @operation("claim_reward")
    def op_claim_reward(self, s: int, src: int) -> Flow[None]:
        self._claim = True
        return
        yield

    @operation("peek", deck=("event", "location", "bonus", "mission"), count=int)
    def op_peek(self, s: int, src: int, deck: str, count: int) -> Flow[None]:
        """DECISION: the player looks at the top cards and chooses the one to put on top; the
        others keep their order below it."""
        cards = self.peek_deck(s, deck)
        top = cards[-count:]
        if len(top) < 2:
            return
        c = yield from self.ask("peek", s, self.choices.cards("top", reversed(top)))
        cards.remove(c.card)
        cards.append(c.card)

    @operation("draw_event", count=int)
    def op_draw_event(self, s: int, src: int, count: int) -> Flow[None]:
        L = self._ctx_loc
        if L < 0:
            return
        for _ in range(count):
            ev = yield from self.draw_event()
            if ev < 0:
                return
            r = yield from self.resolve_event(s, ev, L, lead=False)
            if r == FAIL:
                self._blocked = True               # the group did not get past it
                return
            if r == ALARM:
                self._alarm = True
                return

    @operation("flee")
    def op_flee(self, s: int, src: int) -> Flow[None]:
        """DECISION: the battle does not take place; the group does not get past a monster (it
        does not reach the location, or leaves it without a reward) but suffers nothing."""
        if self.in_battle is not None:
            self._flag = True
        return
        yield

    @operation("exchange")
    def op_exchange(self, s: int, src: int) -> Flow[None]:
        if not self.hand[s] or not self.bonus_discard:
            return
        c = yield from self.ask("exchange", s, self.choices.cards("give", self.hand[s]))
        d = yield from self.ask("take", s, self._distinct(self.bonus_discard))
        self.hand[s].remove(c.card)
        self.bonus_discard.remove(d.card)
        self.bonus_discard.append(c.card)
        self.hand[s].append(d.card)

    def _distinct(self, cards: list[int]) -> list[OnCard]:
        """`take` one card of each id among ``cards``."""
        seen: set[str] = set()
        out = []
        cid, take = self.p.cid, self.choices.on_card["take"]
        for h in cards:
            if cid[h] not in seen:
                seen.add(cid[h])
                out.append(take[h])
        return out

    @operation("salvage")
    def op_salvage(self, s: int, src: int) -> Flow[None]:
        if not self.bonus_discard or self.room(s) <= 0:
            return
        d = yield from self.ask("take", s, self._distinct(self.bonus_discard))
        self.bonus_discard.remove(d.card)
        self.hand[s].append(d.card)

    @operation("ticket")
    def op_ticket(self, s: int, src: int) -> Flow[None]:
        self.ticket[s] = self.turn + 1
        return
        yield

    @operation("unless_skill", skill=("magic", "ki", "trickery"))
    def op_unless_skill(self, s: int, src: int, skill: str) -> Flow[None]:
        if self.has_skill(s, SKILL_BIT[skill]):
            self._abort = True
        return
        yield

    @operation("fight", strength=int)
    def op_fight(self, s: int, src: int, strength: int) -> Flow[None]:
        res, margin = yield from self.battle(s, foe=strength)
        if res == LOSE:
            yield from self.lose_battle(s, margin)
            self.off_road(s)
        elif res == FLED:
            self.off_road(s)

    op_grows = passive("grows", "Monsters: +amount Strength per character of the group (`battle`).", amount=int)
    op_immune = passive("immune", "Monsters: skill cards of the skill are not offered (`battle_cards`).", skill=("magic", "ki", "trickery"))
    op_unavoidable = passive("unavoidable", "Monsters: no flee or cancel is offered (`battle_cards`).")
    op_lair = passive("lair", "Locations: its lead monster has +amount Strength (`resolve_event`).", amount=int)
    op_solitary = passive("solitary", "Locations: explored by one group a turn (`exploration_step`).")
    op_rehire = passive("rehire", "Locations: hiring on two turns in a row is allowed (`rewards_here`).")
    op_sleepless = passive("sleepless", "Characters: never fall asleep (`can_sleep`).")
    op_guardian = passive("guardian", "Characters: rotate to turn a death into sleep (`die_char`).")
    op_no_avoid = passive("no_avoid", "Organisations: no flee or cancel against monsters (`battle_cards`).")
    op_no_trade = passive("no_trade", "Organisations: the member may not trade (`can_trade`).")
    op_no_rest = passive("no_rest", "Organisations: the member may not rest (`moves`).")
    op_trade_anywhere = passive("trade_anywhere", "Organisations: trading from any location (`can_trade`).")
    op_free_magic = passive("free_magic", "Organisations: the first Magic card a turn rotates nobody (`play_card`).")
    op_needs_skill = passive("needs_skill", "Organisations: discarded without a character of the skill (`discard_step`).", skill=("magic", "ki", "trickery"))
    op_no_hire_trade = passive("no_hire_trade", "Organisations: no hire reward at trade locations (`rewards_here`).")
