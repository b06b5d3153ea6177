"""A game's folder as a git revision holds it, written into a folder of its own (`forge compare`).

The repository may come with the game (a folder shared with its `.git/`), so it is untrusted
input like the game. Git is asked only for objects by their names (`rev-parse`, `ls-tree`,
`cat-file`), never to check out or archive, so files arrive as committed: no smudge filter,
no attribute (export-subst, export-ignore) and no program that the repository's config names
runs; `GIT` turns off the rest (fetching a partial clone's missing objects through the remote
the config names), and a git command is stopped after `GIT_SECONDS`. A revision is refused
before its files are read when one is larger than forge's data file limit or the folder has
more than `MAX_FILES` files or `MAX_BYTES`; a link is kept only if it leads to somewhere inside
the game folder.
"""
from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterator

from .errors import Finding, FindingsError, UsageError
from .load import MAX_FILE_BYTES

#: What a revision's game folder may hold: files, and bytes written in all.
MAX_FILES = 20_000
MAX_BYTES = 256 * 2**20

#: Git with nothing of the repository's config able to start a program: a revision names
#: objects, never options (`--end-of-options`) or pathspec magic; no fsmonitor; no fetch of a
#: partial clone's missing objects, and no transport at all whatever the config allows
#: (`GIT_ALLOW_PROTOCOL` empty), so never the upload-pack or ssh command a remote names.
GIT = ("git", "--no-pager", "--literal-pathspecs", "-c", "core.fsmonitor=false")
GIT_ENV = {"GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": "", "GIT_TERMINAL_PROMPT": "0"}
#: Seconds one git command may take: the config can make git wait or read forever (an
#: `include.path` naming a pipe or /dev/zero); a command that takes longer is stopped.
GIT_SECONDS = 60

CHUNK = 2**20
LONGEST_PATH = 4096     # PATH_MAX: a longer path could not be written


@dataclass
class Entry:
    """A file of the revision: its object, path from the repository's top, whether it is a
    symbolic link (its blob is then the link's target), and its size once git has said it."""

    oid: str
    path: str
    link: bool
    size: int = 0


def extract(root: Path, rev: str, dest: Path) -> Path:
    """Write the game folder ``root`` as revision ``rev`` of its repository holds it into the
    empty folder ``dest``, and return the copy (``rev`` was found not to be a folder). A
    revision git does not know is a `UsageError`; what forge will not write (a link out, a file
    or a folder too large, a file the clone lacks) is a `FindingsError` at ``rev:path``, raised
    before anything is read."""
    top = Path(os.fsdecode(_git(root, "rev-parse", "--show-toplevel", why=f"not a folder, and "
                                f"{root} is not in a git repository").rstrip(b"\n")))
    inside = root.resolve().relative_to(top.resolve()).as_posix()
    commit = _git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}",
                  why=f"neither a folder nor a commit of the git repository at {top}")
    prefix = "" if inside == "." else inside + "/"
    entries = _listing(top, commit.decode().strip(), rev, prefix)
    _sizes(top, rev, entries, prefix)
    game = Path(os.path.realpath(dest)) / root.resolve().name     # the name is the game's id
    _write(top, rev, entries, prefix, game)
    return game


def _refuse(rev: str, path: str, code: str, message: str, fix: str = "") -> FindingsError:
    return FindingsError([Finding(f"{rev}:{path}", 0, 0, code, message, fix)])


def _listing(top: Path, commit: str, rev: str, prefix: str) -> list[Entry]:
    """The files under ``prefix`` in ``commit`` (git reads trees only, no file)."""
    entries: list[Entry] = []
    findings: list[Finding] = []
    with _popen(top, "ls-tree", "-r", "-z", "--full-tree", commit,
                *(["--", prefix] if prefix else [])) as proc:
        for count, record in enumerate(_records(proc.stdout, rev, prefix)):
            if count == MAX_FILES:
                raise _refuse(rev, prefix, "too-large", f"the game folder holds more than "
                              f"{MAX_FILES:,} files at this revision")
            meta, _, raw = record.partition(b"\t")
            mode, kind, oid = meta.decode("ascii", "replace").split()
            path = os.fsdecode(raw)
            if kind != "blob" or not path.startswith(prefix):
                continue    # a submodule (a commit) is not part of the folder's files
            if any(part in ("", ".", "..") for part in path[len(prefix):].split("/")):
                findings.append(Finding(f"{rev}:{path}", 0, 0, "path-outside", "a path with an "
                                        "empty, '.' or '..' part (git never makes one)"))
            else:
                entries.append(Entry(oid, path, mode == "120000"))
    if findings:
        raise FindingsError(findings)
    if not entries:
        raise UsageError(f"the revision has no {prefix or 'files'}")
    return entries


def _sizes(top: Path, rev: str, entries: list[Entry], prefix: str) -> None:
    """Each file's size, from git's object headers: a file over forge's data file limit, or
    files over `MAX_BYTES` in all, are findings, as is a file the clone does not hold."""
    said = _git(top, "cat-file", "--batch-check", why="git could not read the revision's files "
                "(what a partial clone lacks, forge does not let git fetch: fetch it with git first)",
                input=b"".join(entry.oid.encode() + b"\n" for entry in entries)).splitlines()
    findings: list[Finding] = []
    total = 0
    for entry, line in zip(entries, said, strict=True):
        head = line.decode("ascii", "replace").split()
        where = f"{rev}:{entry.path}"
        if len(head) != 3 or head[1] != "blob" or not head[2].isdigit():
            findings.append(Finding(where, 0, 0, "path-missing", "the file is not in the "
                                    "repository (a partial clone?), and forge does not let git "
                                    "fetch it", "fetch the revision with git first"))
            continue
        entry.size = int(head[2])
        if entry.size > MAX_FILE_BYTES:
            findings.append(Finding(where, 0, 0, "too-large", f"the file is larger than "
                                    f"{MAX_FILE_BYTES // 2**20} MiB ({entry.size:,} bytes)",
                                    "keep big files out of the game folder"))
            continue
        total += entry.size
        if total > MAX_BYTES:
            raise _refuse(rev, prefix, "too-large", f"the game folder holds more than "
                          f"{MAX_BYTES // 2**20} MiB at this revision")
    if findings:
        raise FindingsError(findings)


def _write(top: Path, rev: str, entries: list[Entry], prefix: str, game: Path) -> None:
    """Write the files under ``prefix`` into ``game``, then the links; a link that leads out of
    ``game`` is refused. No link exists while files and folders are made, so nothing is written
    through one."""
    links: list[tuple[Entry, Path, str]] = []
    with _popen(top, "cat-file", "--batch", stdin=subprocess.PIPE) as proc:
        for entry in entries:
            proc.stdin.write(entry.oid.encode() + b"\n")
            proc.stdin.flush()
            if proc.stdout.readline(256).split()[1:] != [b"blob", str(entry.size).encode()]:
                raise _refuse(rev, entry.path, "path-missing", "git could not read the file")
            target = game / entry.path[len(prefix):]
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                if entry.link:
                    links.append((entry, target, os.fsdecode(proc.stdout.read(entry.size))))
                else:
                    with open(target, "xb") as out:
                        left = entry.size
                        while left and (chunk := proc.stdout.read(min(left, CHUNK))):
                            out.write(chunk)
                            left -= len(chunk)
                    if left:
                        raise _refuse(rev, entry.path, "path-missing", "git stopped sending the file")
            except OSError as exc:
                raise _refuse(rev, entry.path, "unwritable", f"cannot be written "
                              f"({exc.strerror or exc})") from None
            proc.stdout.read(1)     # the newline after each object
        proc.stdin.close()
    for entry, target, to in links:
        try:
            os.symlink(to, target)
        except (OSError, ValueError) as exc:
            raise _refuse(rev, entry.path, "unwritable", f"a link that cannot be made ({exc})") from None
    out = [Finding(f"{rev}:{entry.path}", 0, 0, "path-outside", f"a link to {to!r}, which leads "
                   "out of the game folder", "link to a file inside the game, or copy it in")
           for entry, target, to in links
           if not Path(os.path.realpath(target)).is_relative_to(game)]
    if out:
        raise FindingsError(out)


def _records(stream: IO[bytes], rev: str, prefix: str) -> Iterator[bytes]:
    """NUL-terminated records from ``stream``, none longer than a path can be."""
    rest = b""
    while chunk := stream.read(CHUNK):
        *done, rest = (rest + chunk).split(b"\0")
        yield from done
        if len(rest) > LONGEST_PATH + 200:
            raise _refuse(rev, prefix, "too-large", f"a path longer than {LONGEST_PATH} bytes")


def _command(cwd: Path, args: tuple[str, ...]) -> list[str]:
    return [*GIT, "-C", str(cwd), *args]


def _late(args: tuple[str, ...]) -> UsageError:
    return UsageError(f"git {args[0]} was stopped after {GIT_SECONDS} s (is something in the "
                      "repository's config, such as an include, waiting?)")


def _failed(why: str, stderr: bytes, code: int) -> UsageError:
    said = stderr.decode(errors="replace").strip().splitlines()
    return UsageError(f"{why}; git says: {said[-1]}" if why and said else
                      why or f"git failed: {said[-1] if said else code}")


def _git(cwd: Path, *args: str, why: str, input: bytes | None = None) -> bytes:
    """Git's output (a few lines); a failure is a `UsageError` saying ``why``."""
    try:
        done = subprocess.run(_command(cwd, args), input=input, capture_output=True,
                              env={**os.environ, **GIT_ENV}, timeout=GIT_SECONDS)
    except FileNotFoundError:
        raise UsageError("not a folder, and git is not installed to read a revision") from None
    except subprocess.TimeoutExpired:
        raise _late(args) from None
    if done.returncode:
        raise _failed(why, done.stderr, done.returncode)
    return done.stdout


@contextmanager
def _popen(cwd: Path, *args: str, stdin: int | None = None) -> Iterator[subprocess.Popen]:
    """Git, its output to be streamed, never read whole; a failure is a `UsageError`."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(_command(cwd, args), stdin=stdin, stdout=subprocess.PIPE,
                                stderr=err, env={**os.environ, **GIT_ENV})
        fired = threading.Event()
        late = threading.Timer(GIT_SECONDS, lambda: (fired.set(), proc.kill()))
        late.start()
        with proc:
            try:
                yield proc
            except BaseException:
                proc.kill()
                if fired.is_set():
                    raise _late(args) from None
                raise
            finally:
                late.cancel()
        if fired.is_set():
            raise _late(args)
        if proc.returncode:
            err.seek(0)
            raise _failed("", err.read(), proc.returncode)
