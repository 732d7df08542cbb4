"""Model zoo for the end-to-end test: each factory returns (module.eval(), example_inputs).

Every factory seeds its own generator, so two calls give bit-identical weights
and inputs. Weights are random (nothing is downloaded), except `digits`, which
trains the small CNN of examples/digits on sklearn's bundled digits set.

Usage: models.get(name) -> (module, inputs); models.NAMES lists them all;
models.HEAVY names those too slow for valgrind/ASan runs.
"""
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

_HERE = os.path.dirname(os.path.abspath(__file__))
_REPO = os.path.dirname(os.path.dirname(_HERE))


def _seed(seed):
    torch.manual_seed(seed)
    return torch.Generator().manual_seed(seed)


def _calibrate_batchnorm(model, shape, batches, gen):
    """Gives every BatchNorm realistic running statistics: forward passes in
    train mode on random data with a cumulative average (momentum=None), then
    a random affine so weight/bias are not the trivial 1/0."""
    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    for m in bns:
        m.reset_running_stats()
        m.momentum = None
        with torch.no_grad():
            m.weight.copy_(1.0 + 0.1 * torch.randn(m.weight.shape, generator=gen))
            m.bias.copy_(0.1 * torch.randn(m.bias.shape, generator=gen))
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn(shape, generator=gen))
    for m in bns:
        m.momentum = 0.1
    return model.eval()


def _torchvision_classifier(name, seed):
    """An untrained torchvision ImageNet classifier with calibrated batch
    norm statistics, and one seeded 224x224 image."""
    import torchvision

    gen = _seed(seed)
    m = getattr(torchvision.models, name)(weights=None)
    _calibrate_batchnorm(m, (4, 3, 224, 224), 2, gen)
    x = torch.randn((1, 3, 224, 224), generator=gen)
    return m.eval(), (x,)


def mobilenet_v2():
    return _torchvision_classifier("mobilenet_v2", 1)


def resnet18():
    return _torchvision_classifier("resnet18", 2)


def transformer_encoder():
    """4 post-norm encoder layers. In eval mode under no_grad, torch 1.13 takes
    the fused fast path (aten::_transformer_encoder_layer_fwd); see
    eager_reference, which computes the reference on the ordinary path."""
    gen = _seed(3)
    layer = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024,
                                       dropout=0.0, batch_first=True)
    m = nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False)
    # TransformerEncoder deep-copies one layer: give each layer its own weights
    # (otherwise constant deduplication merges all four).
    with torch.no_grad():
        for name, p in m.named_parameters():
            if "norm" in name:
                p.copy_((1.0 if name.endswith("weight") else 0.0)
                        + 0.1 * torch.randn(p.shape, generator=gen))
            elif p.dim() > 1:
                p.copy_(torch.randn(p.shape, generator=gen) / math.sqrt(p.shape[1]))
            else:
                p.copy_(0.02 * torch.randn(p.shape, generator=gen))
    x = torch.randn((1, 128, 256), generator=gen)
    return m.eval(), (x,)


class MLP(nn.Module):
    def __init__(self, width=1024):
        super().__init__()
        self.fc1 = nn.Linear(width, width)
        self.fc2 = nn.Linear(width, width)
        self.fc3 = nn.Linear(width, width)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def mlp():
    gen = _seed(4)
    m = MLP()
    x = torch.randn((1, 1024), generator=gen)
    return m.eval(), (x,)


# --- Llama-style decoder step (stories15M shape) ----------------------------

class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def _rotate(x, cos, sin):
    """Rotary embedding on pairs (x[..., :h], x[..., h:]) ("rotate half"), real-valued.
    x: [1, heads, head_dim]; cos, sin: [1, 1, head_dim // 2]."""
    h = x.shape[-1] // 2
    x1, x2 = x[..., :h], x[..., h:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


class Attention(nn.Module):
    def __init__(self, dim, heads, max_seq):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        # KV caches: mutable state, updated in place at `pos` each step.
        self.register_buffer("k_cache", torch.zeros(max_seq, heads, self.head_dim))
        self.register_buffer("v_cache", torch.zeros(max_seq, heads, self.head_dim))

    def forward(self, x, pos, cos, sin, mask):
        # x: [1, dim]; pos: [1] int64; cos/sin: [1, 1, head_dim/2]; mask: [1, 1, max_seq]
        q = self.wq(x).view(1, self.heads, self.head_dim)
        k = self.wk(x).view(1, self.heads, self.head_dim)
        v = self.wv(x).view(1, self.heads, self.head_dim)
        q = _rotate(q, cos, sin)
        k = _rotate(k, cos, sin)
        self.k_cache.index_put_((pos,), k)
        self.v_cache.index_put_((pos,), v)
        keys = self.k_cache.transpose(0, 1)            # [heads, max_seq, head_dim]
        values = self.v_cache.transpose(0, 1)
        qh = q.transpose(0, 1)                          # [heads, 1, head_dim]
        scores = torch.matmul(qh, keys.transpose(1, 2)) / math.sqrt(self.head_dim)
        scores = scores + mask                          # [heads, 1, max_seq]
        probs = torch.softmax(scores, dim=-1)
        out = torch.matmul(probs, values)               # [heads, 1, head_dim]
        return self.wo(out.transpose(0, 1).reshape(1, -1))


class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self, dim, heads, hidden, max_seq):
        super().__init__()
        self.attention_norm = RMSNorm(dim)
        self.attention = Attention(dim, heads, max_seq)
        self.ffn_norm = RMSNorm(dim)
        self.feed_forward = FeedForward(dim, hidden)

    def forward(self, x, pos, cos, sin, mask):
        h = x + self.attention(self.attention_norm(x), pos, cos, sin, mask)
        return h + self.feed_forward(self.ffn_norm(h))


class LlamaStep(nn.Module):
    """One decoder step: token id [1, 1] int64 and position [1] int64 in,
    logits [1, vocab] out. Caches are buffers written in place."""

    def __init__(self, layers=6, dim=288, heads=6, hidden=768, vocab=32000, max_seq=256):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Block(dim, heads, hidden, max_seq) for _ in range(layers))
        self.norm = RMSNorm(dim)
        self.output = nn.Linear(dim, vocab, bias=False)
        self.output.weight = self.tok_embeddings.weight  # tied, as in stories15M
        head_dim = dim // heads
        freqs = 1.0 / (10000.0 ** (torch.arange(0, head_dim, 2).float() / head_dim))
        angles = torch.outer(torch.arange(max_seq).float(), freqs)  # [max_seq, head_dim/2]
        self.register_buffer("rope_cos", torch.cos(angles))
        self.register_buffer("rope_sin", torch.sin(angles))
        self.register_buffer("positions", torch.arange(max_seq))

    def forward(self, tokens, pos):
        x = self.tok_embeddings(tokens).view(1, -1)                 # [1, dim]
        cos = torch.index_select(self.rope_cos, 0, pos).unsqueeze(0)  # [1, 1, head_dim/2]
        sin = torch.index_select(self.rope_sin, 0, pos).unsqueeze(0)
        # Positions after pos are masked: attention over the whole static cache.
        mask = torch.zeros(self.positions.shape).masked_fill(self.positions > pos, float("-inf"))
        mask = mask.view(1, 1, -1)
        for layer in self.layers:
            x = layer(x, pos, cos, sin, mask)
        return self.output(self.norm(x))


def _init_llama(m, gen):
    with torch.no_grad():
        for name, p in m.named_parameters():
            if name.endswith("norm.weight"):
                p.copy_(1.0 + 0.1 * torch.randn(p.shape, generator=gen))
            else:
                p.copy_(0.02 * torch.randn(p.shape, generator=gen))
    return m


LLAMA_TOKENS = (1, 347)  # the token at pos 0, then the token at pos 1


def llama_step():
    """The decoder step; its inputs are step 0's (pos 0). The zoo runs it as
    two executions of one loaded program (EXECUTIONS): pos 0, then pos 1 with
    another token, which reads the cache rows the first execution wrote."""
    gen = _seed(5)
    m = _init_llama(LlamaStep(), gen)
    return m.eval(), llama_steps()[0]


def llama_steps():
    return [(torch.tensor([[t]], dtype=torch.long), torch.tensor([p], dtype=torch.long))
            for p, t in enumerate(LLAMA_TOKENS)]


# --- digits -----------------------------------------------------------------

def digits():
    """The CNN of examples/digits, trained as train.py trains it (a second or
    two); input: a held-out sample."""
    sys.path.insert(0, os.path.join(_REPO, "examples", "digits"))
    try:
        import train as digits_train
    finally:
        sys.path.pop(0)
    model, (_, _, x_test, y_test), _ = digits_train.train(verbose=False)
    return model.eval(), (x_test[0:1].clone(),)


def executions(name, inputs):
    """The input tuples of each execution, in order: several for a model with
    state carried from one execution to the next (one `ptera run ... --then
    ...`), else just the factory's inputs."""
    return EXECUTIONS[name]() if name in EXECUTIONS else [inputs]


def eager_references(name, module, runs):
    """eager_reference for each execution in turn, on the SAME module, so its
    buffers carry state as the program's do: one list of tensors per run."""
    return [eager_reference(name, module, inputs) for inputs in runs]


def eager_reference(name, module, inputs):
    """The eager outputs to compare against, as a list of tensors. Runs on a
    fresh copy of the module's state (caches are reset by reconstructing), with
    grad enabled so the transformer takes its ordinary (non-fused) path."""
    with torch.enable_grad() if name == "transformer_encoder" else torch.no_grad():
        if name == "transformer_encoder":
            # The fused fast path is taken only when no parameter needs grad or
            # grad is off; requiring grad forces the composite path.
            flags = [p.requires_grad for p in module.parameters()]
            for p in module.parameters():
                p.requires_grad_(True)
            try:
                out = module(*inputs).detach()
            finally:
                for p, f in zip(module.parameters(), flags):
                    p.requires_grad_(f)
        else:
            out = module(*inputs)
    outs = out if isinstance(out, (tuple, list)) else [out]
    return [o.detach().clone() for o in outs]


FACTORIES = {
    "mlp": mlp,
    "digits": digits,
    "transformer_encoder": transformer_encoder,
    "llama_step": llama_step,
    "mobilenet_v2": mobilenet_v2,
    "resnet18": resnet18,
}
NAMES = list(FACTORIES)
HEAVY = {"transformer_encoder", "llama_step", "mobilenet_v2", "resnet18"}
EXECUTIONS = {"llama_step": llama_steps}  # models run several times, state kept


def get(name):
    return FACTORIES[name]()
