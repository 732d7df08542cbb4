"""The portable halves of bench/xnn_speed.sh: the same shapes as
bench/xnn_speed_gen.c writes for the XNNPACK delegate, as modules for
ptera's front end (python3 -m ptera.export bench.xnn_speed_models:fc ...).
The convolution takes NCHW, as the portable operator does; the delegate's
graph takes NHWC (XNNPACK.md §7), with the same multiply-adds."""
import torch


def fc():
    torch.manual_seed(0)
    return torch.nn.Linear(1024, 1024).eval(), (torch.randn(1024, 1024),)


def conv():
    torch.manual_seed(0)
    return torch.nn.Conv2d(64, 64, 3, padding=1).eval(), (torch.randn(1, 64, 56, 56),)
