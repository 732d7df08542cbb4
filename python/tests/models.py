"""Small modules the tests capture; each factory returns (module, example_inputs)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _seed():
    torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8), nn.ReLU(),
                                 nn.Linear(8, 4))

    def forward(self, x):
        return self.net(x)


def mlp():
    _seed()
    return MLP(), (torch.randn(2, 16),)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        x = self.pool(F.relu(self.bn(self.conv(x))))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.fc(x)


def cnn():
    _seed()
    m = CNN()
    with torch.no_grad():  # non-trivial running statistics
        m.bn.running_mean.uniform_(-0.5, 0.5)
        m.bn.running_var.uniform_(0.5, 2.0)
    return m, (torch.randn(1, 3, 8, 8),)


class Attention(nn.Module):
    def __init__(self, d=16, heads=2):
        super().__init__()
        self.h = heads
        self.ln = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.ln(x)).chunk(3, dim=-1)
        q = q.view(b, s, self.h, d // self.h).transpose(1, 2)
        k = k.view(b, s, self.h, d // self.h).transpose(1, 2)
        v = v.view(b, s, self.h, d // self.h).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-2, -1) / (d // self.h) ** 0.5, dim=-1)
        y = (a @ v).transpose(1, 2).reshape(b, s, d)
        return x + self.proj(y)


def attention():
    _seed()
    return Attention(), (torch.randn(1, 6, 16),)


class Counter(nn.Module):
    """Updates registered buffers in place: a running sum and a cache row."""

    def __init__(self):
        super().__init__()
        self.register_buffer("total", torch.zeros(4))
        self.register_buffer("cache", torch.zeros(3, 4))

    def forward(self, x, pos):
        self.total.add_(x)
        self.cache.index_put_((pos,), x.unsqueeze(0))
        return self.total * 2, self.cache.sum(0)


def counter():
    return Counter(), (torch.arange(4, dtype=torch.float32), torch.tensor([1]))


class Scalars(nn.Module):
    def forward(self, x):
        return (x * 3 + 0.5 - 1) / 2, 1 - x, x.pow(2), torch.clamp(x, min=-0.2, max=0.3)


def scalars():
    _seed()
    return Scalars(), (torch.randn(3, 5),)


class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6)

    def forward(self, ids):
        return self.emb(ids).sum(1)


def embedding():
    _seed()
    return Embed(), (torch.tensor([[1, 2, 3], [4, 5, 9]]),)


class IndexPut(nn.Module):
    def forward(self, x, idx, v):
        y = x.clone()
        y[idx] = v
        return y.index_put((idx,), v * 2, accumulate=True)


def index_put():
    _seed()
    return IndexPut(), (torch.randn(5, 3), torch.tensor([0, 3]), torch.randn(2, 3))


class CatStack(nn.Module):
    def forward(self, a, b):
        return torch.cat([a, b, a], dim=1), torch.stack([a, b], dim=0)


def cat_stack():
    _seed()
    return CatStack(), (torch.randn(2, 3), torch.randn(2, 3))


class Mixed(nn.Module):
    """Casts, silu (decomposed), gelu, a lifted constant, int inputs."""

    def forward(self, x, n):
        y = F.silu(x) + F.gelu(x) + torch.tensor([1.0, 2.0, 3.0])
        return y * n.to(torch.float32), x.argmax(-1)


def mixed():
    _seed()
    return Mixed(), (torch.randn(2, 3), torch.tensor([2], dtype=torch.int32))


CASES = {
    "mlp": mlp, "cnn": cnn, "attention": attention, "counter": counter,
    "scalars": scalars, "embedding": embedding, "index_put": index_put,
    "cat_stack": cat_stack, "mixed": mixed,
}
