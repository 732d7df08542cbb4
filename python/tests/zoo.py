"""The larger models the front end must handle (factories: (module, inputs))."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def mobilenet_v2():
    import torchvision
    torch.manual_seed(0)
    return torchvision.models.mobilenet_v2().eval(), (torch.randn(1, 3, 224, 224),)


def resnet18():
    import torchvision
    torch.manual_seed(0)
    return torchvision.models.resnet18().eval(), (torch.randn(1, 3, 224, 224),)


def transformer_encoder():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(256, 4, dim_feedforward=1024, batch_first=True)
    return nn.TransformerEncoder(layer, 4).eval(), (torch.randn(1, 128, 256),)


def mlp3x1024():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                      nn.Linear(1024, 1024))
    return m.eval(), (torch.randn(1, 1024),)


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def _rotate(x, cos, sin):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return x * cos + torch.cat([-x2, x1], dim=-1) * sin


class Block(nn.Module):
    def __init__(self, d, heads, hidden, max_seq):
        super().__init__()
        self.h, self.hd = heads, d // heads
        self.attn_norm = RMSNorm(d)
        self.wq = nn.Linear(d, d, bias=False)
        self.wk = nn.Linear(d, d, bias=False)
        self.wv = nn.Linear(d, d, bias=False)
        self.wo = nn.Linear(d, d, bias=False)
        self.mlp_norm = RMSNorm(d)
        self.w1 = nn.Linear(d, hidden, bias=False)
        self.w3 = nn.Linear(d, hidden, bias=False)
        self.w2 = nn.Linear(hidden, d, bias=False)
        self.register_buffer("k_cache", torch.zeros(1, heads, max_seq, self.hd))
        self.register_buffer("v_cache", torch.zeros(1, heads, max_seq, self.hd))

    def forward(self, x, pos, cos, sin, mask):
        b, s, d = x.shape
        h = self.attn_norm(x)
        q = self.wq(h).view(b, s, self.h, self.hd).transpose(1, 2)
        k = self.wk(h).view(b, s, self.h, self.hd).transpose(1, 2)
        v = self.wv(h).view(b, s, self.h, self.hd).transpose(1, 2)
        q, k = _rotate(q, cos, sin), _rotate(k, cos, sin)
        self.k_cache[:, :, pos] = k  # aten::index_put_ (None, None, pos)
        self.v_cache[:, :, pos] = v
        att = (q @ self.k_cache.transpose(2, 3)) / math.sqrt(self.hd) + mask
        o = torch.softmax(att, dim=-1) @ self.v_cache
        x = x + self.wo(o.transpose(1, 2).reshape(b, s, d))
        h = self.mlp_norm(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class Llama(nn.Module):
    """One decoder step over a KV cache held in registered buffers."""

    def __init__(self, vocab=32000, d=256, heads=4, layers=2, hidden=688, max_seq=256):
        super().__init__()
        self.max_seq = max_seq
        self.tok = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(Block(d, heads, hidden, max_seq) for _ in range(layers))
        self.norm = RMSNorm(d)
        self.out = nn.Linear(d, vocab, bias=False)
        hd = d // heads
        inv = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
        f = torch.outer(torch.arange(max_seq).float(), inv)
        emb = torch.cat([f, f], dim=-1)
        self.register_buffer("cos", emb.cos())
        self.register_buffer("sin", emb.sin())
        self.register_buffer("causal", torch.full((max_seq, max_seq), float("-inf")).triu(1))

    def forward(self, tokens, pos):
        x = self.tok(tokens)
        cos = self.cos[pos]
        sin = self.sin[pos]
        mask = self.causal[pos]
        for layer in self.layers:
            x = layer(x, pos, cos, sin, mask)
        return self.out(self.norm(x))


def llama_step():
    torch.manual_seed(0)
    return Llama().eval(), (torch.tensor([[5]]), torch.tensor([3]))


ZOO = {"mobilenet_v2": mobilenet_v2, "resnet18": resnet18,
       "transformer_encoder": transformer_encoder, "mlp3x1024": mlp3x1024,
       "llama_step": llama_step}
