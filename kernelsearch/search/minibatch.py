"""Epoch-shuffled minibatches: every task is visited once per epoch, in a fresh order each time."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


class EpochSampler:
    """Draws minibatches from a shuffled order of the tasks, reshuffling at each epoch end.

    A minibatch never holds the same task twice; when an epoch has fewer tasks left than the
    minibatch size, the remainder is topped up from the next epoch's order.
    """

    def __init__(self, tasks: Sequence[str], size: int, order: list[str] | None = None) -> None:
        if size < 1:
            raise ValueError("minibatch size must be at least 1")
        self.tasks = list(tasks)
        self.size = min(size, len(self.tasks))
        self.order: list[str] = list(order or [])
        self.epoch = 0

    def sample(self, rng: random.Random) -> list[str]:
        if not self.tasks:
            return []
        batch: list[str] = []
        while len(batch) < self.size:
            if not self.order:
                self.order = list(self.tasks)
                rng.shuffle(self.order)
                self.epoch += 1
            pick = next((t for t in self.order if t not in batch), None)
            if pick is None:  # the rest of this epoch is already in the batch
                self.order = []
                continue
            self.order.remove(pick)
            batch.append(pick)
        return batch

    def to_dict(self) -> dict[str, Any]:
        return {"order": list(self.order), "epoch": self.epoch}

    def restore(self, d: dict[str, Any]) -> None:
        self.order = [t for t in d.get("order", []) if t in self.tasks]
        self.epoch = int(d.get("epoch", 0))
