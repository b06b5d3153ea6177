"""Where a run's chunks of games are played: in this process, on local worker processes
(joblib's loky, the default: portable, no `fork`), or on a dask cluster (local or remote).

A chunk is ``task(spec, first, count)``: it plays games ``first .. first + count - 1`` and
returns a tally; `run_chunks` hands out more chunks than there are workers (a slow chunk does
not hold the others up), merges the tallies as they arrive, in whatever order, and moves a
progress callback on. Ctrl-C stops the workers and raises `Interrupted` with what was merged.

A worker on another machine cannot read this machine's files, so a game travels as its files
(`GameSource`: the manifest and card files, some tens of kB) and each worker process rebuilds
the prepared tables once per configuration (`Setup.prepared`). The engine itself must be
installed there (forge, and a game's own engine package).
"""
from __future__ import annotations

import hashlib
import math
import os
import signal
import tempfile
import threading
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from ..errors import EngineError, UsageError

#: Executors `--executor` names.
EXECUTORS = ("loky", "dask")
#: The most games in one chunk: a chunk is a few seconds of work at most, so progress moves,
#: Ctrl-C loses little and a cluster balances its load.
CHUNK = 200


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run; ``partial`` is what the finished chunks added up to."""

    def __init__(self, partial: Any):
        super().__init__("interrupted")
        self.partial = partial


@dataclass(frozen=True)
class GameSource:
    """A game folder's data as bytes: its manifest and card files, named relative to it."""

    name: str
    files: tuple[tuple[str, bytes], ...] = field(repr=False)
    digest: str

    @classmethod
    def of(cls, root: Path) -> "GameSource":
        from ..model.game import MANIFEST, card_files
        root = Path(root)
        files = tuple((p.name, p.read_bytes()) for p in [root / MANIFEST, *card_files(root)])
        digest = hashlib.sha256(b"".join(n.encode() + b"\0" + d for n, d in files)).hexdigest()
        return cls(root.name, files, digest)

    def load(self) -> Any:
        """The loaded game, from a temporary copy of the files (removed once read)."""
        from ..model import load_game
        with tempfile.TemporaryDirectory(prefix="forge-game-") as tmp:
            root = Path(tmp) / self.name
            root.mkdir()
            for name, data in self.files:
                (root / Path(name).name).write_bytes(data)   # plain names: `of` wrote them
            game, findings = load_game(root)
        if game is None:
            raise EngineError(f"{self.name}: the game does not load on this worker: "
                              + "; ".join(map(str, findings[:3])))
        return game


@dataclass(frozen=True)
class Setup:
    """One configuration of one game, as any worker rebuilds it: the game's files, the engine
    options and the sets in play."""

    source: GameSource
    options: tuple[tuple[str, Any], ...]
    sets: tuple[str, ...]

    @property
    def key(self) -> tuple:
        return (self.source.digest, self.options, self.sets)

    @classmethod
    def of(cls, prep: Any) -> "Setup":
        """The setup of prepared tables built here; this process reuses them as they are."""
        setup = cls(GameSource.of(prep.game.root), tuple(sorted(prep.options.items())), prep.sets)
        _keep(setup.key, prep)
        return setup

    def prepared(self) -> Any:
        """The prepared tables, built once per process and configuration."""
        if self.key not in _PREPARED:
            from . import ENGINES
            game = self.source.load()
            _keep(self.key, ENGINES[game.manifest.engine].prepare(game, dict(self.options),
                                                                   self.sets))
        return _PREPARED[self.key]


#: Prepared tables by `Setup.key`, the most recent few (a comparison uses two or more).
_PREPARED: dict[tuple, Any] = {}


def _keep(key: tuple, prep: Any) -> None:
    _PREPARED.pop(key, None)
    _PREPARED[key] = prep
    while len(_PREPARED) > 8:
        del _PREPARED[next(iter(_PREPARED))]


def chunks(games: int, workers: int) -> Iterator[tuple[int, int]]:
    """(first, count) spans covering ``games``: at least four a worker, at most `CHUNK` games."""
    size = max(1, min(CHUNK, math.ceil(games / (4 * max(1, workers)))))
    for first in range(0, games, size):
        yield first, min(size, games - first)


def run_chunks(task: Callable[[Any, int, int], Any], spec: Any, games: int, merge: Callable,
               total: Any, jobs: int = 1, executor: str = "loky", address: str | None = None,
               advance: Callable[[int], None] | None = None) -> Any:
    """Play ``games`` games as chunks ``task(spec, first, count)`` and return ``total`` with
    every chunk's result merged in (``merge(total, part) -> total``). ``jobs``: worker
    processes (0: one per core; 1 with loky: this process). ``advance(count)`` is called as
    each chunk ends. Ctrl-C raises `Interrupted` carrying the total so far."""
    if executor not in EXECUTORS:
        raise UsageError(f"--executor: one of {', '.join(EXECUTORS)}, not {executor!r}")
    jobs = jobs or os.cpu_count() or 1
    advance = advance or (lambda n: None)
    try:
        if executor == "loky" and jobs == 1:
            for first, count in chunks(games, 1):
                total = merge(total, task(spec, first, count))
                advance(count)
            return total
        from joblib import Parallel, delayed
        with _cluster(executor, address, jobs) as (workers, backend):
            run = Parallel(n_jobs=workers, return_as="generator_unordered", **backend)
            for count, part in run(delayed(_chunk)(task, spec, first, count)
                                   for first, count in chunks(games, workers)):
                total = merge(total, part)
                advance(count)
        return total
    except KeyboardInterrupt:
        raise Interrupted(total) from None


def _chunk(task: Callable, spec: Any, first: int, count: int) -> tuple[int, Any]:
    return count, task(spec, first, count)


def _quiet() -> None:
    """A worker ignores Ctrl-C: the terminal sends it to every process of the group, and only
    the parent should stop (it then stops the workers), without a traceback from each."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _starting() -> Iterator[None]:
    """While worker processes start: they must not take the terminal's Ctrl-C (sent to every
    process of the group) while they import, before `_quiet` runs. SIGINT is blocked here, so
    every thread and process started meanwhile inherits the block (a mask survives fork and
    exec); a press is noted, not lost, and raised once the workers are up."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed = []
    old = signal.signal(signal.SIGINT, lambda *_: pressed.append(True))
    mask = hasattr(signal, "pthread_sigmask")           # not on Windows
    if mask:
        # Python 3.11's multiprocessing resource tracker unblocks SIGINT when it first starts:
        # start it before blocking (afterwards it is only checked on)
        from multiprocessing import resource_tracker
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if mask:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})   # a pending press lands
        signal.signal(signal.SIGINT, old)
    if pressed:
        raise KeyboardInterrupt


@contextmanager
def _cluster(executor: str, address: str | None, jobs: int) -> Iterator[tuple[int, dict]]:
    """The joblib backend of an executor: (worker count, `Parallel` keyword arguments). For dask,
    a client of the scheduler at ``address``, or of a local cluster of ``jobs`` processes
    started (and closed) here."""
    if executor == "loky":
        from joblib import Parallel, delayed
        loky = {"backend": "loky", "initializer": _quiet}
        with _starting():        # start the workers now; the run reuses them
            Parallel(n_jobs=jobs, **loky)(delayed(os.getpid)() for _ in range(jobs))
        yield jobs, loky
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--executor dask needs dask, forge's [dask] extra: "
                         "pip install 'dask[distributed]'") from None
    import logging
    from joblib import parallel_config
    with ExitStack() as stack:
        if address:
            try:
                client = stack.enter_context(Client(address, timeout="10s"))
            except OSError as exc:
                raise UsageError(f"--address {address}: no dask scheduler answers ({exc})") from None
        else:
            with _starting():
                cluster = stack.enter_context(LocalCluster(
                    n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None,
                    silence_logs=logging.ERROR))
                client = stack.enter_context(Client(cluster))
        stack.enter_context(parallel_config(backend="dask"))
        yield sum(client.nthreads().values()) or 1, {}
