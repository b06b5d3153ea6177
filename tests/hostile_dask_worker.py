"""A dask worker preload (``LocalCluster(preload=[this file])``, ``dask worker --preload``)
that makes the worker hostile: every result it holds is replaced by a pickle whose loading
creates the file named by $FORGE_TEST_PAYLOAD. Reading the results must not run it."""
from __future__ import annotations

import os

from distributed import WorkerPlugin
from distributed.protocol import Serialized, serialize


class Payload:
    def __reduce__(self):
        return open, (os.environ["FORGE_TEST_PAYLOAD"], "w")


class Hostile(WorkerPlugin):
    def __init__(self, worker) -> None:
        self.worker = worker

    def transition(self, key, start, finish, **kwargs) -> None:
        if finish == "memory":      # sent as a pickle whatever the client asks for
            self.worker.data[key] = Serialized(*serialize(Payload(), serializers=["pickle"]))


def dask_setup(worker) -> None:
    worker.plugins["hostile"] = Hostile(worker)
