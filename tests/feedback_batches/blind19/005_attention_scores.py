import torch


def attention_scores(inputs):
    """(T, d) -> (T, T), entry [i, j] = inputs[i] . inputs[j]."""
    batched = inputs.unsqueeze(0)  # (1, T, d)
    return torch.bmm(batched, batched.mT).squeeze(0)  # (1, T, d) @ (1, d, T) -> (T, T)
