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

To a dask cluster a chunk goes as plain data naming forge's own task (`TASKS`), and its result
comes back as plain data (forge.rules.plain), checked before it is merged: forge unpickles no
result. dask's own protocol still unpickles parts of what a scheduler or worker sends (some
control messages, a task's exception), so a hostile cluster can still run code in forge:
connect only to a cluster you run (docs/simulate.md).
"""
from __future__ import annotations

import hashlib
import math
import os
import signal
import sys
import tempfile
import threading
import warnings
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from importlib import import_module
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..errors import EngineError, ForgeError, UsageError
from . import plain

#: Executors `--executor` names.
EXECUTORS = ("loky", "dask")
#: The most games in one chunk: a chunk is a few seconds of work at most, so progress moves,
#: Ctrl-C loses little and a cluster balances its load.
CHUNK = 200
#: The most workers a run sizes its chunks for and keeps busy (two chunks each under way): a
#: cluster that claims more is used as if it had this many.
MAX_WORKERS = 4096


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run; ``partial`` is what the finished chunks added up to."""

    def __init__(self, partial: Any):
        super().__init__("interrupted")
        self.partial = partial


@plain.kind
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


@plain.kind
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


def cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system keeps one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:                          # macOS, Windows
        return os.cpu_count() or 1


def local_workers(jobs: int) -> int:
    """Worker processes for ``jobs`` on this machine: 0 is one per core, and more than the
    cores is capped at them (one process a core keeps every core busy; more only cost memory,
    processes and semaphores)."""
    if jobs < 0:
        raise UsageError(f"--jobs: 0 or more, not {jobs}")
    return min(jobs, cores()) if jobs else cores()


def run_chunks(task: Callable[[Any, int, int], Any], spec: Any, games: int, merge: Callable,
               total: Any, jobs: int = 1, executor: str = "loky", address: str | None = None,
               advance: Callable[[int], None] | None = None) -> Any:
    """Play ``games`` games as chunks ``task(spec, first, count)`` and return ``total`` with
    every chunk's result merged in (``merge(total, part) -> total``). ``jobs``: worker
    processes (0: one per core, more than the cores: the cores; 1 with loky: this process).
    ``advance(count)`` is called as each chunk ends. Ctrl-C raises `Interrupted` carrying the
    total so far. On dask, ``task`` is one of `TASKS`, ``spec`` and the results travel as
    plain data (forge.rules.plain), and each result is checked (its type's ``check``)."""
    if executor not in EXECUTORS:
        raise UsageError(f"--executor: one of {', '.join(EXECUTORS)}, not {executor!r}")
    jobs = local_workers(jobs)
    advance = advance or (lambda n: None)
    try:
        with ExitStack() as stack:
            parts: Iterable[tuple[int, Any]]
            if executor == "loky" and jobs == 1:
                parts = ((count, task(spec, first, count)) for first, count in chunks(games, 1))
            elif executor == "loky":
                parts = stack.enter_context(_on_loky(task, spec, games, jobs))
            else:
                parts = stack.enter_context(_on_dask(task, spec, games, jobs, address, type(total)))
            for count, part in parts:
                try:
                    total = merge(total, part)
                except TypeError as exc:        # an engine's tally that does not add up
                    raise EngineError(f"a chunk's counts do not add up: {exc}") from None
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
def _on_loky(task: Callable, spec: Any, games: int, jobs: int) -> Iterator[Iterator[tuple[int, Any]]]:
    """The chunks' results, as they end, from ``jobs`` local worker processes (joblib's loky,
    started once and reused). A worker that dies (the system killed it: out of memory, a
    signal) ends the run with an EngineError."""
    from joblib import Parallel, delayed
    from joblib.externals.loky.process_executor import BrokenProcessPool
    loky = {"backend": "loky", "initializer": _quiet}
    with _joblib_notes():
        try:
            with _starting():        # start the workers now; the run reuses them
                Parallel(n_jobs=jobs, **loky)(delayed(os.getpid)() for _ in range(jobs))
            run = Parallel(n_jobs=jobs, return_as="generator_unordered", **loky)
            yield run(delayed(_chunk)(task, spec, first, count) for first, count in chunks(games, jobs))
        except BrokenProcessPool:       # TerminatedWorkerError among them
            raise EngineError("a worker process ended without its result (the system killed it: "
                              "out of memory, or a signal); run with --jobs 1 to play the games "
                              "in this process") from None


@contextmanager
def _joblib_notes() -> Iterator[None]:
    """joblib's warnings while it runs the workers (a worker restarted, one it could not
    stop) as a plain line each on stderr once the run ends, not Python's warning text; a
    run stopped by an error or Ctrl-C says only that. Other warnings are shown as usual."""
    with warnings.catch_warnings(record=True) as caught:
        yield
    notes: dict[str, None] = {}          # the joblib notes, once each, in order
    for w in caught:
        if f"{os.sep}joblib{os.sep}" in w.filename:
            notes[str(w.message).strip().splitlines()[0]] = None
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    for note in notes:
        sys.stderr.write(f"forge: note: {note}\n")


#: The chunk tasks a dask worker runs: forge's own functions, named and imported there, never
#: sent as code.
TASKS = ("forge.rules.simulate:play_chunk", "forge.rules.compare:compare_chunk")


def _remote(name: str, spec: str, first: int, count: int) -> str:
    """A chunk on a dask worker: the task ``name`` (one of `TASKS`) on the spec sent as plain
    data; its result goes back as plain data."""
    if name not in TASKS:
        raise EngineError(f"{name!r} is not a forge chunk task")
    module, _, function = name.partition(":")
    task = getattr(import_module(module), function)     # also registers the spec's kinds
    return plain.dumps(task(plain.loads(spec, object), first, count))


@contextmanager
def _on_dask(task: Callable, spec: Any, games: int, jobs: int, address: str | None,
             expected: type) -> Iterator[Iterator[tuple[int, Any]]]:
    """The chunks' results, as they end, from a dask cluster: the scheduler at ``address``, or
    a local cluster of ``jobs`` processes started (and closed) here. A result is read only as
    plain data (the client takes nothing serialized with pickle from the cluster) and must be
    an ``expected`` whose ``check`` passes; anything else is an EngineError. dask's own
    messages can still carry pickles (docs/simulate.md): connect only to a cluster you run."""
    name = f"{task.__module__}:{task.__qualname__}"
    if name not in TASKS:
        raise EngineError(f"{name} is not a forge chunk task: a dask cluster runs only {TASKS}")
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UsageError("--executor dask needs dask, forge's [dask] extra: "
                         "pip install 'dask[distributed]'") from None
    import logging
    try:
        text = plain.dumps(spec)
    except (TypeError, ValueError) as exc:     # an engine option of a type JSON lacks
        raise EngineError(f"this run cannot travel to a dask cluster as plain data: {exc}") from None
    with ExitStack() as stack:
        # dask logs a refused result with a traceback on stderr; forge says what happened
        log = logging.getLogger("distributed")
        stack.callback(log.setLevel, log.level)
        log.setLevel(logging.CRITICAL + 1)
        if address:
            try:
                client = stack.enter_context(Client(address, timeout="10s", **_PLAIN_ONLY))
            except (OSError, ValueError) as exc:
                raise UsageError(f"--address {address}: no dask scheduler answers ({exc})") from None
        else:
            with _starting():
                cluster = stack.enter_context(LocalCluster(
                    n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None,
                    silence_logs=logging.CRITICAL + 1))
                client = stack.enter_context(Client(cluster, **_PLAIN_ONLY))
        threads = client.nthreads().values()
        if not all(type(n) is int and n >= 0 for n in threads):
            raise EngineError(f"{address}: the scheduler's count of worker threads is not a count")
        workers = min(sum(threads), MAX_WORKERS) or 1
        spans = chunks(games, workers)
        counts: dict[str, int] = {}

        def submit(first: int, count: int) -> Any:
            future = client.submit(_remote, name, text, first, count, pure=False)
            counts[future.key] = count
            return future

        running = as_completed([submit(*span) for span in islice(spans, 2 * workers)])
        source = address or "the local dask cluster"

        def parts() -> Iterator[tuple[int, Any]]:
            for future in running:
                for span in islice(spans, 1):       # keep two chunks a worker under way
                    running.add(submit(*span))
                yield counts.pop(future.key), _received(future, expected, source)
        yield parts()


#: The client reads what the cluster sends with msgpack alone: a result serialized with pickle
#: is refused, not unpickled.
_PLAIN_ONLY = {"deserializers": ["msgpack"]}


def _received(future: Any, expected: type, source: str) -> Any:
    """The result of a chunk played on a dask cluster, read as plain data and checked."""
    try:
        text = future.result()
    except ForgeError:
        raise
    except Exception as exc:    # noqa: BLE001 - whatever the cluster says, the run cannot go on
        raise EngineError(f"{source}: a chunk failed on the dask cluster, or its result is not "
                          f"plain data: {type(exc).__name__}: {str(exc)[:200]}") from None
    try:
        if type(text) is not str:
            raise ValueError(f"a {type(text).__name__}, not forge's plain data")
        part: Any = plain.loads(text, expected)
        part.check()
    except (ValueError, TypeError, RecursionError) as exc:
        raise EngineError(f"{source}: a worker sent back a result forge does not read: "
                          f"{str(exc)[:200]}") from None
    return part
