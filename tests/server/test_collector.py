"""The server's collector policy (spite.server.collector): what outlives a full pass is frozen, so the
next full pass scans only what came since; now and then everything is unfrozen again, so that cyclic
garbage among the old objects is collected after all."""

from __future__ import annotations

import asyncio
import gc

from spite.server.collector import Collector


def test_what_outlives_a_full_pass_is_frozen_and_now_and_then_everything_is_unfrozen() -> None:
    async def scenario() -> tuple[int, int, int, bool]:
        collector = Collector(unfreeze_every=3600.0).start(asyncio.get_running_loop())
        try:
            after_start = gc.get_freeze_count()
            kept = [[i] for i in range(5000)]  # long-lived: a table's sockets, say
            gc.collect()  # a full pass...
            await asyncio.sleep(0)  # ...and the freeze it asked the loop for
            after_pass = gc.get_freeze_count()
            collector.unfreeze_every = 0.0
            gc.collect()
            await asyncio.sleep(0)
            return after_start, after_pass, gc.get_freeze_count(), bool(kept)
        finally:
            collector.stop()
            gc.unfreeze()

    after_start, after_pass, after_unfreeze, _ = asyncio.run(scenario())
    assert after_start > 0  # what start-up made
    assert after_pass >= after_start + 5000  # the lists that outlived the pass are out of the next one's reach
    assert after_unfreeze == 0  # the next full pass scans everything once


def test_everything_is_scanned_again_once_the_memory_has_grown_threefold() -> None:
    memory = [300 * 2**20]

    async def scenario() -> list[int]:
        collector = Collector(unfreeze_every=3600.0, memory=lambda: memory[0]).start(asyncio.get_running_loop())
        frozen = []
        try:
            for size in (800, 901, 950):  # MiB: grown, but not threefold; then threefold; then after the scan
                memory[0] = size * 2**20
                gc.collect()
                await asyncio.sleep(0)
                frozen.append(gc.get_freeze_count())
            return frozen
        finally:
            collector.stop()
            gc.unfreeze()

    frozen = asyncio.run(scenario())
    assert frozen[0] > 0  # 800 MiB after 300: frozen again
    assert frozen[1] == 0  # 901 MiB: unfrozen, so the next full pass scans everything (garbage included)
    assert frozen[2] > 0  # that pass's survivors are the new measure: frozen again


def test_a_stopped_policy_leaves_the_collector_alone() -> None:
    collector = Collector().start()
    collector.stop()
    gc.unfreeze()
    gc.collect()
    assert gc.get_freeze_count() == 0
