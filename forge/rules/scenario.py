"""Scenarios: a YAML file sets up a position, plays scripted actions and asserts the outcome.

The format is documented in docs/scenarios.md. Public API::

    sc = load_scenario(path)          # .title, .story ({lang: text}), .data
    res = run_scenario(path)          # .passed, .failures, .title, .story, .log, .scores
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ForgeError
from ..load import load_yaml
from ..model import load_game
from ..model.game import cards_root
from .core import ENGINES, IllegalAction, SEAT_NAMES

KEYS = {"title", "story", "game", "players", "sets", "seed", "options", "start", "seats", "deck",
        "discard", "goals", "revealer", "chance_deck", "chance_discard", "deal", "actions",
        "default", "stop", "expect"}
#: Keys that place cards by hand, so they cannot go with `deal: true`.
PLACING = {"start", "seats", "deck", "discard", "goals", "revealer", "chance_deck", "chance_discard"}
START_KEYS = {"phase", "round", "draft", "score"}
STOP_KEYS = {"rounds", "drafts"}
SEAT_KEYS = {"hand", "job", "unattached", "pairs", "vp"}
CHECK_KEYS = {"at", "legal", "illegal", "together"}
EXPECT_KEYS = {"order", "scores", "winners", "banked", "zones", "discard", "not_discarded", "goals",
               "tokens", "over", "asked", "box", "sizes", "goal_table", "vp_face_up"}
ZONE_KEYS = {"pairs", "unattached", "hand", "hand_size", "job"}
SIZE_ZONES = ("deck", "discard", "box", "chance_deck", "chance_discard", "goal_deck", "vp_deck",
              "goals", "goal_vp")
GOAL_TABLE_KEYS = {"first", "end", "vp_cards", "face_up", "values"}


class ScenarioError(ForgeError):
    """A scenario file that cannot be read or set up."""


@dataclass
class Scenario:
    path: Path
    title: dict[str, str]
    story: dict[str, str]
    data: dict


@dataclass
class ScenarioResult:
    path: Path
    title: dict[str, str]
    story: dict[str, str]
    passed: bool
    failures: list[str] = field(default_factory=list)
    log: list = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    orders: list[list[str]] = field(default_factory=list)

    def __str__(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.path}: {self.title.get('en', '')}"
        return "\n".join([head] + [f"  - {f}" for f in self.failures])


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    doc, findings = load_yaml(path)
    if doc is None:
        raise ScenarioError("; ".join(map(str, findings)))
    data = doc.data
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario is a YAML mapping")
    unknown = set(data) - KEYS
    if unknown:
        raise ScenarioError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}")
    for key in ("title", "story"):
        value = data.get(key)
        if not isinstance(value, dict) or not value.get("uk") or not value.get("en"):
            raise ScenarioError(f"{path}: {key} needs non-empty 'uk' and 'en' texts")
    if data.get("deal") and PLACING & set(data):
        raise ScenarioError(f"{path}: `deal: true` lets the engine set the game up; it cannot go "
                            f"with {', '.join(sorted(PLACING & set(data)))}")
    _known(path, "start", data.get("start"), START_KEYS)
    _known(path, "stop", data.get("stop"), STOP_KEYS)
    _known(path, "expect", data.get("expect"), EXPECT_KEYS)
    for name, spec in ((data.get("seats") or {})).items():
        _known(path, f"seats.{name}", spec, SEAT_KEYS)
    for name, z in (((data.get("expect") or {}).get("zones") or {})).items():
        _known(path, f"expect.zones.{name}", z, ZONE_KEYS)
    _known(path, "expect.goal_table", (data.get("expect") or {}).get("goal_table"), GOAL_TABLE_KEYS)
    for z in (((data.get("expect") or {}).get("sizes") or {})):
        if z not in SIZE_ZONES:
            raise ScenarioError(f"{path}: expect.sizes: unknown zone {z!r} "
                                f"(known: {', '.join(SIZE_ZONES)})")
    for step in data.get("actions") or []:
        if isinstance(step, dict) and len(step) == 1:
            (what,) = step.values()
            if isinstance(what, dict):
                _known(path, "a check", what, CHECK_KEYS)
                if "at" not in what:
                    raise ScenarioError(f"{path}: a check needs `at:` (the decision kind)")
    return Scenario(path, dict(data["title"]), dict(data["story"]), data)


def _known(path: Path, where: str, value: Any, keys: set[str]) -> None:
    """Refuse unknown keys in a mapping of the scenario (a typo must not pass silently)."""
    if value is None or not isinstance(value, dict):
        return
    unknown = set(value) - keys
    if unknown:
        raise ScenarioError(f"{path}: {where}: unknown key(s) {', '.join(sorted(unknown))}")


def _seat(name: Any, n: int, path: Path) -> int:
    if isinstance(name, str) and len(name) == 1 and name in SEAT_NAMES[:n]:
        return SEAT_NAMES.index(name)
    raise ScenarioError(f"{path}: {name!r} is not a seat (A..{SEAT_NAMES[n - 1]})")


def build(sc: Scenario, game: Any = None):
    """Set up the scenario's position; returns the match, ready to play."""
    d, path = sc.data, sc.path
    game_id = d.get("game", "love_formula")
    if game is None:
        game, findings = load_game(cards_root() / game_id)
        if game is None:
            raise ScenarioError(f"{path}: cannot load game {game_id!r}")
    module = ENGINES.get(game.manifest.engine or "")
    if module is None:
        raise ScenarioError(f"{path}: {game_id} has no rules engine")
    opts = dict(d.get("options") or {})
    if opts.get("promo_replace") == "all":
        opts["promo_replace"] = module.full_replacement(game)
    elif isinstance(opts.get("promo_replace"), dict):
        opts["promo_replace"] = tuple(opts["promo_replace"].items())
    try:
        config = module.Config(sets=tuple(d.get("sets") or ("base",)), **opts)
        prep = module.prepare(game, config)
        n = int(d.get("players", 4))
        m = prep.new(n, int(d.get("seed", 0)), log=True, deal=False)
        m.auto = False    # every choice is asked, so scripted actions meet forced ones too
    except (TypeError, ValueError) as exc:
        raise ScenarioError(f"{path}: {exc}") from None
    if d.get("deal"):
        # the engine's own setup from the seed: jobs, goals and VP cards, decks, chance revealer;
        # the first draft is about to begin
        m._setup()
        m.start(0, 0, draft=True)
        return m
    pool = {cid: list(hs) for cid, hs in prep.handles_of.items()}
    for h in prep.boxed:
        pool[prep.cid[h]].remove(h)
        m.box.append(h)

    def take(cid: str) -> int:
        if cid not in pool:
            raise ScenarioError(f"{path}: no card {cid!r} in this game's sets")
        if not pool[cid]:
            raise ScenarioError(f"{path}: more copies of {cid!r} than the game has")
        return pool[cid].pop(0)

    P = prep
    for name, spec in (d.get("seats") or {}).items():
        s = _seat(name, n, path)
        spec = spec or {}
        for cid in spec.get("hand", []):
            m.hand[s].append(take(cid))
        if spec.get("job"):
            h = take(spec["job"])
            m.job_owner[h] = s
            m.hand[s].append(h)
        for cid in spec.get("unattached", []):
            m.unatt[s].append(take(cid))
        for pspec in spec.get("pairs", []):
            pspec = {"pair": pspec} if isinstance(pspec, str) else pspec
            pr = take(pspec["pair"])
            m.pairs[s].append(pr)
            m.att[pr] = []
            m.powner[pr] = s
            for cid in pspec.get("attached", []):
                h = take(cid)
                m._attach(h, pr)
                if P.type[h] != 0:
                    m.ctrl[h] = s
                    if P.dur[h]:
                        m.tokens[h] = P.dur[h]
            for ob in pspec.get("obstacles", []):
                ob = {"card": ob} if isinstance(ob, str) else ob
                h = take(ob["card"])
                m._attach(h, pr)
                m.ctrl[h] = _seat(ob.get("by", SEAT_NAMES[(s + 1) % n]), n, path)
                tokens = ob.get("tokens", P.dur[h])
                if tokens:
                    m.tokens[h] = tokens
        m.banked[s] = int(spec.get("vp", 0))
    for g in d.get("goals") or []:
        if "vp" not in g and not (m.p.config.goals_variant == "same"
                                  and m.p.config.goals_same_value):
            raise ScenarioError(f"{path}: goal {g.get('goal')!r} needs a `vp:` card "
                                "(or the same-VP variant with goals_same_value)")
        m.lay_goal(take(g["goal"]), take(g["vp"]) if "vp" in g else -1)
    m.goals_on = bool(m.goals)
    for cid in d.get("discard") or []:
        m.discard.append(take(cid))
    for cid in d.get("chance_discard") or []:
        m.chance_discard.append(take(cid))
    top = [take(cid) for cid in d.get("deck") or []]
    chance_top = [take(cid) for cid in d.get("chance_deck") or []]
    rest = sorted(h for hs in pool.values() for h in hs)
    m.rng.shuffle(rest)
    for h in rest:
        t = P.type[h]
        if P.is_job[h]:
            m.box.append(h)
        elif t == 6:
            (m.chance_deck if m.chance else m.box).append(h)
        elif t == 7:
            (m.goal_deck if m.goals_on else m.box).append(h)
        elif t == 8:
            (m.vp_deck if m.goals_on else m.box).append(h)
        else:
            m.deck.append(h)
    m.deck.extend(reversed(top))              # the deck is drawn from its end
    m.chance_deck.extend(reversed(chance_top))
    if "revealer" in d:
        m.revealer = _seat(d["revealer"], n, path)
    start = d.get("start") or {}
    if start.get("score"):
        m.phase, m.round = 1, 9
        m.start(1, 10, draft=False)
    else:
        phase = int(start.get("phase", 1)) - 1
        rnd = int(start.get("round", 1)) - 1
        if not (0 <= phase <= 1 and 0 <= rnd < 10):
            raise ScenarioError(f"{path}: start needs phase 1..2 and round 1..10")
        m.phase, m.round = phase, rnd
        m.start(phase, rnd, draft=bool(start.get("draft", False)))
    return m


def run_scenario(path: str | Path, game: Any = None) -> ScenarioResult:
    """Set up, play and check one scenario file; never raises for a failing expectation."""
    sc = load_scenario(path)
    d = sc.data
    res = ScenarioResult(sc.path, sc.title, sc.story, False)
    try:
        m = build(sc, game)
    except ScenarioError as exc:
        res.failures.append(str(exc))
        return res
    n = m.n
    queues: list[list[Any]] = [[] for _ in range(n)]
    for step in d.get("actions") or []:
        if not isinstance(step, dict) or len(step) != 1:
            res.failures.append(f"action {step!r}: write one `SEAT: action` per line")
            return res
        (who, what), = step.items()
        queues[_seat(who, n, sc.path)].append(what if isinstance(what, dict) else str(what).strip())
    default = d.get("default", "pass")
    stop = d.get("stop", "game")
    rounds_goal = stop.get("rounds") if isinstance(stop, dict) else None
    drafts_goal = stop.get("drafts") if isinstance(stop, dict) else None
    asked: list[list[str]] = [[] for _ in range(n)]
    guard = 0
    while m.decision is not None:
        if rounds_goal is not None and m.rounds_done >= rounds_goal:
            break
        if drafts_goal is not None and m.drafts_done >= drafts_goal:
            break
        guard += 1
        if guard > 20000:
            res.failures.append("the scenario did not end (20000 decisions)")
            break
        dec = m.decision
        choices = []
        for s, opts in zip(dec.seats, dec.options):
            labels = [m.label(o) for o in opts]
            asked[s].append(dec.kind)
            while queues[s] and isinstance(queues[s][0], dict) and queues[s][0]["at"] == dec.kind:
                _check(queues[s].pop(0), SEAT_NAMES[s], dec, labels, res, n)
            chosen = None
            if queues[s] and queues[s][0] in labels:
                chosen = opts[labels.index(queues[s].pop(0))]
            elif default == "pass" and "pass" in labels:
                chosen = opts[labels.index("pass")]
            else:
                chosen = opts[0]
            choices.append(chosen)
        try:
            m.step(tuple(choices))
        except IllegalAction as exc:
            res.failures.append(f"illegal action: {exc}")
            break
        except Exception as exc:   # an invariant or an engine error: the scenario fails
            res.failures.append(f"{type(exc).__name__}: {exc}")
            break
    for s, q in enumerate(queues):
        if q:
            res.failures.append(f"seat {SEAT_NAMES[s]}: actions never legal (or checks never "
                                f"reached): {q}")
    res.log = list(m.log or [])
    res.orders = [[SEAT_NAMES[s] for s in o] for o in m.orders]
    scores = m.result["scores"] if m.result else m.scores()
    res.scores = scores
    _expect(m, d.get("expect") or {}, res, scores, asked)
    res.passed = not res.failures
    return res


def _check(chk: dict, seat: str, dec: Any, labels: list[str], res: ScenarioResult, n: int) -> None:
    """A check in the script: what the engine offers this seat at this decision."""
    fail = res.failures.append
    where = f"seat {seat} at its `{dec.kind}` decision"
    for a in chk.get("legal") or []:
        if str(a).strip() not in labels:
            fail(f"{where}: `{a}` should be legal; offered: {labels}")
    for a in chk.get("illegal") or []:
        if str(a).strip() in labels:
            fail(f"{where}: `{a}` should not be offered")
    if "together" in chk:
        got = sorted(SEAT_NAMES[s] for s in dec.seats)
        if got != sorted(chk["together"]):
            fail(f"{where}: expected one choice made together by {sorted(chk['together'])}, "
                 f"got {got}")


def _ids(m: Any, handles: list[int]) -> Counter:
    return Counter(m.p.cid[h] for h in handles)


def _expect(m: Any, exp: dict, res: ScenarioResult, scores: list[int],
            asked: list[list[str]] | None = None) -> None:
    n, path = m.n, res.path
    fail = res.failures.append
    if "order" in exp:
        want = [list(o) for o in exp["order"]]
        if res.orders[:len(want)] != want:
            fail(f"order: expected {want}, got {res.orders[:len(want)]}")
    for name, v in (exp.get("scores") or {}).items():
        s = _seat(name, n, path)
        if scores[s] != v:
            fail(f"score of {name}: expected {v}, got {scores[s]}")
    if "winners" in exp:
        if m.result is None:
            fail("winners: the game has not ended")
        else:
            got = [SEAT_NAMES[s] for s in m.result["winners"]]
            if sorted(got) != sorted(exp["winners"]):
                fail(f"winners: expected {exp['winners']}, got {got}")
    for name, v in (exp.get("banked") or {}).items():
        s = _seat(name, n, path)
        if m.banked[s] != v:
            fail(f"banked VP of {name}: expected {v}, got {m.banked[s]}")
    for name, z in (exp.get("zones") or {}).items():
        s = _seat(name, n, path)
        if "pairs" in z:
            got = {m.p.cid[pr]: _ids(m, m.att[pr]) for pr in m.pairs[s]}
            want = {k: Counter(v or []) for k, v in (z["pairs"] or {}).items()}
            if got != want:
                fail(f"{name} pairs: expected {_show(want)}, got {_show(got)}")
        for key, attr in (("unattached", "unatt"), ("hand", "hand")):
            if key in z:
                got = _ids(m, getattr(m, attr)[s])
                if got != Counter(z[key] or []):
                    fail(f"{name} {key}: expected {sorted(z[key] or [])}, got {sorted(got.elements())}")
        if "hand_size" in z and len(m.hand[s]) != z["hand_size"]:
            fail(f"{name} hand size: expected {z['hand_size']}, got {len(m.hand[s])}")
        if "job" in z:
            jobs = [h for h in m.hand[s] if m.p.is_job[h]]
            if m.job_aside[s] >= 0:
                jobs.append(m.job_aside[s])
            got = [m.p.cid[h] for h in jobs]
            if got != ([z["job"]] if z["job"] else []):
                fail(f"{name} job: expected {z['job']}, got {got}")
    if "discard" in exp:
        have = _ids(m, m.discard)
        for cid in exp["discard"]:
            if have[cid] <= 0:
                fail(f"discard: {cid} is not in the discard pile")
            have[cid] -= 1
    if "not_discarded" in exp:
        have = _ids(m, m.discard)
        for cid in exp["not_discarded"]:
            if have[cid]:
                fail(f"discard: {cid} should not be in the discard pile")
    for gid, who in (exp.get("goals") or {}).items():
        got = [sorted(SEAT_NAMES[s] for s in m.goal_claimed[i])
               for i, g in enumerate(m.goals) if m.p.cid[g] == gid]
        if not got:
            fail(f"goal {gid} is not in play")
        elif got[0] != sorted(who or []):
            fail(f"goal {gid}: expected {sorted(who or [])}, got {got[0]}")
    for cid, t in (exp.get("tokens") or {}).items():
        got = [m.tokens[h] for h in m.tokens if m.p.cid[h] == cid]
        if got != ([t] if t else []):
            fail(f"tokens on {cid}: expected {t}, got {got or 0}")
    if "over" in exp and bool(m.result) != bool(exp["over"]):
        fail(f"game over: expected {exp['over']}, got {bool(m.result)}")
    for name, kinds in (exp.get("asked") or {}).items():
        s = _seat(name, n, path)
        if asked is not None and asked[s] != list(kinds or []):
            fail(f"{name} was asked {asked[s]}, expected {list(kinds or [])}")
    if "box" in exp:
        got, want = _ids(m, m.box), Counter(exp["box"] or [])
        if got != want:
            fail(f"box: expected {sorted(want.elements())}, got {sorted(got.elements())}")
    for zone, size in (exp.get("sizes") or {}).items():
        if len(getattr(m, zone)) != size:
            fail(f"size of {zone}: expected {size}, got {len(getattr(m, zone))}")
    if "goal_table" in exp:
        gt, P = exp["goal_table"], m.p
        got = {"first": sum(1 for g in m.goals if P.goal[g][0] == "first"),
               "end": sum(1 for g in m.goals if P.goal[g][0] == "end"),
               "vp_cards": len(m.goal_vp), "face_up": sum(m.goal_open),
               "values": sorted(m.goal_value)}
        for key, want in gt.items():
            want = sorted(want) if key == "values" else want
            if got[key] != want:
                fail(f"goal table {key}: expected {want}, got {got[key]}")
    for gid, up in (exp.get("vp_face_up") or {}).items():
        got = [m.goal_open[i] for i, g in enumerate(m.goals) if m.p.cid[g] == gid]
        if not got:
            fail(f"goal {gid} is not in play")
        elif got[0] != bool(up):
            fail(f"VP card under {gid}: expected face {'up' if up else 'down'}, "
                 f"got face {'up' if got[0] else 'down'}")


def _show(d: dict) -> str:
    return "{" + ", ".join(f"{k}: {sorted(v.elements())}" for k, v in sorted(d.items())) + "}"
