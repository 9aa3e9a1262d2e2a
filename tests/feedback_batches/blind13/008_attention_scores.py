import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    return torch.matmul(inputs, inputs.mT).softmax(dim=-1)  # row i: how much query i likes each token
