"""Trains a small CNN on scikit-learn's bundled 8x8 digits and exports it with ptera.

    /usr/bin/python3 examples/digits/train.py [--ptera PTERA_BIN] [--no-export]

Nothing is downloaded: sklearn.datasets.load_digits() ships with scikit-learn.
Writes, next to this file: digits.pte, digit_<label>.npy (one held-out sample
per class, float32 1x1x8x8, scaled as in training). The model outputs class
probabilities (softmax), so `ptera run digits.pte --input digit_3.npy` prints
the predicted digit's probability as the largest value.
"""
import argparse
import os
import sys

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

SEED = 0
EPOCHS = 20
BATCH = 32
LR = 5e-3


class DigitsCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),   # 8x4x4
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),  # 16x2x2
        )
        self.classifier = nn.Linear(64, 10)

    def forward(self, x):
        x = self.features(x)
        return torch.softmax(self.classifier(torch.flatten(x, 1)), dim=1)


def load_data():
    """Returns x_train, y_train, x_test, y_test: pixels 0..16 scaled to [0, 1],
    shaped N x 1 x 8 x 8 float32; a fixed 80/20 split (seeded permutation)."""
    from sklearn.datasets import load_digits

    d = load_digits()
    x = torch.from_numpy((d.images / 16.0).astype(np.float32)).unsqueeze(1)
    y = torch.from_numpy(d.target.astype(np.int64))
    perm = torch.randperm(len(y), generator=torch.Generator().manual_seed(SEED))
    n_test = len(y) // 5
    test, train = perm[:n_test], perm[n_test:]
    return x[train], y[train], x[test], y[test]


def train(verbose=True):
    """Returns (model in eval mode, (x_train, y_train, x_test, y_test), test accuracy)."""
    torch.manual_seed(SEED)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny convolutions: one thread is fastest
    data = load_data()
    x_train, y_train, x_test, y_test = data
    model = DigitsCNN()
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    gen = torch.Generator().manual_seed(SEED + 1)
    for epoch in range(EPOCHS):
        model.train()
        perm = torch.randperm(len(y_train), generator=gen)
        total = 0.0
        for i in range(0, len(perm), BATCH):
            idx = perm[i:i + BATCH]
            probs = model(x_train[idx])
            loss = nn.functional.nll_loss(torch.log(probs + 1e-12), y_train[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if verbose:
            print(f"epoch {epoch + 1:2d}: train loss {total / len(y_train):.4f}")
    torch.set_num_threads(threads)
    model.eval()
    with torch.no_grad():
        acc = (model(x_test).argmax(1) == y_test).float().mean().item()
    if verbose:
        print(f"test accuracy: {acc * 100:.2f}% on {len(y_test)} held-out images")
    return model, data, acc


def samples(x_test, y_test):
    """The first held-out image of each class: {label: 1x1x8x8 float32 array}."""
    out = {}
    for i in range(len(y_test)):
        label = int(y_test[i])
        if label not in out:
            out[label] = x_test[i:i + 1].numpy().astype(np.float32)
    return dict(sorted(out.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ptera", help="ptera binary for `ptera compile` (default: ptera.export's own lookup)")
    ap.add_argument("--out-dir", default=HERE)
    ap.add_argument("--no-export", action="store_true", help="train and report only")
    ap.add_argument("--ops", default="executorch-portable",
                    help="target op set for ptera compile (default executorch-portable: the "
                         "file runs on stock ExecuTorch too)")
    args = ap.parse_args()

    model, (_, _, x_test, y_test), acc = train()
    if args.no_export:
        return 0
    sys.path.insert(0, os.path.join(REPO, "python"))
    import ptera

    if args.ptera:
        os.environ["PTERA_BIN"] = os.path.abspath(args.ptera)
    pte = os.path.join(args.out_dir, "digits.pte")
    r = ptera.export(model, (x_test[0:1],), pte, ops=args.ops)
    sys.stdout.write(r.report)
    for label, x in samples(x_test, y_test).items():
        path = os.path.join(args.out_dir, f"digit_{label}.npy")
        np.save(path, x)
        with torch.no_grad():
            p = model(torch.from_numpy(x))[0]
        print(f"wrote {path}: predicted {int(p.argmax())} (p={float(p.max()):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
