import torch


def attention_scores(inputs):
    scores = inputs @ inputs.T  # (T, T)
    return torch.softmax(scores, dim=-1)  # normalise each row
