"""Operating-system faults are the user's to fix, never "internal error": a full disk, a folder
that cannot be written or read, a missing or broken font. Each exits 1 with a message naming
the path, and what was written before stays as it was.

Faults a plain command can set up are data cases in tests/cases/hostile/os.yaml. The ones here
need more: a user whom file modes stop (they do not stop root, so those tests skip then, and a
twin fakes the same refusal with a monkeypatch, which root cannot bypass), a monkeypatched
system call (a full disk), or a doctored installation (a fake `font_roboto` first on the path,
run as a user would run forge).
"""
from __future__ import annotations

import errno
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

import font_roboto
import pytest

from conftest import ROOT, tree_digest
from forge.cli import main
from forge.files import write_files
from forge.scaffold import scaffold

#: A scaffolded game (two action card designs, in uk and en): each fault here is about a file or a
#: folder, which a small game meets as a built-in one does, at a fraction of the cost.
GAME = "g"


def _permissions_apply() -> bool:
    """Whether a file's mode stops this process (not for root, or with CAP_DAC_OVERRIDE)."""
    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / "probe"
        probe.write_text("x")
        probe.chmod(0)
        try:
            probe.read_text()
        except PermissionError:
            return True
        return False


needs_permissions = pytest.mark.skipif(not _permissions_apply(),
                                       reason="file modes do not stop this user (root); the twin test fakes it")


def forge(*args: str, cwd: Path, pythonpath: Path | None = None, path: str | None = None):
    """The `forge` command in a fresh interpreter, optionally with a module or program put first."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in (pythonpath, ROOT) if p)}
    env.pop("FORGE_DEBUG", None)
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, "-m", "forge", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def forge_here(monkeypatch, capsys, *args: str) -> tuple[int, str]:
    """The `forge` command in this process, so that a monkeypatched system call reaches it."""
    monkeypatch.setattr(sys, "argv", ["forge", *args])
    with pytest.raises(SystemExit) as done:
        main()
    said = capsys.readouterr()
    return done.value.code, said.out + said.err


def assert_user_error(code: int, said: str, expected: int = 1) -> None:
    assert code == expected, said
    assert "internal error" not in said and "Traceback" not in said, said


def temp_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*.tmp")]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """The game scaffolded in tmp_path (cards/g, templates/g), which is also the working folder."""
    scaffold(tmp_path, GAME, ["uk", "en"], ["action"])
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def built(project, monkeypatch, capsys):
    """`out/` holding an earlier A4 and Letter PnP build of the game."""
    code, said = forge_here(monkeypatch, capsys, "build", GAME, "--what", "pnp", "--out", "out")
    assert code == 0, said
    return project / "out"


# -- a full disk ------------------------------------------------------------------------------

def test_a_full_disk_keeps_every_earlier_file_and_leaves_no_temporary_file(built, monkeypatch, capsys):
    """The disk fills up while the second file of the game is flushed: the first, already
    complete, must not replace its old version either (a game's files are written together)."""
    real_fsync = os.fsync

    def fsync(fd):
        if "pnp-home-letter.pdf" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    before = tree_digest(built)
    monkeypatch.setattr(os, "fsync", fsync)
    code, said = forge_here(monkeypatch, capsys, "build", GAME, "--what", "pnp", "--home", "--out", "out")
    assert_user_error(code, said)
    assert f"cannot write out/{GAME}/uk/pnp-home-letter.pdf: No space left on device" in said
    assert tree_digest(built) == before
    assert temp_files(built) == []


def test_every_file_is_flushed_before_it_replaces_the_old_one(tmp_path, monkeypatch):
    synced, events = set(), []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.add(os.readlink(f"/proc/self/fd/{fd}")),
                                                 real_fsync(fd)))
    monkeypatch.setattr(os, "replace", lambda src, dst: (events.append((str(src) in synced, dst)),
                                                         real_replace(src, dst)))
    files = {tmp_path / "a.pdf": b"a", tmp_path / "sub" / "b.pdf": b"b"}
    write_files(files)
    assert events == [(True, path) for path in files]
    assert {str(tmp_path), str(tmp_path / "sub")} <= synced, "the folders are synced after the renames"
    assert [p.read_bytes() for p in files] == [b"a", b"b"]


# -- folders that cannot be written -----------------------------------------------------------

def refuse_writes_in(monkeypatch, folder: Path) -> None:
    """Make the system refuse new files in `folder`, as a read-only folder does (root included)."""
    for name in ("mkstemp", "mkdtemp"):  # a file, or the folder a build's files are written in
        def make(*args, dir=None, real=getattr(tempfile, name), **kwargs):
            if dir is not None and Path(dir).resolve().is_relative_to(folder.resolve()):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(dir))
            return real(*args, dir=dir, **kwargs)
        monkeypatch.setattr(tempfile, name, make)


def test_an_unwritable_out_folder_is_a_user_error_naming_the_file(built, monkeypatch, capsys):
    before = tree_digest(built)
    refuse_writes_in(monkeypatch, built)
    code, said = forge_here(monkeypatch, capsys, "build", GAME, "--what", "pnp", "--home", "--out", "out")
    assert_user_error(code, said)
    assert f"cannot write out/{GAME}/uk/pnp-home-a4.pdf: Permission denied" in said
    assert tree_digest(built) == before


def test_an_unwritable_report_place_is_a_user_error_naming_the_file(project, monkeypatch, capsys):
    (project / "reports").mkdir()
    refuse_writes_in(monkeypatch, project / "reports")
    code, said = forge_here(monkeypatch, capsys, "simulate", GAME, "--games", "2",
                            "--report", "reports/balance.pdf")
    assert_user_error(code, said)
    assert "cannot write reports/balance.pdf: Permission denied" in said
    assert list((project / "reports").iterdir()) == []


@needs_permissions
def test_a_read_only_out_folder_is_a_user_error_naming_the_file(project):
    out = project / "out"
    out.mkdir(mode=0o555)
    try:
        done = forge("build", GAME, "--what", "pnp", "--out", "out", cwd=project)
    finally:
        out.chmod(0o755)
    assert_user_error(done.returncode, done.stdout + done.stderr)
    assert f"out/{GAME}" in done.stderr and "Permission denied" in done.stderr
    assert list(out.iterdir()) == []


# -- game folders that cannot be read ---------------------------------------------------------

def test_a_game_folder_that_cannot_be_looked_into_is_named(project, monkeypatch, capsys):
    game = project / "cards" / GAME
    real_stat = Path.stat

    def stat(self, **kwargs):
        if self.parent == game:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return real_stat(self, **kwargs)
    monkeypatch.setattr(Path, "stat", stat)
    code, said = forge_here(monkeypatch, capsys, "check", str(game))
    assert_user_error(code, said)
    assert f"cannot read cards/{GAME}: Permission denied" in said


def test_a_game_folder_that_cannot_be_listed_is_a_finding(project, monkeypatch, capsys):
    game = project / "cards" / GAME
    real_iterdir = Path.iterdir

    def iterdir(self):
        if self == game:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return real_iterdir(self)
    monkeypatch.setattr(Path, "iterdir", iterdir)
    code, said = forge_here(monkeypatch, capsys, "check", str(game))
    assert_user_error(code, said)
    assert f"cards/{GAME}: io: cannot list the folder: Permission denied" in said


def _project_with_templates(tmp_path: Path) -> Path:
    """tmp_path/proj laid out as a user's project: cards/<game> and templates/<game>."""
    proj = tmp_path / "proj"
    scaffold(proj, GAME, ["uk", "en"], ["action"])
    return proj


def test_a_layouts_folder_that_cannot_be_read_is_a_finding_naming_it(tmp_path, monkeypatch, capsys):
    """Not a quiet fall back to the built-in layouts: the folder is named."""
    layouts = _project_with_templates(tmp_path) / "templates" / GAME / "cards"
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: Path(path) != layouts
                        and real_access(path, mode, **kw))
    monkeypatch.chdir(tmp_path)
    code, said = forge_here(monkeypatch, capsys, "check", f"proj/cards/{GAME}")
    assert_user_error(code, said)
    assert f"proj/templates/{GAME}/cards: io: folder '{GAME}/cards' cannot be read: Permission denied" in said


@needs_permissions
def test_an_unreadable_layouts_folder_is_a_finding_naming_it(tmp_path):
    layouts = _project_with_templates(tmp_path) / "templates" / GAME / "cards"
    layouts.chmod(0o000)
    try:
        done = forge("check", f"proj/cards/{GAME}", cwd=tmp_path)
    finally:
        layouts.chmod(0o755)
    assert_user_error(done.returncode, done.stdout + done.stderr)
    assert f"proj/templates/{GAME}/cards: io: folder '{GAME}/cards' cannot be read" in done.stderr


@needs_permissions
@pytest.mark.parametrize("mode, says", [(0o000, f"cannot read cards/{GAME}: Permission denied"),
                                        (0o300, f"cards/{GAME}: io: cannot list the folder")])
def test_an_unreadable_game_folder_is_named(project, mode, says):
    game = project / "cards" / GAME
    game.chmod(mode)
    try:
        done = forge("check", GAME, cwd=project)
    finally:
        game.chmod(0o755)
    assert_user_error(done.returncode, done.stdout + done.stderr)
    assert says in done.stdout + done.stderr


@needs_permissions
def test_an_unreadable_card_file_is_a_finding_naming_it(project):
    cards = project / "cards" / GAME / "action.yaml"
    cards.chmod(0o000)
    try:
        done = forge("check", GAME, cwd=project)
    finally:
        cards.chmod(0o644)
    assert_user_error(done.returncode, done.stdout + done.stderr)
    assert "action.yaml: io: cannot read the file: Permission denied" in done.stderr


# -- fonts ------------------------------------------------------------------------------------

def fake_fonts(folder: Path, broken: dict[str, bytes | None]) -> Path:
    """A `font_roboto` package in `folder` whose files are the real ones, except those in
    `broken` (None: the file is missing)."""
    package = folder / "font_roboto"
    shutil.copytree(Path(font_roboto.__file__).parent, package)
    for name, data in broken.items():
        path = package / "files" / name
        path.unlink()
        if data is not None:
            path.write_bytes(data)
    return folder


def test_without_font_roboto_help_works_and_drawing_says_what_is_missing(project):
    shadow = project / "shadow"
    shadow.mkdir()
    (shadow / "font_roboto.py").write_text('raise ModuleNotFoundError("No module named \'font_roboto\'", '
                                           'name="font_roboto")\n')
    help_ = forge("--help", cwd=project, pythonpath=shadow)
    assert help_.returncode == 0, help_.stderr
    assert "build" in help_.stdout
    done = forge("build", GAME, "--what", "pnp", "--out", "out", cwd=project, pythonpath=shadow)
    assert_user_error(done.returncode, done.stdout + done.stderr)
    assert "the font-roboto package is not installed" in done.stderr
    assert not (project / "out").exists()


@pytest.mark.parametrize("face, data, reason", [
    ("Roboto-Regular.ttf", None, "no such file"),
    ("Roboto-Bold.ttf", b"", "not a readable TrueType font"),
    ("Roboto-Italic.ttf", "truncated", "not a readable TrueType font"),
])
def test_a_missing_or_broken_font_file_is_named(project, face, data, reason):
    real = Path(font_roboto.__file__).parent / "files" / face
    if data == "truncated":
        data = real.read_bytes()[:5000]
    shadow = fake_fonts(project / "shadow", {face: data})
    done = forge("build", GAME, "--what", "pnp", "--out", "out", cwd=project, pythonpath=shadow)
    assert_user_error(done.returncode, done.stdout + done.stderr)
    assert f"cannot load the font {shadow / 'font_roboto' / 'files' / face}: {reason}" in done.stderr
    assert not (project / "out").exists()


# -- an OS error nobody expected --------------------------------------------------------------

def test_an_os_error_with_a_path_where_no_code_expected_one_is_named(project, monkeypatch, capsys):
    """Any OS error with a path is still the user's (an installation changed under a running
    forge): exit 1 naming the path, nothing written. Here PDFium's library vanishes mid-build."""
    import forge.raster
    gone = project / "lib" / "libpdfium.so"

    def images(*args, **kwargs):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(gone))
    monkeypatch.setattr(forge.raster, "images", images)
    code, said = forge_here(monkeypatch, capsys, "build", GAME, "--what", "png", "--out", "out")
    assert_user_error(code, said)
    assert f"forge: {gone}: No such file or directory" in said
    assert not (project / "out").exists()


# -- a game's files are replaced as a set, even by a run that is killed ----------------------

def killed_at(n: int, run: Callable[[], object], out: Path, cwd: Path) -> int:
    """`run()` in a child forked from this process (forge already imported), in `cwd`, where
    every change to the output folder `out` is counted and the `n`-th is a kill -9 before it
    happens: the changes are the renames, links and swaps that put files in place, so every
    moment between two of them is tried. The child's exit code (-9: killed)."""
    import forge.files

    pid = os.fork()
    if pid == 0:  # the child: it ends here, never back in pytest
        code = 1
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            os.chdir(cwd)
            seen = [0]

            def deadly(real):
                def call(*args, **kwargs):
                    if any(str(a).startswith(str(out)) for a in args):
                        seen[0] += 1
                        if seen[0] == n:
                            os.kill(os.getpid(), signal.SIGKILL)
                    return real(*args, **kwargs)
                return call

            for owner, name in ((os, "rename"), (os, "replace"), (os, "link"), (forge.files, "_exchange")):
                if hasattr(owner, name):
                    setattr(owner, name, deadly(getattr(owner, name)))
            run()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith((".tmp", ".old"))]


def test_a_build_killed_at_any_moment_leaves_the_old_files_or_the_new_ones_never_a_mix(built):
    """kill -9 before each change to the output folder: its PnP sheets are all old or all new,
    the files of other products and the user's own stay, and the next build leaves nothing
    behind."""
    game = built / GAME / "uk"
    (game / "printshop.pdf").write_bytes(b"an earlier print-shop file")
    (game / "notes.txt").write_text("mine")
    sheets = {name: (game / name).read_bytes() for name in ("pnp-a4.pdf", "pnp-letter.pdf")}

    def build() -> None:
        sys.argv = ["forge", "build", GAME, "--what", "pnp", "--proof", "--out", "out"]
        main()
    kills = 0
    while (code := killed_at(kills + 1, build, built.resolve(), built.parent)) == -signal.SIGKILL:
        kills += 1
        same = {(game / name).read_bytes() == old for name, old in sheets.items()}
        assert len(same) == 1, f"killed before change {kills}: old and new sheets side by side"
        assert (game / "printshop.pdf").read_bytes() == b"an earlier print-shop file"
        assert (game / "notes.txt").read_text() == "mine"
    assert code == 0 and kills >= 1
    assert all((game / name).read_bytes() != old for name, old in sheets.items())
    assert (game / "notes.txt").read_text() == "mine" and (game / "printshop.pdf").exists()
    assert leftovers(built) == []


@pytest.mark.parametrize("swap", ["exchange", "rename aside"])
def test_write_folder_killed_at_any_moment_is_the_old_set_or_the_new_one(tmp_path, swap):
    """Without a system call that swaps folders (not Linux; NFS), the old folder is renamed aside
    and the new one in: a kill between the two leaves no folder, and the next write beside it
    puts the old one back."""
    folder = tmp_path / "out" / "uk"
    (folder / "png").mkdir(parents=True)
    old = {"a.pdf": b"old a", "b.pdf": b"old b", "png/1.png": b"old 1", "notes.txt": b"mine"}
    new = {"a.pdf": b"new a", "b.pdf": b"new b", "png/1.png": b"new 1", "png/2.png": b"new 2"}
    for name, data in old.items():
        (folder / name).write_bytes(data)

    def write() -> None:
        import forge.files
        if swap == "rename aside":
            def none(a, b):
                raise OSError(errno.EINVAL, "no RENAME_EXCHANGE")
            forge.files._exchange = none
        forge.files.write_folder(folder, new)

    def files() -> dict[str, bytes]:
        return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}

    kills, restored = 0, 0
    while (code := killed_at(kills + 1, write, tmp_path / "out", tmp_path)) == -signal.SIGKILL:
        kills += 1
        if not folder.exists():
            assert swap == "rename aside", "a swap leaves no moment without the folder"
            write_files({tmp_path / "out" / "other.txt": b"a later write beside it"})
            restored += 1
        assert files() in ({**old}, {**old, **new}), f"killed before change {kills}"
    assert code == 0 and kills >= 2 and restored == (swap == "rename aside")
    assert files() == {**old, **new}
    assert leftovers(tmp_path) == []


def test_a_swapped_folder_keeps_what_was_saved_into_the_old_one_meanwhile(tmp_path, monkeypatch):
    """A file that reaches the folder after it was copied over, before the swap (a preview
    saved meanwhile), is moved into the new folder, not lost with the old one."""
    import forge.files

    folder = tmp_path / "uk"
    folder.mkdir()
    (folder / "a.pdf").write_bytes(b"old")
    real_swap = forge.files._swap

    def swap(new, live, aside):
        (live / "preview").mkdir()
        (live / "preview" / "card.png").write_bytes(b"saved meanwhile")
        return real_swap(new, live, aside)
    monkeypatch.setattr(forge.files, "_swap", swap)
    forge.files.write_folder(folder, {"a.pdf": b"new"})
    assert (folder / "a.pdf").read_bytes() == b"new"
    assert (folder / "preview" / "card.png").read_bytes() == b"saved meanwhile"
    assert leftovers(tmp_path) == []


def test_without_hard_links_the_other_files_are_copied_and_a_mount_is_never_moved(tmp_path, monkeypatch):
    import forge.files

    folder = tmp_path / "uk"
    (folder / "preview").mkdir(parents=True)
    (folder / "preview" / "card.png").write_bytes(b"mine")

    def no_link(*args, **kwargs):
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))
    monkeypatch.setattr(os, "link", no_link)
    forge.files.write_folder(folder, {"a.pdf": b"a"})
    assert (folder / "preview" / "card.png").read_bytes() == b"mine" and (folder / "a.pdf").exists()

    inode = folder.stat().st_ino
    monkeypatch.setattr(os.path, "ismount", lambda path: str(path) == str(folder / "preview"))
    forge.files.write_folder(folder, {"a.pdf": b"b"})
    assert folder.stat().st_ino == inode, "a folder holding a mount point is written file by file"
    assert (folder / "a.pdf").read_bytes() == b"b" and (folder / "preview" / "card.png").exists()
    assert leftovers(tmp_path) == []


# -- temporary files of a killed run ----------------------------------------------------------

def test_only_temporaries_no_live_run_holds_are_removed_whatever_their_names_say(project):
    """Two builds in two containers share an output volume: a process id says nothing across PID
    namespaces (999999999 runs in none here), the lock a live run holds on its temporaries
    does. Temporary files and folders no run holds are removed, a user's own files stay."""
    games = project / "out" / GAME
    folder = games / "uk"
    folder.mkdir(parents=True)
    dead = folder / ".pnp-letter.pdf.999999998.abcd_123.tmp"
    live = folder / ".pnp-a4.pdf.999999999.abcd_123.tmp"   # a live build in another container
    dead_stage, live_stage = games / ".uk.dead_123.tmp", games / ".uk.live_123.tmp"
    mine = folder / ".notes.tmp"                                  # not made by forge
    for path in (dead, live, mine):
        path.write_bytes(b"partial")
    for stage in (dead_stage, live_stage):
        stage.mkdir()
        (stage / "pnp-a4.pdf").write_bytes(b"partial")
    held = [os.open(path, os.O_RDONLY) for path in (live, live_stage)]
    try:
        for fd in held:
            fcntl.flock(fd, fcntl.LOCK_EX)
        done = forge("build", GAME, "--what", "pnp", "--paper", "a4", "--out", "out", cwd=project)
    finally:
        for fd in held:
            os.close(fd)
    assert done.returncode == 0, done.stderr
    assert not dead.exists() and not dead_stage.exists()
    assert live.read_bytes() == b"partial" and (live_stage / "pnp-a4.pdf").exists() and mine.exists()
