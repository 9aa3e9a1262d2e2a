"""Right values in forms the notebook asks for in words and does not charge: a running mean from
running sums where the stage asks for one matrix product, and a masked softmax that divides by the
row sums again after its softmax (two passes; one that zeroes the future only after the softmax is
charged: its hidden scores take part). (A running mean without a softmax misses what its stage is
for, and is charged: ``wrong_answers.py``.)"""

import torch


def causal_average_matmul(x):
    counts = torch.arange(1, x.shape[1] + 1, dtype=x.dtype, device=x.device)
    return x.cumsum(dim=1) / counts.unsqueeze(-1)  # the same values, with no (T, T) matrix


def masked_softmax(attn_scores, d_k):
    num_tokens = attn_scores.shape[-1]
    visible = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=attn_scores.device).tril()
    weights = torch.softmax((attn_scores / d_k**0.5).masked_fill(~visible, float("-inf")), dim=-1)
    return weights / weights.sum(dim=-1, keepdim=True)  # normalised a second time: already sums to 1
