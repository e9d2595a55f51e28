"""Pretrain a move-prediction policy on human games (docs/howto.md).

A linear masked-softmax policy over the men and kings planes, trained with
numpy on ``ludoteca.records.to_arrays``; the last 20% of games are held out.

    python examples/pretrain_from_records.py ../shared/records/international/*.pdn
"""

from __future__ import annotations

import sys

import numpy as np

from ludoteca import records


def pretrain(files: list[str], game_id: str = "international", epochs: int = 3, lr: float = 0.5, seed: int = 0) -> dict[str, float]:
    """Trains the policy; returns held-out and training accuracy and the uniform-random baseline."""
    data = records.to_arrays(files, game_id, masks=True)
    assert data.masks is not None
    X = data.observations[:, :4].reshape(len(data), -1)  # men and kings of both sides
    y, M = data.actions, data.masks
    test = data.game_index >= np.quantile(data.game_index, 0.8)
    W = np.zeros((X.shape[1], M.shape[1]), np.float32)

    def logits(rows: np.ndarray) -> np.ndarray:
        return np.where(M[rows], X[rows] @ W, -1e9)

    rng = np.random.default_rng(seed)
    train = np.flatnonzero(~test)
    out: dict[str, float] = {"decisions": float(len(data))}
    for epoch in range(epochs):
        for batch in np.array_split(rng.permutation(train), max(1, len(train) // 256)):
            z = logits(batch)
            p = np.exp(z - z.max(1, keepdims=True))
            p /= p.sum(1, keepdims=True)
            p[np.arange(len(batch)), y[batch]] -= 1.0
            W -= lr * X[batch].T @ p / len(batch)
        out["test_accuracy"] = float((logits(np.flatnonzero(test)).argmax(1) == y[test]).mean())
        print(f"epoch {epoch}: held-out move-prediction accuracy {out['test_accuracy']:.1%}")
    out["train_accuracy"] = float((logits(train).argmax(1) == y[train]).mean())
    out["uniform"] = float((1.0 / M[test].sum(1)).mean())
    out["uniform_train"] = float((1.0 / M[train].sum(1)).mean())
    print(f"{len(data)} decisions; uniform random legal move: {out['uniform']:.1%}")
    return out


if __name__ == "__main__":
    pretrain(sys.argv[1:])
