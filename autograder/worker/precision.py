"""True float32 everywhere: no TF32 in matrix products or convolutions, on any backend.

A GPU's float32 products may use TF32 (10 bits of mantissa), which makes a correct answer differ
from the reference by about 1e-3; CPUs with oneDNN may do the same in bfloat16. Both the trusted
process (the references) and every worker (the student's code) pin IEEE float32, through the
newer ``fp32_precision`` settings and the older ``allow_tf32`` flags alike, since either may be
the one a given torch reads. ``float32_settings`` reads back what is in effect, for the results.
"""

from __future__ import annotations

import contextlib

import torch

# The backends with an fp32_precision setting (torch 2.9 and later), by their path in torch.backends.
_PRECISION_SETTINGS = ("", "cuda.matmul", "cudnn", "cudnn.conv", "cudnn.rnn", "mkldnn", "mkldnn.matmul",
                       "mkldnn.conv", "mkldnn.rnn")


def _backend(path: str):
    backend = torch.backends
    for part in path.split(".") if path else []:
        backend = getattr(backend, part)
    return backend


def pin_float32() -> None:
    """IEEE float32 in every matrix product and convolution, set both ways: the older flags, then
    the newer settings (so that the two agree, which torch checks when either is read)."""
    with contextlib.suppress(RuntimeError):
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    for path in _PRECISION_SETTINGS:
        with contextlib.suppress(AttributeError, RuntimeError, ValueError):  # an older or newer torch
            _backend(path).fp32_precision = "ieee"
    torch.set_float32_matmul_precision("highest")


def float32_pinned() -> bool:
    """Whether IEEE float32 is still in effect (a cheap read: student code may have changed it)."""
    backends = torch.backends
    try:
        newer = {backends.fp32_precision, backends.cuda.matmul.fp32_precision, backends.cudnn.conv.fp32_precision}
    except AttributeError:  # a torch before 2.9
        newer = {"ieee"}
    try:
        return (newer == {"ieee"} and not backends.cuda.matmul.allow_tf32 and not backends.cudnn.allow_tf32
                and torch.get_float32_matmul_precision() == "highest")
    except RuntimeError:  # the two APIs disagree: not pinned
        return False


def math_attention_kernel() -> None:
    """F.scaled_dot_product_attention through its math kernel only (the references' kernel: the
    fused ones reorder the sums, and some compute in lower precision)."""
    torch.backends.cuda.enable_flash_sdp(False)
    torch.backends.cuda.enable_mem_efficient_sdp(False)
    with contextlib.suppress(AttributeError):
        torch.backends.cuda.enable_cudnn_sdp(False)
    torch.backends.cuda.enable_math_sdp(True)


def float32_settings() -> dict[str, str]:
    """The float32 settings in effect, as they read back (a setting this torch lacks is left out)."""
    settings = {"float32_matmul_precision": torch.get_float32_matmul_precision(),
                "cuda.matmul.allow_tf32": _read(lambda: torch.backends.cuda.matmul.allow_tf32),
                "cudnn.allow_tf32": _read(lambda: torch.backends.cudnn.allow_tf32),
                "sdpa.math_only": str(torch.backends.cuda.math_sdp_enabled()
                                      and not torch.backends.cuda.flash_sdp_enabled()
                                      and not torch.backends.cuda.mem_efficient_sdp_enabled())}
    for path in _PRECISION_SETTINGS:
        with contextlib.suppress(AttributeError, RuntimeError):
            settings[f"{path or 'backends'}.fp32_precision"] = str(_backend(path).fp32_precision)
    return dict(sorted(settings.items()))


def _read(setting) -> str:
    try:
        return str(setting())
    except RuntimeError:  # torch refuses to read it while the older and newer settings disagree
        return "unreadable (the older and newer settings disagree)"
