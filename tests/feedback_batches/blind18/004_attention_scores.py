import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    # Gram matrix of the embeddings: entry [i, j] = <x_i, x_j>
    return torch.mm(inputs, inputs.swapaxes(0, 1))
