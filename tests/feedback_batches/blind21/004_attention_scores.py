import torch.nn.functional as F


def attention_scores(inputs):
    """(T, d) -> (T, T): entry [i, j] is the dot product of token i with token j."""
    # F.linear(x, W) computes x @ W.T: with W = inputs that is every pair of tokens
    return F.linear(inputs, inputs)
