"""Chunks through N worker processes with a bounded number in flight, so memory stays flat.

``multiprocessing.Pool.imap`` would pull the whole input into its task queue; here the reader is
advanced only when fewer than ``2 x jobs`` chunks are outstanding. Workers are started with the
``spawn`` method on every platform (no fork of a process that may hold threads, e.g. under Dask or
a test runner). ``jobs == 1`` runs in the calling process, without a pool.

A worker that dies (killed, out of memory) is an :class:`EnrichmentError`; a worker that raises stops
the run: outstanding chunks are cancelled and the exception propagates. Either way the finished
chunks stay on disk for ``--resume``.

Workers die with their parent, however it ends (even SIGKILL, which runs no clean-up): a worker
blocked on its task queue would otherwise wait forever, since it holds both ends of that pipe
itself. On Linux each worker asks the kernel for SIGKILL when its parent dies
(``prctl(PR_SET_PDEATHSIG)`` through ctypes); on every platform a watchdog thread in each worker
also checks twice a second that its parent is still the process that started it, and ends the
worker when it is not.

After a SIGKILL of the main process, multiprocessing's resource tracker (a helper process of the
``spawn`` method) removes the named semaphores of the pool's queues, as it should, and used to print
``UserWarning: resource_tracker: There appear to be 5 leaked semaphore objects to clean up at shutdown``
to the run's stderr: a notice about its own clean-up, not a leak of the kit's. The kit starts the
tracker itself (:func:`_quiet_resource_tracker`) with that one warning filtered out; the semaphores are
still removed (tests/enrichment/test_enrichment_workers.py checks /dev/shm). A tracker some other code
of the same process started earlier keeps its own settings.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import TypeVar

from contract.enrichment.rows import EnrichmentError

Task = TypeVar("Task")
Result = TypeVar("Result")

IN_FLIGHT_PER_JOB = 2
WATCHDOG_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1
# Held while a worker starts: Ctrl-C, and SIGTERM (which the command turns into the same interrupt).
_HELD = {signal.SIGINT, signal.SIGTERM}


def _kill_me_with_parent() -> None:
    """Linux: the kernel sends this process SIGKILL when the thread that started it ends."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: the watchdog remains
        pass


def _watch_parent(parent: int) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(1)
        time.sleep(WATCHDOG_SECONDS)


def _worker_start(parent: int) -> None:
    """Worker start-up: die with the parent; ignore Ctrl-C, which reaches the whole process group, but
    only the parent decides: a worker finishes its chunk (so it is kept) and exits when the parent
    shuts the pool down."""
    _kill_me_with_parent()
    if os.getppid() != parent:  # the parent died before the request above took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watchdog", daemon=True).start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


_TRACKER_NOTICE = "ignore:resource_tracker:UserWarning:multiprocessing.resource_tracker"


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (POSIX, ``spawn``) if it is not running, with its
    "leaked ... objects to clean up at shutdown" warning filtered out: it starts with this interpreter's
    ``-W`` options (``sys.warnoptions``), so the filter is added for the start only."""
    if os.name != "posix":
        return
    try:
        from multiprocessing import resource_tracker
    except ImportError:
        return
    added = _TRACKER_NOTICE not in sys.warnoptions
    if added:
        sys.warnoptions.append(_TRACKER_NOTICE)
    try:
        resource_tracker.ensure_running()
    except (OSError, AttributeError):  # no tracker here: multiprocessing starts its own when it needs one
        pass
    finally:
        if added:
            sys.warnoptions.remove(_TRACKER_NOTICE)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C (and SIGTERM) while ``submit`` may spawn a worker: the child inherits the blocked
    signals (so it cannot die half-started with a traceback) and the parent gets them as soon as the
    mask is restored."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def run_bounded(
    tasks: Iterable[Task],
    work: Callable[[Task], Result],
    jobs: int,
    on_result: Callable[[Result], None],
) -> None:
    """Call ``work`` on every task (in any order when ``jobs > 1``) and ``on_result`` on each result."""
    if jobs <= 1:
        for task in tasks:
            on_result(work(task))
        return
    limit = IN_FLIGHT_PER_JOB * jobs
    context = multiprocessing.get_context("spawn")
    _quiet_resource_tracker()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_start,
                             initargs=(os.getpid(),)) as pool:
        pending: set[Future[Result]] = set()
        try:
            for task in tasks:
                if len(pending) >= limit:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        on_result(future.result())
                with _interrupts_held():
                    pending.add(pool.submit(work, task))
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    on_result(future.result())
        except BrokenProcessPool:
            raise EnrichmentError(
                "a worker process died (killed, or out of memory); the finished chunks are kept:"
                " rerun with --resume to continue"
            ) from None
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
