import torch


def attention_scores(inputs):
    # polarisation identity: a.b = (|a + b|^2 - |a - b|^2) / 4, for all pairs by broadcasting
    sums = inputs.unsqueeze(1) + inputs.unsqueeze(0)   # (T, T, d)
    diffs = inputs.unsqueeze(1) - inputs.unsqueeze(0)  # (T, T, d)
    return (sums.pow(2).sum(-1) - diffs.pow(2).sum(-1)) / 4
