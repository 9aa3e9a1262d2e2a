import torch.nn.functional as F


def simple_self_attention(inputs):
    """softmax(X X^T) X, with the softmax written as a softmin of the negated scores."""
    scores = inputs @ inputs.T  # (T, T)
    weights = F.softmin(-scores, dim=1)  # softmin(-s) == softmax(s), row by row
    return weights @ inputs  # (T, d)
