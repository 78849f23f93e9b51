"""The box translated notebooks run in: an audit-hook policy installed in each kernel.

``jaxko notebooks verify`` starts every kernel through this module
(``python -m jaxko.notebooks.sandbox -f {connection_file}``, the kernelspec that
:func:`jaxko.notebooks.verify._write_kernelspec` writes). It finds the policy of the
notebook the kernel was started for (by the kernel's working directory, which nbmake
sets to the notebook's folder), points ``HOME`` and ``TMPDIR`` into that notebook's own
folder, lets ipykernel initialise, and only then installs a :func:`sys.addaudithook`
hook, before any cell runs (a Pallas page in interpret mode gets Pallas's interpreter
switched on just before that: :mod:`jaxko.notebooks.interpret`). From then on, in that
process:

* no file is written, created, removed, renamed, linked or has its mode or times
  changed outside the notebook's folder (its working directory, temporary home and
  ``TMPDIR``), except the exact paths upstream's own code writes (an exemption);
* no process is started (``subprocess``, ``os.system``, ``os.exec*``, ``os.spawn*``,
  ``os.posix_spawn``, ``os.fork``, ``pty``), except the exact shell commands or
  argument lists of upstream's own code (an exemption; there, a forked child still
  carries the hook and may only exec those commands);
* no network: sockets may connect, send or bind only to loopback or ``AF_UNIX``
  addresses, names resolve only for ``localhost``;
* the hook's own code and defaults cannot be replaced from Python.

A violation raises ``PermissionError`` in the cell ("jaxko sandbox: <what> is not
allowed (<path or command>)"), and is also appended to the notebook's violations log
(a file outside its folder, opened before the hook), so a notebook that catches the
error, or a cell tagged ``raises-exception``, still fails verification.

What an audit hook cannot stop (docs/threat-model.md): native code, i.e. ``ctypes``
and extension modules that open files, sockets or processes themselves; a process
that an exemption lets run (its children are not Python under this hook); reading
files; and Python code that is free to do anything (``--allow-unchecked-code``), which
can undo the box through ctypes. Smaller gaps of the same kind: CPython's ``open``
event does not carry ``dir_fd``, so ``os.open(name, ..., dir_fd=fd)`` is judged as if
``name`` were relative to the working directory; signals (``os.kill``) are not checked. The static check is what keeps translated code to
upstream's tokens, so that the code running here is upstream's, with other strings.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import NamedTuple

KIND = "audit-hooks"  # what report.json names as the protection in force
LANDLOCK_KIND = "landlock+audit-hooks"  # ... with the kernel's Landlock holding writes too
POLICY_ENV = "JAXKO_SANDBOX_POLICY"
REQUIRE_ENV = "JAXKO_REQUIRE_LANDLOCK"  # "1": verify refuses to run without Landlock (CI)

# open() flags that make an open a write.
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_SHELLS = ("sh", "bash", "dash", "zsh")
# Audit events that change the file named by their first argument (CPython 3.11's
# table of audit events); the value is the index of a dir_fd argument, if any.
_ONE_PATH = {
    "os.remove": 1, "os.rmdir": 1, "os.mkdir": 2, "os.chmod": 2, "os.chown": 3,
    "os.utime": 3, "os.truncate": None, "os.chflags": None, "os.lchflags": None,
    "os.mkfifo": 2, "os.mknod": 3, "os.setxattr": None, "os.removexattr": None,
    "shutil.rmtree": 1, "shutil.chown": None, "tempfile.mkstemp": None,
    "tempfile.mkdtemp": None, "shutil.make_archive": None,
}
# Events with a source and a destination: (is the source changed too?, (index of the
# source's dir_fd, index of the destination's dir_fd)).
_NO_FDS = (None, None)
_TWO_PATHS = {
    "os.rename": (True, (2, 3)), "os.link": (True, (2, 3)), "shutil.move": (True, _NO_FDS),
    "os.symlink": (False, (None, 2)), "shutil.copyfile": (False, _NO_FDS),
    "shutil.copymode": (False, _NO_FDS), "shutil.copystat": (False, _NO_FDS),
    "shutil.copytree": (False, _NO_FDS),
}
_FORK_EVENTS = ("os.fork", "os.forkpty", "pty.spawn")
_PROCESS_EVENTS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
                   *_FORK_EVENTS)
_ADDRESS_EVENTS = ("socket.connect", "socket.sendto", "socket.sendmsg", "socket.bind")
_NETWORK_EVENTS = (*_ADDRESS_EVENTS, "socket.getaddrinfo", "socket.gethostbyname",
                   "socket.gethostbyaddr", "socket.getnameinfo")
_PROTECTED_ATTRIBUTES = ("__code__", "__defaults__", "__kwdefaults__")


@dataclass(frozen=True)
class Policy:
    """What one notebook's kernel may do; everything else of the three kinds is refused."""

    notebook: str  # the upstream path, for messages
    cwd: str  # the notebook's folder: how the kernel finds its policy
    root: str  # the tree it may write (its folder, home and TMPDIR are inside)
    home: str
    tmp: str
    violations: str  # log of refusals, outside root
    writes: tuple[str, ...] = ()  # exact files outside root it may write (an exemption)
    commands: tuple[str, ...] = ()  # exact shell commands it may run (an exemption)
    argvs: tuple[tuple[str, ...], ...] = ()  # exact argument lists it may run
    # Pallas's interpreter for this kernel (scope.Interpretation.as_dict), switched on
    # before the first cell (jaxko.notebooks.interpret); None: kernels run as written.
    interpret: dict | None = None

    def as_dict(self) -> dict:
        data = asdict(self)
        data["argvs"] = [list(argv) for argv in self.argvs]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Policy":
        return cls(**{**data, "writes": tuple(data.get("writes", ())),
                      "commands": tuple(data.get("commands", ())),
                      "argvs": tuple(tuple(a) for a in data.get("argvs", ()))})


def write_policies(path: Path, policies: list[Policy]) -> None:
    """The policy file the kernels read (it lies outside every notebook's folder)."""
    path.write_text(json.dumps({"kind": KIND, "kernels": [p.as_dict() for p in policies]},
                               ensure_ascii=False, indent=1), encoding="utf-8")


def find_policy(path: str | None, cwd: str) -> Policy:
    """The policy of the kernel started in ``cwd``; SystemExit when there is none, so a
    kernel is never started without its box."""
    if not path:
        raise SystemExit(f"jaxko sandbox: ${POLICY_ENV} is not set; this launcher only "
                         "starts kernels for `jaxko notebooks verify`")
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        policies = [Policy.from_dict(entry) for entry in data["kernels"]]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise SystemExit(f"jaxko sandbox: {path}: unreadable policy ({err})") from None
    here = os.path.realpath(cwd)
    for policy in policies:
        if policy.cwd == here:
            return policy
    raise SystemExit(f"jaxko sandbox: {path}: no policy for a kernel started in {here}")


# ------------------------------------------------------------------------------ hook


class RefusalLog(NamedTuple):
    """The violations log, opened before the hook: its descriptor, and what identifies
    the file (a tuple, so nothing in the kernel can change it)."""

    fd: int
    path: str
    device: int
    inode: int

    @classmethod
    def open(cls, path: str) -> "RefusalLog":
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        stat = os.fstat(fd)
        return cls(fd, os.path.realpath(path), stat.st_dev, stat.st_ino)


def _refuse(what: str, detail: str, log: RefusalLog, count) -> PermissionError:
    """The error raised in the cell; the refusal is also logged, so catching it does not
    hide it. ``count`` tells which cell ran (IPython's execution count)."""
    message = f"jaxko sandbox: {what} is not allowed ({detail})"
    try:
        line = json.dumps({"execution_count": count(), "message": message},
                          ensure_ascii=False).encode("utf-8") + b"\n"
        try:
            stat = os.fstat(log.fd)
            ours = (stat.st_dev, stat.st_ino) == (log.device, log.inode)
        except OSError:
            ours = False
        if ours:
            os.write(log.fd, line)
        else:  # a forked child that closed its descriptors before exec (pexpect does)
            fd = os.open(log.path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)
    except Exception:  # a lost log line must not turn the refusal into something else
        pass
    return PermissionError(errno.EACCES, message)


def make_hook(policy: Policy, log: RefusalLog, count=lambda: None):
    """The audit hook enforcing ``policy``; refusals are appended to ``log``.

    What the hook decides by is bound now, as default arguments (strings, tuples,
    builtin functions), and the hook refuses to have its ``__code__`` or defaults
    replaced, so Python code in the kernel cannot loosen it by rebinding names.
    """

    def hook(event, args, *, _root=os.path.realpath(policy.root),
             _writes=tuple(os.path.realpath(p) for p in policy.writes),
             _commands=policy.commands, _argvs=policy.argvs,
             _may_fork=bool(policy.commands or policy.argvs), _log=log, _count=count,
             _refuse=_refuse, _file=__file__, _protected=_PROTECTED_ATTRIBUTES,
             _processes=_PROCESS_EVENTS, _network=_NETWORK_EVENTS, _forks=_FORK_EVENTS,
             _written=_written_paths, _resolve=_resolve, _argv=_command_argv,
             _shells=_SHELLS, _basename=os.path.basename, _isdir=os.path.isdir,
             _loopback=_is_loopback, _address=_describe_address,
             _command_of=_pending_command):
        if event in _processes:
            if event in _forks:
                if _may_fork:
                    return  # the child keeps this hook: it may exec only the exemption's
                raise _refuse("starting a process", _command_of() or event, _log, _count)
            argv = _argv(event, args)
            shell = len(argv) == 3 and argv[1] == "-c" and _basename(argv[0]) in _shells
            if (shell and argv[2] in _commands) or argv in _argvs:
                return
            what = ("running a command other than upstream's own" if _may_fork
                    else "starting a process")
            raise _refuse(what, argv[2] if shell else " ".join(argv), _log, _count)
        if event in _network:
            if not _loopback(event, args):
                raise _refuse("network access", _address(event, args), _log, _count)
            return
        if event == "object.__setattr__":
            if args[1] in _protected and \
                    getattr(getattr(args[0], "__code__", None), "co_filename", None) == _file:
                raise _refuse("changing the sandbox", args[1], _log, _count)
            return
        for target, dir_fd in _written(event, args, _log.path):
            if isinstance(target, int):  # a file descriptor (ftruncate, fchmod, ...)
                if target == _log.fd:
                    raise _refuse("changing the sandbox's log", str(target), _log, _count)
                continue
            try:
                path, real = _resolve(target, dir_fd)
            except (TypeError, ValueError, OSError):
                raise _refuse("writing a file it cannot name", repr(target), _log,
                              _count) from None
            if real == "/dev/null" or real in _writes:
                continue
            if event == "os.mkdir" and _isdir(real):
                continue  # makedirs(exist_ok=True) on a folder that exists changes nothing
            if real != _root and not real.startswith(_root + "/"):
                raise _refuse("writing outside the notebook's folder", path, _log, _count)

    return hook


def _written_paths(event: str, args: tuple, log_path: str) -> list[tuple[object, int | None]]:
    """The files an audit event writes, as (path or descriptor, dir_fd); [] for events
    that write nothing (reads, and everything else)."""
    if event == "open":
        path, mode, flags = (tuple(args) + (None, None, None))[:3]
        if path == log_path and mode is None and flags is not None and \
                flags & os.O_APPEND and not flags & (os.O_TRUNC | os.O_RDWR):
            return []  # appending to the violations log (only adds refusals)
        writes = (mode is not None and any(c in mode for c in "wax+")) or \
            (flags is not None and flags & _WRITE_FLAGS)
        return [(path, None)] if writes and not isinstance(path, int) else []
    if event in _ONE_PATH:
        fd_at = _ONE_PATH[event]
        return [(args[0], args[fd_at] if fd_at is not None and len(args) > fd_at else None)]
    if event in _TWO_PATHS:
        both, (src_fd_at, dst_fd_at) = _TWO_PATHS[event]

        def at(index):
            return args[index] if index is not None and len(args) > index else None

        return [(args[1], at(dst_fd_at))] + ([(args[0], at(src_fd_at))] if both else [])
    if event == "sqlite3.connect":
        database = os.fspath(args[0]) if args else ":memory:"
        if isinstance(database, bytes):
            database = database.decode("utf-8", "surrogateescape")
        if database in ("", ":memory:") or database.startswith("file::memory:"):
            return []
        return [(database.split("?")[0].removeprefix("file:"), None)]
    return []


def _resolve(target, dir_fd: int | None) -> tuple[str, str]:
    """(the path as given, made absolute; its real path, links resolved)."""
    path = os.fspath(target)
    if isinstance(path, bytes):
        path = path.decode("utf-8", "surrogateescape")
    if not path.startswith("/"):
        base = os.readlink(f"/proc/self/fd/{dir_fd}") if dir_fd not in (None, -1) \
            else os.getcwd()
        path = os.path.join(base, path)
    return path, os.path.realpath(path)


def _command_argv(event: str, args: tuple) -> tuple[str, ...]:
    """The argument list a process event would run, as strings."""
    if event == "os.system":
        argv = ("/bin/sh", "-c", args[0])
    elif event == "os.spawn":  # (mode, path, args, env)
        argv = args[2]
    else:  # subprocess.Popen (executable, args, ...), os.exec, os.posix_spawn (path, argv, env)
        argv = args[1]
    argv = (argv,) if isinstance(argv, (str, bytes)) else tuple(argv or ())
    return tuple(a.decode("utf-8", "surrogateescape") if isinstance(a, bytes)
                 else str(os.fspath(a)) for a in argv)


def _is_loopback(event: str, args: tuple) -> bool:
    """Whether a network event stays on this machine (loopback or a Unix socket)."""
    import socket

    if event in _ADDRESS_EVENTS:
        sock, address = args[0], args[1] if len(args) > 1 else None
        family = getattr(sock, "family", None)
        if family == socket.AF_UNIX or address is None:  # None: sendmsg on a connected socket
            return True
        if family not in (socket.AF_INET, socket.AF_INET6) or not isinstance(address, tuple):
            return False
        host = address[0]
    elif event == "socket.getnameinfo":
        host = args[0][0] if args and isinstance(args[0], tuple) else None
    else:  # getaddrinfo, gethostbyname, gethostbyaddr: the name first
        host = args[0] if args else None
        if host is None and event == "socket.getaddrinfo":
            return True  # the local wildcard, for bind
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    if host.lower() in ("localhost", "localhost.", "ip6-localhost"):
        return True
    import ipaddress

    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _describe_address(event: str, args: tuple) -> str:
    """``host:port`` of a socket event, or the name a lookup asked for."""
    address = (args[1] if len(args) > 1 else None) if event in _ADDRESS_EVENTS else \
        (args[0] if args else None)
    if isinstance(address, tuple) and len(address) >= 2:
        return f"{address[0]}:{address[1]}"
    return str(address)


def _pending_command() -> str | None:
    """The shell command IPython is about to run (``!cmd``, ``%pip``), for the message of
    a refused fork; None when the fork has another origin."""
    frame = sys._getframe(2)
    for _ in range(12):
        if frame is None:
            return None
        command = frame.f_locals.get("cmd")
        if frame.f_code.co_name in ("system", "getoutput", "system_piped") and \
                isinstance(command, str):
            return command
        frame = frame.f_back
    return None


# --------------------------------------------------------------------------- Landlock


def landlock_abi() -> int:
    """The Landlock ABI version the running kernel offers an unprivileged process; 0
    when there is none (the ``landlock`` package missing, Linux before 5.13, Landlock
    not enabled, or another system)."""
    try:
        import landlock
    except ImportError:
        return 0
    try:
        return max(int(landlock.landlock_abi_version()), 0)
    except Exception:  # LandlockError, OSError: the kernel does not offer it
        return 0


def protection(policy_or_exempt) -> str:
    """What a kernel runs under: :data:`LANDLOCK_KIND` where Landlock is offered and the
    notebook has no exemption (an exempt notebook writes or runs outside its folder:
    upstream's own ``!cmake``, ``%pip``, ``/tmp/foo``), else :data:`KIND`."""
    exempt = policy_or_exempt if isinstance(policy_or_exempt, bool) else bool(
        policy_or_exempt.writes or policy_or_exempt.commands or policy_or_exempt.argvs)
    return LANDLOCK_KIND if not exempt and landlock_abi() >= 1 else KIND


def restrict_writes(policy: Policy) -> str:
    """Hold this thread and every thread and process it starts, native code included
    (XLA, a profiler, ``ctypes``), to writing beneath the notebook's folder (and
    ``/dev/null``), by the kernel's Landlock; returns the protection now in force.

    Only file-system writes are handled (writing, truncating, creating, removing,
    renaming and linking anything); reads, execution and the network are left to the
    audit hook. Threads that already run (ipykernel's heartbeat, IOPub and control
    threads) are not held: Landlock binds the calling thread and its descendants, so
    this runs before the first cell, on the thread that runs the cells. Devices that
    are no files stay writable: ``/dev/null`` and the pseudo-terminals."""
    kind = protection(policy)
    if kind != LANDLOCK_KIND:
        return kind
    from landlock import FSAccess, Ruleset

    abi = landlock_abi()
    handled = (FSAccess.WRITE_FILE | FSAccess.REMOVE_DIR | FSAccess.REMOVE_FILE
               | FSAccess.MAKE_CHAR | FSAccess.MAKE_DIR | FSAccess.MAKE_REG
               | FSAccess.MAKE_SOCK | FSAccess.MAKE_FIFO | FSAccess.MAKE_BLOCK
               | FSAccess.MAKE_SYM)
    if abi >= 2:
        handled |= FSAccess.REFER
    if abi >= 3:
        handled |= FSAccess.TRUNCATE
    ruleset = Ruleset(restrict_rules=handled)
    ruleset.allow(policy.root)
    # Devices, not files: /dev/null, and the pseudo-terminals IPython opens for `!cmd`
    # (without them, `pty` falls back to probing 256 legacy devices, each refused).
    device_rights = FSAccess.WRITE_FILE | (FSAccess.TRUNCATE if abi >= 3 else FSAccess(0))
    for device in (os.devnull, "/dev/ptmx", "/dev/pts", "/dev/tty"):
        if os.path.exists(device):
            ruleset.allow(device, rules=device_rights)
    ruleset.apply()
    return kind


def protection_file(policy: Policy) -> str:
    """Where a kernel says what protection it put in force (beside its violations log,
    outside the notebook's folder): ``verify`` compares it with what it expected."""
    return policy.violations + ".sandbox"


# --------------------------------------------------------------------------- launcher


def install(policy: Policy, count=lambda: None, log: RefusalLog | None = None) -> None:
    """Open the violations log (unless given), then install the hook (it cannot be
    removed)."""
    sys.addaudithook(make_hook(policy, log or RefusalLog.open(policy.violations), count))


def main(argv: list[str] | None = None) -> None:
    """Start an IPython kernel for ``jaxko notebooks verify`` inside its notebook's box."""
    policy = find_policy(os.environ.get(POLICY_ENV), os.getcwd())
    os.environ["HOME"] = policy.home
    os.environ["TMPDIR"] = policy.tmp
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]  # as ipykernel_launcher: the kernel adds the cwd back itself
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()
    # No history database: IPython's history thread reconnects to it after a fork
    # (`!cmd`), and the profile folder it lies in is shared, outside the notebook's.
    app.initialize([*(argv or []), "--HistoryManager.enabled=False"])
    shell = app.shell
    # Files outside the folder, opened before Landlock closes the rest of the tree.
    log = RefusalLog.open(policy.violations)
    said = os.open(protection_file(policy), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    kind = restrict_writes(policy)
    os.write(said, kind.encode("ascii"))
    os.close(said)
    if policy.interpret:
        # Before the hook and the first cell: JAX's own switch, in this process only;
        # the notebook is run as it is.
        from jaxko.notebooks import interpret

        interpret.switch_on(policy.interpret)
    # The number a cell gets in the notebook: IPython counts the cell before running it,
    # and ipykernel replies with one less (ipykernel/ipkernel.py, do_execute).
    install(policy, count=lambda: shell.execution_count - 1, log=log)
    app.start()


if __name__ == "__main__":
    main(sys.argv[1:])
