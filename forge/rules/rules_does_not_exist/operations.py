"""The rave game's card operations: a monster's failure acts on the failing player; a Class's
or Mercenary's abilities are passive (`tables` reads them into the owners' ability tables).
`check` validates the card data against `OPERATIONS`."""
from __future__ import annotations

from ..core import Flow, operation, operations_of, passive
from .choices import LEAVE, PAY
from .state import State
from .tables import RESET_CARDS, RESET_COST, ROLES


class Operations(State):
    """The operations, as methods of the match they act on (`flow.Match` inherits them)."""

    # Monster failures act on ``s``, a failing player who did not escape. Class and Mercenary
    # abilities are passive: `CardTables` reads them into `fx` tables, and `State.fx` sums them
    # for the owner; their methods below only register them (they never run on their own).
    @operation("discard", count=int, zone=("hand", "inventory"))
    def op_discard(self, s: int, count: int, zone: str) -> Flow[None]:
        cards = self.hand[s] if zone == "hand" else self.inv[s]
        for _ in range(min(count, len(cards))):
            c = yield from self.ask("discard", s, self.choices.picks("drop", cards))
            cards.remove(c[1])
            self.discard.append(c[1])

    @operation("lose_souls", count=int)
    def op_lose_souls(self, s: int, count: int) -> Flow[None]:
        self.souls[s] = max(0, self.souls[s] - count)
        return
        yield

    @operation("lose_class")
    def op_lose_class(self, s: int) -> Flow[None]:
        self.classes.extend(self.cls[s])
        self.cls[s] = []
        self.refx(s)
        yield from self.limits(s)

    @operation("lose_mercenaries", count=int)
    def op_lose_mercenaries(self, s: int, count: int) -> Flow[None]:
        for _ in range(min(count, len(self.mercs[s]))):
            c = yield from self.ask("dismiss", s, self.choices.picks("dismiss", self.mercs[s]))
            yield from self._dismiss(s, c[1])

    @operation("skip_turn")
    def op_skip_turn(self, s: int) -> Flow[None]:
        self.skip[s] += 1
        return
        yield

    @operation("reset")
    def op_reset(self, s: int) -> Flow[None]:
        """«Обнулення»: hand, inventory, Class and Mercenaries go; then pay a soul for 5 cards
        and a random Class, or leave; with no soul the player is out. Either way a Host's turn
        ends with the bounty (no wrap-up)."""
        self.resets += 1
        self.discard.extend(self.hand[s])
        self.discard.extend(self.inv[s])
        self.hand[s], self.inv[s] = [], []
        self.classes.extend(self.cls[s])
        self.cls[s] = []
        for m in list(self.mercs[s]):
            self.mercs[s].remove(m)
            self.discard.extend(self.under.pop(m))
            self.calls.pop(m, None)
            self.merc_deck.append(m)
        self.refx(s)
        self.host_out = self.host_out or s == self.host
        c: tuple = LEAVE
        if self.souls[s] >= RESET_COST:
            c = yield from self.ask("reset", s, [PAY, LEAVE])
        self._log("reset", s, c[0])
        if c[0] == "pay":
            self.souls[s] -= RESET_COST
            for _ in range(RESET_CARDS):
                yield from self._draw_to(self.hand[s])
            yield from self._take_class(s)
        else:
            # DECISION: a player who leaves returns their souls; their turns are skipped.
            self.alive[s] = False
            self.souls[s] = 0
            self.skip[s] = 0
            self.out_turn[s] = self.turns

    op_raise_limit = passive("raise_limit", "Passive: the owner's hand or inventory limit is higher (`hand_limit`, `inv_limit`).", zone=("hand", "inventory"), amount=int)
    op_draft_extra = passive("draft_extra", "Passive: more cards in the owner's draft (`turn`).", count=int)
    op_bonus_souls = passive("bonus_souls", "Passive: more souls for a success in that role (`gain`).", role=ROLES, count=int)
    op_escape_bonus = passive("escape_bonus", "Passive: added to the owner's d6 escape rolls (`bounty`).", add=int)
    op_hire_bonus = passive("hire_bonus", "Passive: added to the owner's d6 hiring rolls (`_shop`).", add=int)
    op_genre_bonus = passive("genre_bonus", "Passive: each card of the genre in the owner's lineup counts more (`strength`).", genre=str, amount=int)
    op_reroll_expectation = passive("reroll_expectation", "Passive: the owner may reroll the expectation d20 (`turn`).", count=int)
    op_merc_choose = passive("merc_choose", "Passive: the owner chooses the card this Mercenary tosses in (`_rave_act`).")
    op_merc_boost = passive("merc_boost", "Passive: cards this Mercenary tosses in count more (`strength`).", amount=int)


OPERATIONS = operations_of(Operations)

#: Operations that act when a monster's failure strikes, and those that are owner abilities.
FAILURE_OPS = frozenset({"discard", "lose_souls", "lose_class", "lose_mercenaries", "skip_turn",
                         "reset"})
ABILITY_OPS = frozenset(OPERATIONS) - FAILURE_OPS
MERC_ONLY = frozenset({"merc_choose", "merc_boost"})
