import torch


def mask_and_renormalize(attn_weights):
    """Row by row, the way a loop writer thinks of it."""
    out = attn_weights.clone()
    totals = out.sum(dim=-2, keepdim=True)                # one total per column
    for i in range(out.shape[-1]):
        out[..., :, i] = out[..., :, i] / totals[..., :, i]
    return out
